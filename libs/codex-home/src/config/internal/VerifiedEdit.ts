/**
 * Reading a config text, and applying textual edits that are proven by reading the result back.
 *
 * Every function here is pure: text in, text or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import { parse, type TomlTable, type TomlValue } from 'smol-toml';
import { editNotVerified, malformedConfigFrom, type ConfigError, type MalformedConfig } from '../ConfigError.js';
import { scanRootSection, type RootSection, type RootStatement } from './RootSection.js';
import { applyTextEdits, lineEndingOf, splitByteOrderMark, type TextEdit } from './TextEdits.js';
import { hasOwnKey, ownValue, tablesEqualExcept, tomlValuesEqual } from './TomlValues.js';

/** A config text read for editing: its parts, its values and where its root keys are. */
export interface ReadConfig {
  /** The byte order mark the text started with (`''` when none); it is kept. */
  readonly bom: string;
  /** The text after the byte order mark; offsets refer to it. */
  readonly body: string;
  readonly lineEnding: '\n' | '\r\n';
  readonly values: TomlTable;
  readonly root: RootSection;
}

/** Parses TOML without throwing. */
export function parseToml(text: string): E.Either<MalformedConfig, TomlTable> {
  try {
    return E.right(parse(text));
  } catch (thrown) {
    return E.left(malformedConfigFrom(thrown));
  }
}

/** Reads a config text: {@link MalformedConfig} when it is not TOML. */
export function readConfig(text: string): E.Either<ConfigError, ReadConfig> {
  const { bom, body } = splitByteOrderMark(text);
  const values = parseToml(body);
  if (E.isLeft(values)) return values;
  const root = scanRootSection(body);
  if (root === null) return E.left(editNotVerified('the key/value lines of the root table could not be located'));
  return E.right({ bom, body, lineEnding: lineEndingOf(body), values: values.right, root });
}

/**
 * The edit that removes a statement: all its lines, its trailing comment and its line break,
 * nothing else (a last line without a line break leaves the line break before it in place).
 */
export function removeStatement(statement: RootStatement): TextEdit {
  return { start: statement.lineStart, end: statement.lineEnd, text: '' };
}

/**
 * The edit that adds a top-level `line` (without line break) to the root table, so it stays
 * before the first table header: after the last key/value line of the root table that is not
 * being removed, or at the start of the document when there is none. The document's line
 * ending is used; at the end of a document without a final line break, none is added.
 */
export function insertTopLevelLine(config: ReadConfig, line: string, removed: ReadonlyArray<RootStatement>): TextEdit {
  const kept = config.root.statements.filter((statement) => !removed.includes(statement));
  const last = kept[kept.length - 1];
  if (last === undefined) return { start: 0, end: 0, text: `${line}${config.lineEnding}` };
  if (last.lineEnd === last.contentEnd) return { start: last.lineEnd, end: last.lineEnd, text: `${config.lineEnding}${line}` };
  return { start: last.lineEnd, end: last.lineEnd, text: `${line}${config.lineEnding}` };
}

/** What the top-level keys an edit owns must read as afterwards (`undefined`: absent). */
export type ExpectedValues = ReadonlyMap<string, TomlValue | undefined>;

/**
 * Applies the edits and reads the result back: every top-level key not in `expected` must be
 * unchanged, every key in `expected` must read as expected. {@link EditNotVerified} otherwise.
 */
export function applyVerified(config: ReadConfig, edits: ReadonlyArray<TextEdit>, expected: ExpectedValues): E.Either<ConfigError, string> {
  if (edits.length === 0) return E.right(config.bom + config.body);
  const body = applyTextEdits(config.body, edits);
  const after = parseToml(body);
  if (E.isLeft(after)) return E.left(editNotVerified(`the edited text is not valid TOML (${after.left.message} at ${after.left.line}:${after.left.column})`));
  const owned = [...expected.keys()];
  if (!tablesEqualExcept(config.values, after.right, owned)) return E.left(editNotVerified('the edit changed a key it does not own'));
  for (const [key, value] of expected) {
    const present = hasOwnKey(after.right, key);
    if (value === undefined ? present : !present || !tomlValuesEqual(ownValue(after.right, key), value)) {
      return E.left(editNotVerified(`\`${key}\` does not read back as intended`));
    }
  }
  return E.right(config.bom + body);
}
