/**
 * The errors of preparing an image, as `_tag`ged values, and the prepared image itself.
 *
 * Plain data only: no IO happens here.
 */
import type { ModelCategory } from './ModelCategory.js';
import type { TooManyPixels } from './ImagePlan.js';

/** The attachment path does not exist or is not a regular file. */
export interface NotFound {
  readonly _tag: 'NotFound';
  readonly path: string;
}

/** The attachment is a zero-byte file. */
export interface Empty {
  readonly _tag: 'Empty';
  readonly path: string;
}

/** The file looks like an image but its header or pixel data cannot be decoded. */
export interface Corrupt {
  readonly _tag: 'Corrupt';
  readonly path: string;
  /** The decoder's message. */
  readonly reason: string;
}

/** The image data ends before the image does. */
export interface Truncated {
  readonly _tag: 'Truncated';
  readonly path: string;
  readonly reason: string;
}

/** Not an image format this package reads (a text file, a PDF, an SVG …). */
export interface UnsupportedFormat {
  readonly _tag: 'UnsupportedFormat';
  readonly path: string;
  /** The detected format, when the decoder named one. */
  readonly format: string | null;
}

/** The image has more pixels than the configured limit (decompression-bomb guard). */
export type TooManyPixelsError = TooManyPixels & { readonly path: string };

/** The model-input file could not be written. */
export interface WriteFailed {
  readonly _tag: 'WriteFailed';
  readonly path: string;
  readonly reason: string;
}

/** `prepare` was called after the turn's `end()`. */
export interface TurnEnded {
  readonly _tag: 'TurnEnded';
  readonly turnId: string;
}

/** Why an image could not be prepared. Never thrown: returned as `Left`. */
export type ImageError = NotFound | Empty | Corrupt | Truncated | UnsupportedFormat | TooManyPixelsError | WriteFailed | TurnEnded;

/** The turn's directory could not be removed. */
export interface RemoveFailed {
  readonly _tag: 'RemoveFailed';
  readonly path: string;
  readonly reason: string;
}

/** The image formats read by this package (sharp's names). */
export const SUPPORTED_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif'] as const;
/** One of {@link SUPPORTED_FORMATS}. */
export type SupportedFormat = (typeof SUPPORTED_FORMATS)[number];

/** `true` for a format this package reads. */
export function isSupportedFormat(format: string | undefined): format is SupportedFormat {
  return format !== undefined && (SUPPORTED_FORMATS as ReadonlyArray<string>).includes(format);
}

/**
 * The format a reduced copy is written in: the same format for JPEG, PNG and WebP; PNG for the
 * rest (GIF, TIFF and HEIF/AVIF are decoded to their first frame and written losslessly).
 */
export function outputFormatOf(format: SupportedFormat): 'jpeg' | 'png' | 'webp' {
  return format === 'jpeg' || format === 'webp' ? format : 'png';
}

/** What the model receives for one attachment. */
export interface PreparedImage {
  /** `Original`: `path` is the attachment itself; `Resized`: a turn-scoped model-input file. */
  readonly _tag: 'Original' | 'Resized';
  readonly path: string;
  /** Displayed width in pixels (after EXIF orientation). */
  readonly width: number;
  /** Displayed height in pixels (after EXIF orientation). */
  readonly height: number;
  readonly format: SupportedFormat;
  /** Size of the file at `path` in bytes. */
  readonly bytes: number;
  readonly modelCategory: ModelCategory;
}

/** One line describing an error, without file contents. */
export function describeImageError(error: ImageError): string {
  switch (error._tag) {
    case 'NotFound':
      return `image not found: ${error.path}`;
    case 'Empty':
      return `image is empty (0 bytes): ${error.path}`;
    case 'Corrupt':
      return `image is corrupt: ${error.path} (${error.reason})`;
    case 'Truncated':
      return `image is truncated: ${error.path} (${error.reason})`;
    case 'UnsupportedFormat':
      return `not a supported image format${error.format === null ? '' : ` (${error.format})`}: ${error.path}`;
    case 'TooManyPixels':
      return `image has ${error.pixels} pixels (${error.width}×${error.height}), more than the limit of ${error.limit}: ${error.path}`;
    case 'WriteFailed':
      return `could not write the model-input file ${error.path} (${error.reason})`;
    case 'TurnEnded':
      return `turn ${error.turnId} has ended; no more images can be prepared for it`;
  }
}
