/**
 * GIF: the logical screen size, accepted only when every frame lies inside it and the size is an
 * ordinary one (some decoders replace a zero, huge or well-known "desktop" screen size with the
 * frames' extent). The whole block structure is walked up to the trailer, so a GIF longer than
 * the bytes given is `Incomplete`. Pure: bytes in, plain data out; never throws.
 */
import { u16 } from './bytes.js';
import { incomplete, parsed, unsupported, type HeaderResult } from './headerResult.js';

const MAX_SCREEN_EDGE = 2048;
const DESKTOP_SIZES = new Set(['640x480', '640x512', '800x600', '1024x768', '1280x1024', '1600x1200']);

/** Skips data sub-blocks from `at`; the index after the terminator, or `undefined` past the end. */
const skipSubBlocks = (bytes: Uint8Array, from: number): number | undefined => {
  let at = from;
  for (;;) {
    const size = bytes[at];
    if (size === undefined) return undefined;
    at += 1 + size;
    if (size === 0) return at;
  }
};

const colourTableSize = (packed: number): number => ((packed & 0x80) !== 0 ? 3 * (1 << ((packed & 0x07) + 1)) : 0);

/** Reads a GIF header; `bytes` starts with `GIF87a` or `GIF89a`. */
export function readGifHeader(bytes: Uint8Array): HeaderResult {
  if (bytes.length < 13) return incomplete('gif');
  const width = u16(bytes, 6, true) ?? 0;
  const height = u16(bytes, 8, true) ?? 0;
  if (width === 0 || height === 0 || width > MAX_SCREEN_EDGE || height > MAX_SCREEN_EDGE || DESKTOP_SIZES.has(`${width}x${height}`)) {
    return unsupported('gif', 'screen size the decoder may replace');
  }
  let at = 13 + colourTableSize(bytes[10] ?? 0);
  let frames = 0;
  for (;;) {
    const block = bytes[at];
    if (block === undefined) return incomplete('gif');
    if (block === 0x3b) {
      return frames === 0 ? unsupported('gif', 'no frame') : parsed('gif', width, height);
    }
    if (block === 0x21) {
      if (at + 2 > bytes.length) return incomplete('gif');
      const next = skipSubBlocks(bytes, at + 2);
      if (next === undefined) return incomplete('gif');
      at = next;
    } else if (block === 0x2c) {
      if (at + 10 > bytes.length) return incomplete('gif');
      const left = u16(bytes, at + 1, true) ?? 0;
      const top = u16(bytes, at + 3, true) ?? 0;
      const frameWidth = u16(bytes, at + 5, true) ?? 0;
      const frameHeight = u16(bytes, at + 7, true) ?? 0;
      if (left + frameWidth > width || top + frameHeight > height) return unsupported('gif', 'frame outside the screen');
      const dataStart = at + 10 + colourTableSize(bytes[at + 9] ?? 0) + 1; // + LZW minimum code size
      if (dataStart > bytes.length) return incomplete('gif');
      const next = skipSubBlocks(bytes, dataStart);
      if (next === undefined) return incomplete('gif');
      frames += 1;
      at = next;
    } else {
      return unsupported('gif', 'unknown block');
    }
  }
}
