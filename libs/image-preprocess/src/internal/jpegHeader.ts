/**
 * JPEG: the markers from SOI up to and including the SOS header — the frame size from SOF0,
 * SOF1 or SOF2 and the orientation from the EXIF APP1 segment (tag 0x0112 in IFD0, either byte
 * order). Pure: bytes in, plain data out; never throws.
 */
import { hasAscii, u16, u32 } from './bytes.js';
import { incomplete, parsed, unsupported, type HeaderResult } from './headerResult.js';

/** Baseline, extended sequential and progressive Huffman frames: what every decoder reads alike. */
const PLAIN_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** The other start-of-frame markers (lossless, hierarchical, arithmetic): left to the full decoder. */
const OTHER_FRAMES = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

/** The orientation in an EXIF payload (after `Exif\0\0`), `undefined` when absent, or `null` when not plainly readable. */
export function exifOrientation(tiff: Uint8Array): number | undefined | null {
  const little = hasAscii(tiff, 0, 'II') ? true : hasAscii(tiff, 0, 'MM') ? false : null;
  if (little === null || u16(tiff, 2, little) !== 42) return null;
  const ifd = u32(tiff, 4, little);
  if (ifd === undefined || ifd < 8) return null;
  const count = u16(tiff, ifd, little);
  if (count === undefined || ifd + 2 + count * 12 > tiff.length) return null;
  let orientation: number | undefined;
  for (let i = 0; i < count; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (u16(tiff, entry, little) !== ORIENTATION_TAG) continue;
    if (orientation !== undefined) return null; // a repeated tag: ambiguous
    const value = u16(tiff, entry + 8, little);
    if (u16(tiff, entry + 2, little) !== SHORT || u32(tiff, entry + 4, little) !== 1 || value === undefined) return null;
    if (value < 1 || value > 8) return null;
    orientation = value;
  }
  return orientation;
}

interface Frame {
  readonly width: number;
  readonly height: number;
}

/** Reads a JPEG header; `bytes` starts with FF D8 FF. */
export function readJpegHeader(bytes: Uint8Array): HeaderResult {
  let at = 2;
  let frame: Frame | undefined;
  let orientation: number | undefined;
  let exifSeen = false;
  for (;;) {
    if (at >= bytes.length) return incomplete('jpeg');
    if (bytes[at] !== 0xff) return unsupported('jpeg', 'bytes between markers');
    while (at < bytes.length && bytes[at] === 0xff) at += 1; // fill bytes
    if (at >= bytes.length) return incomplete('jpeg');
    const marker = bytes[at] ?? 0;
    at += 1;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no payload
    if (marker === 0xd8 || marker === 0xd9 || marker === 0x00) return unsupported('jpeg', 'unexpected marker before the scan');
    const length = u16(bytes, at);
    if (length === undefined) return incomplete('jpeg');
    if (length < 2) return unsupported('jpeg', 'segment length');
    const end = at + length;
    if (end > bytes.length) return incomplete('jpeg');
    const segment = bytes.subarray(at + 2, end);
    if (PLAIN_FRAMES.has(marker)) {
      if (frame !== undefined) return unsupported('jpeg', 'two frame headers');
      const height = u16(segment, 1) ?? 0;
      const width = u16(segment, 3) ?? 0;
      const components = segment[5] ?? 0;
      if (segment[0] !== 8) return unsupported('jpeg', 'sample precision other than 8 bits');
      if (width === 0 || height === 0) return unsupported('jpeg', 'zero dimension');
      if (![1, 3, 4].includes(components) || segment.length !== 6 + 3 * components) return unsupported('jpeg', 'frame components');
      frame = { width, height };
    } else if (OTHER_FRAMES.has(marker)) {
      return unsupported('jpeg', 'frame type left to the decoder');
    } else if (marker === 0xe1 && hasAscii(segment, 0, 'Exif\0\0')) {
      if (exifSeen) return unsupported('jpeg', 'two EXIF segments');
      exifSeen = true;
      const found = exifOrientation(segment.subarray(6));
      if (found === null) return unsupported('jpeg', 'EXIF not plainly readable');
      orientation = found;
    } else if (marker === 0xda) {
      if (frame === undefined) return unsupported('jpeg', 'scan before the frame header');
      return parsed('jpeg', frame.width, frame.height, orientation);
    }
    at = end;
  }
}
