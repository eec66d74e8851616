/**
 * A config.toml text read for editing: its values as smol-toml reads them and where its tables and
 * key/value lines are.
 *
 * Every function here is pure: text in, a document or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import { parse, type TomlTable } from 'smol-toml';
import { editNotVerified, malformedConfigFrom, type ConfigError, type MalformedConfig } from './ConfigError.js';
import { scanLayout, type Layout, type Section, type Statement } from './internal/TomlLayout.js';
import { lineEndingOf, splitByteOrderMark } from './internal/TextEdits.js';

export type { Layout, Section, Statement } from './internal/TomlLayout.js';

/** A config text read for editing: its parts, its values and where its keys are. */
export interface TomlDocument {
  /** The byte order mark the text started with (`''` when none); it is kept. */
  readonly bom: string;
  /** The text after the byte order mark; offsets refer to it. */
  readonly body: string;
  readonly lineEnding: '\n' | '\r\n';
  readonly values: TomlTable;
  readonly layout: Layout;
}

/**
 * Parses TOML without throwing.
 *
 * @example
 * ```ts
 * parseToml('a = 1\n'); // Right({ a: 1 })
 * ```
 */
export function parseToml(text: string): E.Either<MalformedConfig, TomlTable> {
  try {
    return E.right(parse(text));
  } catch (thrown) {
    return E.left(malformedConfigFrom(thrown));
  }
}

/**
 * Reads a config text: {@link MalformedConfig} when it is not TOML.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 *
 * const read = readDocument('# mine\nmodel = "o3"\n');
 * E.isRight(read) && findStatement(read.right, ['model'])?.valueStart; // 15
 * ```
 */
export function readDocument(text: string): E.Either<ConfigError, TomlDocument> {
  const { bom, body } = splitByteOrderMark(text);
  const values = parseToml(body);
  if (E.isLeft(values)) return values;
  const layout = scanLayout(body);
  if (layout === null) return E.left(editNotVerified('the key/value lines of the document could not be located'));
  return E.right({ bom, body, lineEnding: lineEndingOf(body), values: values.right, layout });
}

/** Whether `prefix` is a prefix of `path` (equal paths included). */
export function startsWith(path: ReadonlyArray<string>, prefix: ReadonlyArray<string>): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

function samePath(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean {
  return a.length === b.length && startsWith(a, b);
}

/** The root table: always the first section. */
export function rootSection(document: TomlDocument): Section {
  return document.layout.sections[0] as Section;
}

/** The `[table]` section whose header names exactly `path` (never an array of tables). */
export function findTable(document: TomlDocument, path: ReadonlyArray<string>): Section | undefined {
  return document.layout.sections.find((section) => section.kind === 'table' && samePath(section.path, path));
}

/**
 * The `key = value` statement whose full key path is exactly `path`, outside arrays of tables
 * (where a path names no single value). `findStatement(doc, ['model'])` is the top-level `model`
 * line, never `[profiles.x] model = ...` nor a dotted `model.x = ...`.
 */
export function findStatement(document: TomlDocument, path: ReadonlyArray<string>): Statement | undefined {
  for (const section of document.layout.sections) {
    if (section.kind === 'arrayTable') continue;
    const found = section.statements.find((statement) => samePath(statement.path, path));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every statement, outside arrays of tables, whose full key path starts with `prefix`, with its section. */
export function statementsUnder(document: TomlDocument, prefix: ReadonlyArray<string>): ReadonlyArray<{ readonly section: Section; readonly statement: Statement }> {
  return document.layout.sections.flatMap((section) =>
    section.kind === 'arrayTable' ? [] : section.statements.filter((statement) => startsWith(statement.path, prefix)).map((statement) => ({ section, statement })),
  );
}
