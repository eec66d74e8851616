/**
 * Reads an image's format, stored dimensions and EXIF orientation from its first bytes, without
 * decoding a pixel: JPEG (SOF0–SOF2 and the EXIF APP1 orientation tag, both byte orders), PNG
 * (IHDR and the chunks before the first IDAT), WebP (VP8, VP8L, VP8X) and GIF.
 *
 * Every function is pure: bytes in, plain data out. Nothing here throws. The parser is
 * deliberately strict: whenever an image is not plainly well formed, or uses a variant whose
 * reading by the full decoder could differ (hierarchical JPEG, a PNG or WebP with EXIF data,
 * animated WebP, GIF screen quirks), it answers `Unsupported` so that the caller asks the full
 * decoder instead.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { HeaderResult } from './headerResult.js';
import { readGifHeader } from './gifHeader.js';
import { readJpegHeader } from './jpegHeader.js';
import { readPngHeader } from './pngHeader.js';
import { readWebpHeader } from './webpHeader.js';

export type { HeaderError, HeaderFormat, HeaderResult, Incomplete, ParsedHeader, Unrecognized, Unsupported } from './headerResult.js';

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>): boolean =>
  bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Reads the header at the start of `bytes` (the whole file or its first bytes).
 *
 * @example
 * ```ts
 * const header = parseImageHeader(firstBytes);
 * if (header._tag === 'Right') console.log(header.right.width, header.right.height);
 * else if (header.left._tag === 'Incomplete') readMoreAndRetry();
 * ```
 */
export function parseImageHeader(bytes: Uint8Array): HeaderResult {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return readJpegHeader(bytes);
  if (startsWith(bytes, PNG_SIGNATURE)) return readPngHeader(bytes);
  if (startsWith(bytes, ascii('RIFF')) && bytes.length >= 12 && startsWith(bytes.subarray(8), ascii('WEBP'))) return readWebpHeader(bytes);
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return readGifHeader(bytes);
  return E.left({ _tag: 'Unrecognized' });
}
