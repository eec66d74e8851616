/**
 * PNG: the IHDR chunk and every chunk before the first IDAT (lengths and CRCs checked, as the
 * decoder checks them). A PNG with an `eXIf` chunk is left to the full decoder, which may read an
 * orientation from it. Pure: bytes in, plain data out; never throws.
 */
import { hasAscii, u32 } from './bytes.js';
import { incomplete, parsed, unsupported, type HeaderResult } from './headerResult.js';

const CRC_TABLE: ReadonlyArray<number> = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (the PNG and zlib polynomial) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Allowed bit depths per colour type. */
const DEPTHS: Readonly<Record<number, ReadonlyArray<number>>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Dimensions above this are rejected by some PNG decoders' default limits; left to the decoder. */
const MAX_EDGE = 1_000_000;
/** Chunks read before giving up on finding IDAT. */
const MAX_CHUNKS = 1000;

/** Reads a PNG header; `bytes` starts with the PNG signature. */
export function readPngHeader(bytes: Uint8Array): HeaderResult {
  let at = 8;
  let size: { readonly width: number; readonly height: number } | undefined;
  for (let n = 0; n < MAX_CHUNKS; n += 1) {
    const length = u32(bytes, at);
    if (length === undefined || at + 8 > bytes.length) return incomplete('png');
    if (length > 0x7fffffff) return unsupported('png', 'chunk length');
    const end = at + 12 + length;
    if (end > bytes.length) return incomplete('png');
    const isHeader = hasAscii(bytes, at + 4, 'IHDR');
    if (n === 0 && !isHeader) return unsupported('png', 'first chunk is not IHDR');
    if (hasAscii(bytes, at + 4, 'IDAT')) {
      return size === undefined ? unsupported('png', 'no header') : parsed('png', size.width, size.height);
    }
    if (crc32(bytes.subarray(at + 4, end - 4)) !== u32(bytes, end - 4)) return unsupported('png', 'chunk CRC');
    if (isHeader) {
      if (n !== 0 || length !== 13) return unsupported('png', 'IHDR');
      const width = u32(bytes, at + 8) ?? 0;
      const height = u32(bytes, at + 12) ?? 0;
      const [depth, colour, compression, filter, interlace] = bytes.subarray(at + 16, at + 21);
      if (width === 0 || height === 0 || width > MAX_EDGE || height > MAX_EDGE) return unsupported('png', 'dimensions');
      if (!(DEPTHS[colour ?? -1] ?? []).includes(depth ?? -1) || compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) {
        return unsupported('png', 'IHDR fields');
      }
      size = { width, height };
    } else if (hasAscii(bytes, at + 4, 'eXIf')) {
      return unsupported('png', 'EXIF chunk');
    } else if (hasAscii(bytes, at + 4, 'IEND')) {
      return unsupported('png', 'no image data');
    }
    at = end;
  }
  return unsupported('png', 'too many chunks before the image data');
}
