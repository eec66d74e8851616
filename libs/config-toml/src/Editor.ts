/**
 * Setting and removing keys and tables of a config.toml text, keeping every other byte.
 *
 * A key path names a value however the document writes it: `[plugins."p@m"]` then `enabled = true`,
 * a dotted `plugins."p@m".enabled = true`, or any mix of the two. A value that exists is changed
 * where it is written; a new key joins the table that already holds its siblings (after its last
 * key/value line, or first with `placement: 'start'`), or a new `[table]` appended at the end.
 * What lives inside an inline table, an inline array or an array of tables is not rewritten:
 * {@link UnsupportedLayout}. Every result is read back by {@link applyVerified}: it parses and its
 * values are exactly the old ones with the one intended change, else an error and nothing to write.
 *
 * Every function here is pure: text in, text or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TomlValue } from 'smol-toml';
import { editNotVerified, unsupportedLayout, type TomlEditError } from './ConfigError.js';
import { findStatement, findTable, readDocument, rootSection, startsWith, statementsUnder, type TomlDocument } from './TomlDocument.js';
import { formatKeyPath } from './KeyPath.js';
import { isTable, tomlValuesEqual, valueAt } from './internal/TomlValues.js';
import {
  appendTable,
  applyVerified,
  insertLine,
  mergeRemovals,
  removeStatement,
  replaceValue,
  sectionRange,
  statementLine,
  type Placement,
  type TextEdit,
} from './VerifiedEdit.js';

/** Options of {@link setKey}. */
export interface SetKeyOptions {
  /** Where a new key goes in an existing `[table]`: after its last key/value line (default) or first. */
  readonly placement?: Placement;
}

/** An {@link UnsupportedLayout} when `path` goes through an inline value or an array of tables. */
function checkReachable(document: TomlDocument, path: ReadonlyArray<string>): E.Either<TomlEditError, void> {
  if (path.length === 0) return E.left(unsupportedLayout(path, 'the key path is empty'));
  for (let length = 1; length < path.length; length += 1) {
    const prefix = path.slice(0, length);
    if (findStatement(document, prefix) !== undefined || !(valueAt(document.values, prefix) === undefined || isTable(valueAt(document.values, prefix)))) {
      return E.left(unsupportedLayout(path, `\`${formatKeyPath(path)}\` is inside the inline value of \`${formatKeyPath(prefix)}\``));
    }
  }
  if (document.layout.sections.some((section) => section.kind === 'arrayTable' && startsWith(path, section.path))) {
    return E.left(unsupportedLayout(path, `\`${formatKeyPath(path)}\` is inside an array of tables`));
  }
  return E.right(undefined);
}

function edited(text: string, edit: (document: TomlDocument) => E.Either<TomlEditError, string>): E.Either<TomlEditError, string> {
  try {
    const read = readDocument(text);
    return E.isLeft(read) ? read : edit(read.right);
  } catch {
    return E.left(editNotVerified('the edit failed unexpectedly; the text was left as it is'));
  }
}

function insertionOf(document: TomlDocument, path: ReadonlyArray<string>, value: TomlValue, placement: Placement | undefined): TextEdit {
  const table = path.slice(0, -1);
  const key = path.slice(-1);
  if (table.length === 0) return insertLine(document, rootSection(document), statementLine(document, key, value), { placement: placement ?? 'end' });
  const section = findTable(document, table);
  if (section !== undefined) return insertLine(document, section, statementLine(document, key, value), { placement: placement ?? 'end' });
  const siblings = statementsUnder(document, table).filter(({ section }) => section.path.length < table.length);
  const last = siblings[siblings.length - 1];
  if (last !== undefined) {
    const line = statementLine(document, path.slice(last.section.path.length), value);
    const at = last.statement;
    return at.lineEnd === at.contentEnd ? { start: at.lineEnd, end: at.lineEnd, text: `${document.lineEnding}${line}` } : { start: at.lineEnd, end: at.lineEnd, text: `${line}${document.lineEnding}` };
  }
  return appendTable(document, table, [statementLine(document, key, value)]);
}

/**
 * Sets the value at `path`. Text that already holds that value is returned unchanged.
 *
 * @example
 * ```ts
 * setKey('model = "m"\n', ['plugins', 'forms@wework', 'enabled'], true);
 * // Right('model = "m"\n\n[plugins."forms@wework"]\nenabled = true\n')
 * setKey('plugins."forms@wework".enabled = true # on\n', ['plugins', 'forms@wework', 'enabled'], false);
 * // Right('plugins."forms@wework".enabled = false # on\n')
 * ```
 */
export function setKey(text: string, path: ReadonlyArray<string>, value: TomlValue, options: SetKeyOptions = {}): E.Either<TomlEditError, string> {
  return edited(text, (document) => {
    const reachable = checkReachable(document, path);
    if (E.isLeft(reachable)) return reachable;
    const current = valueAt(document.values, path);
    if (current !== undefined && tomlValuesEqual(current, value)) return E.right(text);
    const statement = findStatement(document, path);
    if (statement === undefined && current !== undefined) return E.left(unsupportedLayout(path, `\`${formatKeyPath(path)}\` is a table`));
    const edit = statement === undefined ? insertionOf(document, path, value, options.placement) : replaceValue(document, statement, value);
    return applyVerified(document, [edit], [{ path, value }]);
  });
}

/**
 * Removes the key at `path` (its whole line, trailing comment included). Text without it is
 * returned unchanged; a table is removed with {@link removeTable}.
 *
 * @example
 * ```ts
 * removeKey('# mine\nmodel = "o3"\nmodel_provider = "azure"\n', ['model']); // Right('# mine\nmodel_provider = "azure"\n')
 * ```
 */
export function removeKey(text: string, path: ReadonlyArray<string>): E.Either<TomlEditError, string> {
  return edited(text, (document) => {
    const reachable = checkReachable(document, path);
    if (E.isLeft(reachable)) return reachable;
    if (valueAt(document.values, path) === undefined) return E.right(text);
    const statement = findStatement(document, path);
    if (statement === undefined) return E.left(unsupportedLayout(path, `\`${formatKeyPath(path)}\` is a table`));
    return applyVerified(document, [removeStatement(statement)], [{ path, value: undefined }]);
  });
}

/**
 * Removes the table at `path`: its `[header]` section (with the blank line before it), its
 * sub-tables and every dotted key under it. Text without it is returned unchanged; a table
 * written as an inline value is {@link UnsupportedLayout}.
 *
 * @example
 * ```ts
 * removeTable('a = 1\n\n[plugins."x@m"]\nenabled = true\n', ['plugins', 'x@m']); // Right('a = 1\n')
 * ```
 */
export function removeTable(text: string, path: ReadonlyArray<string>): E.Either<TomlEditError, string> {
  return edited(text, (document) => {
    const reachable = checkReachable(document, path);
    if (E.isLeft(reachable)) return reachable;
    const current = valueAt(document.values, path);
    if (current === undefined) return E.right(text);
    if (findStatement(document, path) !== undefined || !isTable(current)) {
      return E.left(unsupportedLayout(path, `\`${formatKeyPath(path)}\` is written as an inline value, not as a table`));
    }
    const sections = document.layout.sections.filter((section) => section.kind !== 'root' && startsWith(section.path, path));
    const statements = statementsUnder(document, path).filter(({ section }) => !sections.includes(section));
    const removals = [...sections.map((section) => sectionRange(document, section)), ...statements.map(({ statement }) => removeStatement(statement))];
    return applyVerified(document, mergeRemovals(removals), [{ path, value: undefined }]);
  });
}
