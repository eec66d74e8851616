/**
 * WebP: the first chunk of the RIFF container — `VP8 ` (lossy key frame), `VP8L` (lossless) or
 * `VP8X` (extended; its canvas size). Extended files with EXIF (possible orientation) or
 * animation are left to the full decoder. Pure: bytes in, plain data out; never throws.
 */
import { hasAscii, u16, u24le, u32 } from './bytes.js';
import { incomplete, parsed, unsupported, type HeaderResult } from './headerResult.js';

const EXIF_FLAG = 0x08;
const ANIMATION_FLAG = 0x02;

/** Reads a WebP header; `bytes` starts with `RIFF····WEBP`. */
export function readWebpHeader(bytes: Uint8Array): HeaderResult {
  const riffSize = u32(bytes, 4, true) ?? 0;
  if (riffSize < 12 || riffSize % 2 !== 0) return unsupported('webp', 'RIFF size');
  if (bytes.length < 30) return incomplete('webp');
  const chunkSize = u32(bytes, 16, true) ?? 0;
  if (chunkSize + 8 > riffSize - 4) return unsupported('webp', 'chunk size');
  const data = 20;
  if (hasAscii(bytes, 12, 'VP8 ')) {
    const tag = bytes[data] ?? 1;
    if ((tag & 1) !== 0) return unsupported('webp', 'not a key frame');
    if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) return unsupported('webp', 'VP8 start code');
    const width = (u16(bytes, data + 6, true) ?? 0) & 0x3fff;
    const height = (u16(bytes, data + 8, true) ?? 0) & 0x3fff;
    if (width === 0 || height === 0 || chunkSize < 10) return unsupported('webp', 'VP8 frame');
    return parsed('webp', width, height);
  }
  if (hasAscii(bytes, 12, 'VP8L')) {
    if (bytes[data] !== 0x2f || chunkSize < 5) return unsupported('webp', 'VP8L signature');
    const bits = u32(bytes, data + 1, true) ?? 0;
    if (bits >>> 29 !== 0) return unsupported('webp', 'VP8L version');
    return parsed('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (hasAscii(bytes, 12, 'VP8X')) {
    if (chunkSize < 10) return unsupported('webp', 'VP8X size');
    const flags = bytes[data] ?? 0;
    if ((flags & (EXIF_FLAG | ANIMATION_FLAG)) !== 0) return unsupported('webp', 'EXIF or animation');
    const width = (u24le(bytes, data + 4) ?? 0) + 1;
    const height = (u24le(bytes, data + 7) ?? 0) + 1;
    return parsed('webp', width, height);
  }
  return unsupported('webp', 'unknown first chunk');
}
