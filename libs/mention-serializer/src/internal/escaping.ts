/**
 * The escaping rules of the mention markdown, in one place. Every function is pure: strings in,
 * strings out.
 *
 * - Text: `\[` stands for `[` and `\\` for `\`; any other backslash is literal. Serialization
 *   escapes a `[` only when a sigil (`$`, `@`) follows it, and a backslash only where it would
 *   otherwise be read as an escape.
 * - Labels (the name between `[$` and `]`): `\\`, `\[`, `\]` stand for `\`, `[`, `]`.
 * - Targets (between `(` and `)`): percent-encoding (UTF-8) of `%`, `(`, `)`, `[`, `]`, whitespace
 *   and control characters; in a plugin's name also `@`. Everything else, non-ASCII included, is
 *   written as is, so ordinary paths and ids look exactly like Codex's own form.
 */

/** Sigils that can open a mention label. */
export const isSigil = (c: string | undefined): boolean => c === '$' || c === '@';

const isSigilCode = (code: number): boolean => code === 0x24 /* $ */ || code === 0x40 /* @ */;

/** Escapes text so that {@link unescapeText} (as the parser applies it) returns it unchanged. */
export function escapeText(value: string, followedByMention: boolean): string {
  if (value.indexOf('\\') === -1) {
    // Without a backslash only a `[` before a sigil needs escaping: jump between the `[`s.
    let bracket = value.indexOf('[');
    while (bracket !== -1 && !isSigilCode(value.charCodeAt(bracket + 1))) bracket = value.indexOf('[', bracket + 1);
    if (bracket === -1) return value;
  }
  // Unchanged runs are copied as slices; only the escapes are written one by one.
  let out = '';
  let from = 0;
  let i = 0;
  while (i < value.length) {
    const c = value.charCodeAt(i);
    if (c === 0x5c /* \ */) {
      let j = i;
      while (value.charCodeAt(j) === 0x5c) j++;
      const run = j - i;
      const next = value[j];
      // A run is read pairwise; a single backslash is literal unless `[` or a mention follows.
      if (run > 1 || next === '[' || (next === undefined && followedByMention)) {
        out += value.slice(from, i) + '\\'.repeat(run * 2);
        from = j;
      }
      i = j;
      continue;
    }
    if (c === 0x5b /* [ */ && isSigil(value[i + 1])) {
      out += value.slice(from, i) + '\\[';
      from = i + 1;
    }
    i++;
  }
  return out + value.slice(from);
}

/** Escapes a mention name for use as a label. */
export function escapeLabel(name: string): string {
  return name.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

const TARGET_SPECIAL = /[%()[\]\s\p{Cc}]/gu;
const PLUGIN_NAME_SPECIAL = /[%()[\]@\s\p{Cc}]/gu;
/** `%XX` for each UTF-8 byte of one character (`encodeURIComponent` leaves `(` and `)` alone). */
function percentEncode(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x80 ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c);
}

/** Percent-encodes the characters a target may not contain raw. */
export function encodeTarget(value: string): string {
  return value.replace(TARGET_SPECIAL, percentEncode);
}

/** Percent-encodes a plugin name: like {@link encodeTarget}, and `@` too. */
export function encodePluginName(value: string): string {
  return value.replace(PLUGIN_NAME_SPECIAL, percentEncode);
}

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Decodes percent-encoding. A `%` without two hex digits, or a run that is not valid UTF-8, stays
 * as written: decoding never fails.
 */
export function decodeTarget(value: string): string {
  if (value.indexOf('%') === -1) return value;
  return value.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * Number of bytes of `value.slice(from, to)` in UTF-8, counting a lone surrogate as the 3 bytes of
 * U+FFFD (as `TextEncoder` and Node's `Buffer` write it). A long range is counted by the engine's
 * encoder (`TextEncoder.encodeInto`, through a fixed scratch buffer, several times faster than a
 * loop over the characters); a short one by {@link utf8LengthByLoop}, which costs less than a call
 * into the encoder.
 */
export function utf8Length(value: string, from = 0, to = value.length): number {
  if (to - from < ENCODER_THRESHOLD) return utf8LengthByLoop(value, from, to);
  let rest = from === 0 && to === value.length ? value : value.slice(from, to);
  let bytes = 0;
  for (;;) {
    const { read, written } = ENCODER.encodeInto(rest, SCRATCH);
    bytes += written;
    if (read >= rest.length) return bytes;
    rest = rest.slice(read);
  }
}

/** Ranges shorter than this are counted in a loop: below it the call into the encoder costs more. */
const ENCODER_THRESHOLD = 48;
/**
 * The standard `TextEncoder` (a global of every JavaScript runtime this package supports), declared
 * here with the one method used, since the package compiles without DOM or Node types.
 */
declare const TextEncoder: new () => { encodeInto(source: string, destination: Uint8Array): { read: number; written: number } };
const ENCODER = new TextEncoder();
/**
 * Where the encoder writes the bytes nobody reads; its length only bounds how much is counted per
 * call (the encoder stops before a character that does not fit, and reports how far it read).
 */
const SCRATCH = new Uint8Array(48 * 1024);

/** {@link utf8Length}, one character at a time. */
export function utf8LengthByLoop(value: string, from = 0, to = value.length): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < to) {
      const low = value.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
