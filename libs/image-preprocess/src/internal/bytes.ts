/**
 * Bounds-checked integer reads from a byte array. Pure: bytes in, numbers out; a read past the
 * end gives `undefined`, never an exception.
 */

/** Unsigned 16-bit integer at `at`, big-endian unless `little`. */
export function u16(bytes: Uint8Array, at: number, little = false): number | undefined {
  if (at < 0 || at + 2 > bytes.length) return undefined;
  const a = bytes[at] ?? 0;
  const b = bytes[at + 1] ?? 0;
  return little ? a | (b << 8) : (a << 8) | b;
}

/** Unsigned 24-bit little-endian integer at `at` (WebP). */
export function u24le(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 3 > bytes.length) return undefined;
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
}

/** Unsigned 32-bit integer at `at`, big-endian unless `little`. */
export function u32(bytes: Uint8Array, at: number, little = false): number | undefined {
  if (at < 0 || at + 4 > bytes.length) return undefined;
  const [a, b, c, d] = [bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0];
  return little ? (a + b * 0x100 + c * 0x10000 + d * 0x1000000) : (a * 0x1000000 + b * 0x10000 + c * 0x100 + d);
}

/** `true` when `bytes` holds the ASCII `text` at `at`. */
export function hasAscii(bytes: Uint8Array, at: number, text: string): boolean {
  if (at < 0 || at + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i += 1) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}
