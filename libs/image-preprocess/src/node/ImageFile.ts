/**
 * Reading an image's header and writing a reduced copy, with sharp. Every failure is a typed
 * `ImageError` value; nothing here throws or rejects.
 */
import { stat, writeFile, rm } from 'node:fs/promises';
import * as E from 'fp-ts/lib/Either.js';
import sharp from 'sharp';
import { isSupportedFormat, outputFormatOf, type ImageError, type SupportedFormat } from '../ImageError.js';
import type { ImageHeader, Resize } from '../ImagePlan.js';
import { readHeader } from './HeaderRead.js';

/** What the header of an attachment says, plus its file size. */
export interface MeasuredImage extends ImageHeader {
  readonly format: SupportedFormat;
  readonly bytes: number;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** Maps a decoder error to the matching `ImageError`. */
export function decodeErrorOf(path: string, error: unknown): ImageError {
  const reason = messageOf(error);
  if (/unsupported image format/i.test(reason)) return { _tag: 'UnsupportedFormat', path, format: null };
  if (/input file is missing/i.test(reason)) return { _tag: 'NotFound', path };
  if (/premature end|truncat|unexpected end/i.test(reason)) return { _tag: 'Truncated', path, reason };
  return { _tag: 'Corrupt', path, reason };
}

/**
 * Measures an attachment from its header only (no pixel is decoded): existence, size, format,
 * stored dimensions and EXIF orientation. JPEG, PNG, WebP and GIF headers are read from the
 * first bytes of the file by a small parser; other formats, and files the parser leaves to the
 * decoder, are measured with sharp.
 */
export async function measureImage(path: string): Promise<E.Either<ImageError, MeasuredImage>> {
  const read = await readHeader(path);
  if (read._tag === 'NotAFile') return E.left({ _tag: 'NotFound', path });
  if (read._tag === 'Unopened') return measureWithSharp(path);
  if (read.bytes === 0) return E.left({ _tag: 'Empty', path });
  if (E.isRight(read.header)) return E.right({ ...read.header.right, bytes: read.bytes });
  return measureWithSharp(path, read.bytes);
}

/** Measures with sharp's `metadata()`; `knownBytes` is the file size when already known. */
async function measureWithSharp(path: string, knownBytes?: number): Promise<E.Either<ImageError, MeasuredImage>> {
  let bytes: number;
  if (knownBytes === undefined) {
    try {
      const info = await stat(path);
      if (!info.isFile()) return E.left({ _tag: 'NotFound', path });
      bytes = info.size;
    } catch {
      return E.left({ _tag: 'NotFound', path });
    }
  } else {
    bytes = knownBytes;
  }
  if (bytes === 0) return E.left({ _tag: 'Empty', path });
  try {
    // The pixel limit is checked by the plan, so the header is read without sharp's own limit.
    const metadata = await sharp(path, { limitInputPixels: false }).metadata();
    if (!isSupportedFormat(metadata.format)) return E.left({ _tag: 'UnsupportedFormat', path, format: metadata.format ?? null });
    return E.right({ format: metadata.format, width: metadata.width, height: metadata.height, orientation: metadata.orientation, bytes });
  } catch (error) {
    return E.left(decodeErrorOf(path, error));
  }
}

/** Options of {@link writeResized}. */
export interface WriteResizedInput {
  readonly source: string;
  readonly target: string;
  readonly format: SupportedFormat;
  readonly plan: Resize;
  readonly maxPixels: number;
}

/**
 * Decodes `source`, applies its EXIF orientation, resizes it to the plan's exact size and
 * writes it to `target` (JPEG, PNG and WebP keep their format, the rest become PNG; metadata is
 * not copied, so the orientation tag does not apply twice). Decoding fails on truncated data.
 * Returns the number of bytes written. `source` is only read.
 */
export async function writeResized(input: WriteResizedInput): Promise<E.Either<ImageError, number>> {
  let data: Buffer;
  try {
    const pipeline = sharp(input.source, { failOn: 'truncated', limitInputPixels: input.maxPixels, sequentialRead: true })
      .rotate()
      .resize(input.plan.width, input.plan.height, { fit: 'fill' });
    const format = outputFormatOf(input.format);
    data = await (format === 'jpeg' ? pipeline.jpeg({ quality: 90 }) : format === 'webp' ? pipeline.webp({ quality: 90 }) : pipeline.png()).toBuffer();
  } catch (error) {
    return E.left(decodeErrorOf(input.source, error));
  }
  try {
    await writeFile(input.target, data, { flag: 'wx' });
    return E.right(data.length);
  } catch (error) {
    // A partial file is ours to remove; an existing one (EEXIST) is not.
    if ((error as { code?: unknown }).code !== 'EEXIST') await rm(input.target, { force: true }).catch(() => undefined);
    return E.left({ _tag: 'WriteFailed', path: input.target, reason: messageOf(error) });
  }
}
