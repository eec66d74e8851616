/**
 * Textual edits of a config text read with `readDocument`, and applying them only when reading the
 * result back proves they did exactly what was intended.
 *
 * The edits are minimal: every byte they do not name (keys, comments, blank lines, order,
 * quoting, line endings, byte order mark) stays. Offsets refer to the document's body (the text
 * after its byte order mark).
 *
 * Every function here is pure: text in, text or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TomlTable, TomlValue } from 'smol-toml';
import { editNotVerified, type ConfigError } from './ConfigError.js';
import { parseToml, type Section, type Statement, type TomlDocument } from './TomlDocument.js';
import { formatKeyPath } from './KeyPath.js';
import { applyTextEdits, type TextEdit } from './internal/TextEdits.js';
import { tomlValuesEqual, valueAt, withValueAt } from './internal/TomlValues.js';
import { tomlValueText } from './internal/ValueText.js';

export type { TextEdit } from './internal/TextEdits.js';

/**
 * The edit that removes a statement: all its lines, its trailing comment and its line break,
 * nothing else (a last line without a line break leaves the line break before it in place).
 */
export function removeStatement(statement: Statement): TextEdit {
  return { start: statement.lineStart, end: statement.lineEnd, text: '' };
}

/** The edit that rewrites a statement's key as `keyText` (TOML key text), keeping its value exactly as written. */
export function renameKey(statement: Statement, keyText: string): TextEdit {
  return { start: statement.keyStart, end: statement.keyEnd, text: keyText };
}

/** The edit that replaces a statement's value with `value`, keeping its key and trailing comment. */
export function replaceValue(document: TomlDocument, statement: Statement, value: TomlValue): TextEdit {
  return { start: statement.valueStart, end: statement.valueEnd, text: tomlValueText(value, document.lineEnding) };
}

/** The `key = value` line (without line break) of a key path relative to its table. */
export function statementLine(document: TomlDocument, key: ReadonlyArray<string>, value: TomlValue): string {
  return `${formatKeyPath(key)} = ${tomlValueText(value, document.lineEnding)}`;
}

/** Where a new line goes in its table: right after the header, or after the table's last key/value line. */
export type Placement = 'start' | 'end';

/** Options of {@link insertLine}. */
export interface InsertOptions {
  readonly placement?: Placement;
  /** Statements other edits remove: a new line is never placed after one of them. */
  readonly removed?: ReadonlyArray<Statement>;
}

/**
 * The edit that adds `line` (without line break) to a section: after its last key/value line that
 * is not being removed (`placement: 'end'`, the default), or first (`'start'`): right after the
 * header, or at the start of the document for the root table. The document's line ending is used;
 * at the end of a document without a final line break, none is added.
 */
export function insertLine(document: TomlDocument, section: Section, line: string, options: InsertOptions = {}): TextEdit {
  const removed = options.removed ?? [];
  const kept = section.statements.filter((statement) => !removed.includes(statement));
  const last = options.placement === 'start' ? undefined : kept[kept.length - 1];
  if (last === undefined) {
    if (section.kind === 'root') return { start: 0, end: 0, text: `${line}${document.lineEnding}` };
    if (section.headerEnd === section.headerContentEnd) return { start: section.headerEnd, end: section.headerEnd, text: `${document.lineEnding}${line}` };
    return { start: section.headerEnd, end: section.headerEnd, text: `${line}${document.lineEnding}` };
  }
  if (last.lineEnd === last.contentEnd) return { start: last.lineEnd, end: last.lineEnd, text: `${document.lineEnding}${line}` };
  return { start: last.lineEnd, end: last.lineEnd, text: `${line}${document.lineEnding}` };
}

/**
 * The edit that appends a new `[path]` table holding `lines` at the end of the document, after a
 * blank line unless the document already ends with one (or is empty).
 */
export function appendTable(document: TomlDocument, path: ReadonlyArray<string>, lines: ReadonlyArray<string>): TextEdit {
  const { body, lineEnding } = document;
  const end = body.length;
  const finalBreak = body !== '' && !body.endsWith('\n') ? lineEnding : '';
  const lastLine = body.slice(body.lastIndexOf('\n', end - 2) + 1);
  const separator = body !== '' && lastLine.trim() !== '' ? lineEnding : '';
  const table = [`[${formatKeyPath(path)}]`, ...lines].map((line) => `${line}${lineEnding}`).join('');
  return { start: end, end, text: `${finalBreak}${separator}${table}` };
}

/** The range of a section's header and body, and of the blank line before it (the one {@link appendTable} adds). */
export function sectionRange(document: TomlDocument, section: Section): TextEdit {
  const start = section.headerStart;
  if (start === 0) return { start, end: section.end, text: '' };
  const previousStart = document.body.lastIndexOf('\n', start - 2) + 1;
  const blankBefore = document.body.slice(previousStart, start).trim() === '';
  return { start: blankBefore ? previousStart : start, end: section.end, text: '' };
}

/** Merges overlapping or touching removals into one edit each, so they can be applied together. */
export function mergeRemovals(removals: ReadonlyArray<TextEdit>): ReadonlyArray<TextEdit> {
  const merged: TextEdit[] = [];
  for (const edit of [...removals].sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last !== undefined && edit.start <= last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, edit.end), text: '' };
    else merged.push(edit);
  }
  return merged;
}

/** An intended change of one value: `value` `undefined` means the key is removed. */
export interface ValueChange {
  readonly path: ReadonlyArray<string>;
  readonly value: TomlValue | undefined;
}

function expectedValues(before: TomlTable, changes: ReadonlyArray<ValueChange>, pruneEmpty: boolean): TomlTable {
  return changes.reduce((table, change) => withValueAt(table, change.path, change.value, pruneEmpty), before);
}

/**
 * Applies the edits and reads the result back: it must be valid TOML whose values are exactly the
 * document's values with `changes` made (tables a removal leaves empty may be gone as well: TOML
 * cannot tell an empty implicit table from none). {@link EditNotVerified} otherwise, and nothing
 * is returned to write.
 */
export function applyVerified(document: TomlDocument, edits: ReadonlyArray<TextEdit>, changes: ReadonlyArray<ValueChange>): E.Either<ConfigError, string> {
  if (edits.length === 0) return E.right(document.bom + document.body);
  const body = applyTextEdits(document.body, edits);
  const after = parseToml(body);
  if (E.isLeft(after)) return E.left(editNotVerified(`the edited text is not valid TOML (${after.left.message} at ${after.left.line}:${after.left.column})`));
  const read = after.right;
  if (tomlValuesEqual(read, expectedValues(document.values, changes, false)) || tomlValuesEqual(read, expectedValues(document.values, changes, true))) {
    return E.right(document.bom + body);
  }
  const wrong = changes.find((change) => !tomlValuesEqual(valueAt(read, change.path), change.value));
  return E.left(editNotVerified(wrong === undefined ? 'the edit changed a key it does not own' : `\`${formatKeyPath(wrong.path)}\` does not read back as intended`));
}
