/**
 * Where the tables and key/value lines of a TOML document are, as character offsets, so that
 * edits can be textual and minimal.
 *
 * A document is a list of sections: the root table (everything before the first header), then one
 * section per `[table]` or `[[array.of.tables]]` header, each running to the next header. Every
 * key/value line belongs to exactly one section, and its full key path is the section's path
 * followed by its own (possibly dotted) key. The scanner runs only on text that smol-toml has
 * already accepted, so it can stay small; it still never throws and never loops: on anything it
 * does not expect it returns `null`, and the caller reports that the edit could not be made.
 *
 * Every function here is pure: text in, offsets out.
 */
import { parse } from 'smol-toml';

/** One `key = value` statement. */
export interface Statement {
  /** The dotted key as written, decoded (`"instr\u0075ctions"` is `['instructions']`). */
  readonly key: ReadonlyArray<string>;
  /** The full key path: the section's path, then {@link Statement.key}. */
  readonly path: ReadonlyArray<string>;
  /** Offset of the start of the statement's first line (its indentation included). */
  readonly lineStart: number;
  /** Offset of the first character of the key. */
  readonly keyStart: number;
  /** Offset just after the key's last character. */
  readonly keyEnd: number;
  /** Offset of the first character of the value. */
  readonly valueStart: number;
  /** Offset just after the value's last character. */
  readonly valueEnd: number;
  /** Offset just after the statement's last line, trailing comment included, line break excluded. */
  readonly contentEnd: number;
  /** Offset just after the line break that ends the statement (`contentEnd` at the end of the text). */
  readonly lineEnd: number;
}

/** The root table, or the part of a document a `[table]` or `[[array]]` header starts. */
export interface Section {
  readonly kind: 'root' | 'table' | 'arrayTable';
  /** The header's key path, decoded; `[]` for the root table. */
  readonly path: ReadonlyArray<string>;
  /** Offset of the start of the header's line (`0` for the root table). */
  readonly headerStart: number;
  /** Offset just after the header's last character, trailing comment included (`0` for the root table). */
  readonly headerContentEnd: number;
  /** Offset just after the header line's line break (`headerContentEnd` at the end of the text). */
  readonly headerEnd: number;
  /** The section's key/value statements, in order. */
  readonly statements: ReadonlyArray<Statement>;
  /** Offset of the start of the next header's line, or the length of the text. */
  readonly end: number;
}

/** Every section of a document, in order; the first is always the root table. */
export interface Layout {
  readonly sections: ReadonlyArray<Section>;
}

const BARE_KEY_CHAR = /[A-Za-z0-9_-]/;

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

function skipBlanks(text: string, p: number): number {
  let i = p;
  while (isBlank(text[i])) i += 1;
  return i;
}

function skipToLineBreak(text: string, p: number): number {
  let i = p;
  while (i < text.length && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) i += 1;
  return i;
}

function lineBreakLength(text: string, p: number): number {
  if (text[p] === '\n') return 1;
  if (text[p] === '\r' && text[p + 1] === '\n') return 2;
  return 0;
}

/** End of a string literal starting at `p` (any of the four kinds), or `null` when unterminated. */
function skipString(text: string, p: number): number | null {
  const quote = text[p];
  const escapes = quote === '"';
  if (text.startsWith(quote === '"' ? '"""' : "'''", p)) {
    let i = p + 3;
    while (i < text.length) {
      if (escapes && text[i] === '\\') {
        i += 2;
        continue;
      }
      if (text[i] === quote) {
        let run = 0;
        while (text[i + run] === quote) run += 1;
        if (run >= 3) return i + run;
        i += run;
        continue;
      }
      i += 1;
    }
    return null;
  }
  let i = p + 1;
  while (i < text.length) {
    if (escapes && text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text[i] === quote) return i + 1;
    if (text[i] === '\n') return null;
    i += 1;
  }
  return null;
}

/** End of an inline array or table starting at `p`. */
function skipNested(text: string, p: number): number | null {
  let depth = 0;
  let i = p;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = skipString(text, i);
      if (end === null) return null;
      i = end;
      continue;
    }
    if (c === '#') {
      i = skipToLineBreak(text, i);
      continue;
    }
    if (c === '[' || c === '{') depth += 1;
    else if (c === ']' || c === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
    i += 1;
  }
  return null;
}

