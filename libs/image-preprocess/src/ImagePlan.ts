/**
 * The decision what to send to the model for one image, from its header alone.
 *
 * Every function here is pure: numbers in, a plan or a typed error out. It never throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ModelCategory } from './ModelCategory.js';

/** The short edge, in pixels, above which images are reduced for non-official models. */
export const MAX_SHORT_EDGE = 720;

/**
 * The default decompression-bomb guard: images with more pixels than this (100 megapixels)
 * are refused before any pixel is decoded.
 */
export const DEFAULT_MAX_PIXELS = 100_000_000;

/** What the header says about an image. */
export interface ImageHeader {
  /** Width in pixels as stored (before EXIF orientation). */
  readonly width: number;
  /** Height in pixels as stored (before EXIF orientation). */
  readonly height: number;
  /** EXIF orientation 1–8, if any; 5–8 mean the displayed image is the stored one turned by 90°. */
  readonly orientation?: number | undefined;
}

/** The input of {@link planImage}. */
export interface PlanInput extends ImageHeader {
  readonly modelCategory: ModelCategory;
}

/** Limits of {@link planImage}; every field has a default. */
export interface PlanOptions {
  /** Short edge limit in pixels (default {@link MAX_SHORT_EDGE}). */
  readonly maxShortEdge?: number;
  /** Pixel limit of images that must be decoded (default {@link DEFAULT_MAX_PIXELS}). */
  readonly maxPixels?: number;
}

/** Send the original file, unchanged. */
export interface PassThrough {
  readonly _tag: 'PassThrough';
}

/**
 * Decode, apply the EXIF orientation, and resize to exactly `width` × `height` (displayed
 * orientation, i.e. after the orientation is applied).
 */
export interface Resize {
  readonly _tag: 'Resize';
  readonly width: number;
  readonly height: number;
}

/** What to do with one image. */
export type ImagePlan = PassThrough | Resize;

/** The header's dimensions are not positive integers. */
export interface InvalidDimensions {
  readonly _tag: 'InvalidDimensions';
  readonly width: number;
  readonly height: number;
}

/** The image would have to be decoded but has more pixels than the limit. */
export interface TooManyPixels {
  readonly _tag: 'TooManyPixels';
  readonly width: number;
  readonly height: number;
  readonly pixels: number;
  readonly limit: number;
}

/** Why no plan could be made. */
export type PlanError = InvalidDimensions | TooManyPixels;

/** The shared pass-through plan. */
export const passThrough: PassThrough = { _tag: 'PassThrough' };

const isDimension = (n: number): boolean => Number.isSafeInteger(n) && n > 0;

/** `true` when the EXIF orientation turns the image by 90° (orientations 5–8). */
export function swapsAxes(orientation: number | undefined): boolean {
  return orientation !== undefined && orientation >= 5 && orientation <= 8;
}

/** Width and height as displayed, after the EXIF orientation. */
export function displayedSize(header: ImageHeader): { readonly width: number; readonly height: number } {
  return swapsAxes(header.orientation) ? { width: header.height, height: header.width } : { width: header.width, height: header.height };
}

/**
 * Plans one image for a model.
 *
 * - Official models: {@link PassThrough}, always (the original is sent; nothing is decoded, so
 *   the pixel limit does not apply).
 * - Non-official models, short edge (displayed) at most `maxShortEdge`: {@link PassThrough}.
 * - Otherwise {@link Resize}: the short edge becomes exactly `maxShortEdge`; the long edge is
 *   scaled by the same factor, not capped, and rounded to the nearest integer (halves up),
 *   at least 1. So the aspect ratio is kept within half a pixel on the long edge.
 *   Dimensions are in displayed orientation: EXIF orientations 5–8 swap width and height.
 * - A resize of an image with more than `maxPixels` pixels is refused with {@link TooManyPixels}
 *   (the decompression-bomb guard); non-positive or non-integer dimensions give
 *   {@link InvalidDimensions}.
 *
 * @example
 * ```ts
 * planImage({ modelCategory: 'nonOfficial', width: 4000, height: 3000 }); // Right({ _tag: 'Resize', width: 960, height: 720 })
 * planImage({ modelCategory: 'nonOfficial', width: 800, height: 6000 }); // Right({ _tag: 'Resize', width: 720, height: 5400 })
 * planImage({ modelCategory: 'nonOfficial', width: 1000, height: 700 }); // Right({ _tag: 'PassThrough' })
 * planImage({ modelCategory: 'official', width: 4000, height: 3000 }); // Right({ _tag: 'PassThrough' })
 * ```
 */
export function planImage(input: PlanInput, options: PlanOptions = {}): E.Either<PlanError, ImagePlan> {
  const maxShortEdge = options.maxShortEdge ?? MAX_SHORT_EDGE;
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const { width, height } = input;
  if (!isDimension(width) || !isDimension(height)) return E.left({ _tag: 'InvalidDimensions', width, height });
  if (input.modelCategory === 'official') return E.right(passThrough);
  const shown = displayedSize(input);
  const shortEdge = Math.min(shown.width, shown.height);
  if (shortEdge <= maxShortEdge) return E.right(passThrough);
  const pixels = width * height;
  if (pixels > maxPixels) return E.left({ _tag: 'TooManyPixels', width, height, pixels, limit: maxPixels });
  const scaledLong = (long: number): number => Math.max(1, Math.round((long * maxShortEdge) / shortEdge));
  return E.right(
    shown.width <= shown.height
      ? { _tag: 'Resize', width: maxShortEdge, height: scaledLong(shown.height) }
      : { _tag: 'Resize', width: scaledLong(shown.width), height: maxShortEdge },
  );
}
