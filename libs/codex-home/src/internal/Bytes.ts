/**
 * Bytes, text and JSON without exceptions: base64url decoding, strict UTF-8, JSON parsing.
 *
 * Every function is pure: bytes or text in, an `Either` or plain data out. Nothing here throws.
 */
import * as E from 'fp-ts/lib/Either.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES: ReadonlyMap<string, number> = new Map([...BASE64URL].map((char, index) => [char, index]));

/**
 * Decodes base64url text (RFC 4648 §5, padding optional); `null` when it is not base64url.
 * Standard base64's `+` and `/` are accepted too.
 */
export const decodeBase64Url = (text: string): Uint8Array | null => {
  const body = text.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of body) {
    const value = VALUES.get(char === '+' ? '-' : char === '/' ? '_' : char);
    if (value === undefined) return null;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >> bits) & 0xff;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
};

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/**
 * `bytes` as strict UTF-8 text; `null` when not UTF-8. A leading byte order mark is dropped unless
 * `keepByteOrderMark` (then the text starts with U+FEFF, so writing it back keeps the file's bytes).
 */
export const textOf = (bytes: Uint8Array, keepByteOrderMark = false): string | null => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: keepByteOrderMark }).decode(bytes);
  } catch {
    return null;
  }
};

/** `JSON.parse` as an `Either`; the left side says nothing about the text. */
export const parseJson = (text: string): E.Either<'InvalidJson', unknown> => {
  try {
    return E.right(JSON.parse(text) as unknown);
  } catch {
    return E.left('InvalidJson');
  }
};

/** Whether two byte arrays hold the same bytes. */
export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** `bytes` as base64url text without padding (RFC 4648 §5). */
export const encodeBase64Url = (bytes: Uint8Array): string => {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += BASE64URL[(buffer >> bits) & 0x3f];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE64URL[(buffer << (6 - bits)) & 0x3f];
  return out;
};
