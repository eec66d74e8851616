/**
 * Replacements of character ranges, the document's line-ending style and its byte order mark.
 *
 * Every function here is pure: text in, text out.
 */

/** Replace `[start, end)` of the text with `text` (an insertion when `start === end`). */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The line break the document already uses: its first one, `\n` for a document without any. */
export function lineEndingOf(text: string): '\n' | '\r\n' {
  const lf = text.indexOf('\n');
  return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n';
}

const BYTE_ORDER_MARK = '\uFEFF';

/** Splits a leading byte order mark off the text. */
export function splitByteOrderMark(text: string): { readonly bom: string; readonly body: string } {
  return text.startsWith(BYTE_ORDER_MARK) ? { bom: BYTE_ORDER_MARK, body: text.slice(1) } : { bom: '', body: text };
}

/**
 * Applies non-overlapping edits. Edits are applied from the end of the text to its start, so
 * offsets always refer to the original text; an insertion at the end of a removed range lands
 * after it.
 */
export function applyTextEdits(text: string, edits: ReadonlyArray<TextEdit>): string {
  const ordered = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let result = text;
  for (const edit of ordered) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