/** End of the value starting at `p` (trailing blanks excluded). */
function skipValue(text: string, p: number): number | null {
  const c = text[p];
  if (c === '"' || c === "'") return skipString(text, p);
  if (c === '[' || c === '{') return skipNested(text, p);
  // A number, boolean, date or time: it ends at a comment or the end of the line
  // (an offset date-time may contain a blank: `1979-05-27 07:32:00Z`).
  let end = p;
  while (end < text.length && text[end] !== '#' && lineBreakLength(text, end) === 0) end += 1;
  while (end > p && isBlank(text[end - 1])) end -= 1;
  return end > p ? end : null;
}

/** Decodes one quoted key segment with smol-toml itself, so escapes mean exactly what they mean to TOML. */
function decodeQuotedKey(literal: string): string | null {
  try {
    const value = parse(`k = ${literal}`)['k'];
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Reads a dotted key at `p`: its decoded segments and the offset after it. */
function readKey(text: string, p: number): { readonly key: ReadonlyArray<string>; readonly keyEnd: number; readonly end: number } | null {
  const key: string[] = [];
  let i = p;
  let keyEnd = p;
  for (;;) {
    i = skipBlanks(text, i);
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = skipString(text, i);
      if (end === null) return null;
      const segment = decodeQuotedKey(text.slice(i, end));
      if (segment === null) return null;
      key.push(segment);
      i = end;
    } else {
      const start = i;
      while (i < text.length && BARE_KEY_CHAR.test(text[i] ?? '')) i += 1;
      if (i === start) return null;
      key.push(text.slice(start, i));
    }
    keyEnd = i;
    i = skipBlanks(text, i);
    if (text[i] !== '.') return { key, keyEnd, end: i };
    i += 1;
  }
}

/** A header line at `p` (blanks already skipped): its kind, path and the offsets after it. */
function readHeader(text: string, p: number): { readonly kind: 'table' | 'arrayTable'; readonly path: ReadonlyArray<string>; readonly contentEnd: number; readonly lineEnd: number } | null {
  const array = text.startsWith('[[', p);
  const key = readKey(text, p + (array ? 2 : 1));
  if (key === null) return null;
  const close = array ? ']]' : ']';
  if (!text.startsWith(close, key.end)) return null;
  let contentEnd = skipBlanks(text, key.end + close.length);
  if (text[contentEnd] === '#') contentEnd = skipToLineBreak(text, contentEnd);
  const endBreak = lineBreakLength(text, contentEnd);
  if (endBreak === 0 && contentEnd < text.length) return null;
  return { kind: array ? 'arrayTable' : 'table', path: key.key, contentEnd, lineEnd: contentEnd + endBreak };
}

interface OpenSection {
  readonly kind: Section['kind'];
  readonly path: ReadonlyArray<string>;
  readonly headerStart: number;
  readonly headerContentEnd: number;
  readonly headerEnd: number;
  readonly statements: Statement[];
}

/**
 * Scans a document smol-toml accepted (byte order mark already removed). `null` when the text
 * does not look as expected, which valid TOML never should.
 */
export function scanLayout(text: string): Layout | null {
  const sections: Section[] = [];
  let open: OpenSection = { kind: 'root', path: [], headerStart: 0, headerContentEnd: 0, headerEnd: 0, statements: [] };
  let p = 0;
  let lineStart = 0;
  while (p < text.length) {
    p = skipBlanks(text, p);
    const breakLength = lineBreakLength(text, p);
    if (breakLength > 0) {
      p += breakLength;
      lineStart = p;
      continue;
    }
    if (p >= text.length) break;
    if (text[p] === '#') {
      p = skipToLineBreak(text, p);
      continue;
    }
    if (text[p] === '[') {
      const header = readHeader(text, p);
      if (header === null) return null;
      sections.push({ ...open, end: lineStart });
      open = { kind: header.kind, path: header.path, headerStart: lineStart, headerContentEnd: header.contentEnd, headerEnd: header.lineEnd, statements: [] };
      p = header.lineEnd;
      lineStart = p;
      continue;
    }
    const keyStart = p;
    const key = readKey(text, p);
    if (key === null || text[key.end] !== '=') return null;
    const valueStart = skipBlanks(text, key.end + 1);
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd === null) return null;
    let contentEnd = skipBlanks(text, valueEnd);
    if (text[contentEnd] === '#') contentEnd = skipToLineBreak(text, contentEnd);
    const endBreak = lineBreakLength(text, contentEnd);
    if (endBreak === 0 && contentEnd < text.length) return null;
    const lineEnd = contentEnd + endBreak;
    open.statements.push({ key: key.key, path: [...open.path, ...key.key], lineStart, keyStart, keyEnd: key.keyEnd, valueStart, valueEnd, contentEnd, lineEnd });
    p = lineEnd;
    lineStart = p;
  }
  sections.push({ ...open, end: text.length });
  return { sections };
}
