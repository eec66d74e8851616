/**
 * A string value written as TOML text that reads back as exactly the same string.
 *
 * Every function here is pure: text in, text out.
 */
import { parse } from 'smol-toml';

function escapeCharacter(c: string): string {
  switch (c) {
    case '\\':
      return '\\\\';
    case '"':
      return '\\"';
    case '\b':
      return '\\b';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\f':
      return '\\f';
    case '\r':
      return '\\r';
    default: {
      const code = c.charCodeAt(0);
      return code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0').toUpperCase()}` : c;
    }
  }
}

/** Escapes backslashes, quotes and control characters; everything else stays as it is. */
function escapeBasic(value: string): string {
  let escaped = '';
  for (const c of value) escaped += escapeCharacter(c);
  return escaped;
}

/** A single-line basic string (`"..."`): every backslash, quote and control character escaped. */
export function basicString(value: string): string {
  return `"${escapeBasic(value)}"`;
}

/**
 * A multi-line basic string (`"""..."""`) whose raw line breaks are the document's `lineEnding`:
 * every occurrence of `lineEnding` in the value is written as a real line break (TOML keeps a raw
 * line break inside a multi-line string as it is), everything else that needs it is escaped. The
 * line break right after the opening delimiter is dropped by TOML readers, so the value starts on
 * its own line.
 */
export function multiLineBasicString(value: string, lineEnding: '\n' | '\r\n'): string {
  const lines = value.split(lineEnding).map(escapeBasic);
  return `"""${lineEnding}${lines.join(lineEnding)}"""`;
}

function readsBackAs(literal: string, value: string): boolean {
  try {
    return parse(`v = ${literal}`)['v'] === value;
  } catch {
    return false;
  }
}

/**
 * The TOML text of a string value, for a document whose line breaks are `lineEnding`: a multi-line
 * basic string when the value has line breaks of that style (easier to read and edit by hand),
 * otherwise a single-line basic string. The multi-line form is checked by reading it back with
 * smol-toml; the single-line form escapes everything that could be read differently.
 */
export function tomlString(value: string, lineEnding: '\n' | '\r\n'): string {
  if (value.includes(lineEnding)) {
    const multiLine = multiLineBasicString(value, lineEnding);
    if (readsBackAs(multiLine, value)) return multiLine;
  }
  return basicString(value);
}
