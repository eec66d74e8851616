/**
 * Why a config.toml text was not rewritten. Either way the caller keeps the file as it is.
 *
 * Error messages never quote the file: a config can hold secrets (environment values of MCP
 * servers, tokens in HTTP headers), and smol-toml's own messages end with an excerpt of the lines
 * around the error. Only smol-toml's short reason and the position are kept.
 *
 * Every function here is pure: values in, values out.
 */
import { TomlError } from 'smol-toml';

/** The text is not valid TOML; `line` and `column` are 1-based, as editors count them. */
export interface MalformedConfig {
  readonly _tag: 'MalformedConfig';
  readonly line: number;
  readonly column: number;
  /** smol-toml's reason (`invalid value`, `unfinished string`, ...), never a quote of the file. */
  readonly message: string;
}

/**
 * The edit was made but reading the result back did not give exactly the intended values (a key
 * the edit does not own changed, or the new value reads differently). This is a defect of this
 * library, reported instead of writing a file that could lose settings.
 */
export interface EditNotVerified {
  readonly _tag: 'EditNotVerified';
  readonly message: string;
}

/** Every reason a config text is left unchanged by the low-level edits (`applyVerified`). */
export type ConfigError = MalformedConfig | EditNotVerified;

/**
 * The key is written in a form the editor does not rewrite: inside an inline table or array, in an
 * array of tables, or as a table where a value is asked for (and the reverse). Nothing is changed.
 */
export interface UnsupportedLayout {
  readonly _tag: 'UnsupportedLayout';
  readonly path: ReadonlyArray<string>;
  readonly message: string;
}

/** Every reason `setKey`, `removeKey` or `removeTable` leaves a config text unchanged. */
export type TomlEditError = ConfigError | UnsupportedLayout;

/** Builds an {@link UnsupportedLayout}. */
export function unsupportedLayout(path: ReadonlyArray<string>, message: string): UnsupportedLayout {
  return { _tag: 'UnsupportedLayout', path, message };
}

/** Builds a {@link MalformedConfig}. */
export function malformedConfig(line: number, column: number, message: string): MalformedConfig {
  return { _tag: 'MalformedConfig', line, column, message };
}

/** Builds an {@link EditNotVerified}. */
export function editNotVerified(message: string): EditNotVerified {
  return { _tag: 'EditNotVerified', message };
}

/** The reason used when smol-toml's message is not one of its fixed reasons. */
export const UNKNOWN_TOML_REASON = 'invalid TOML document';

/**
 * The fixed reasons smol-toml 1.9 gives. A message that is not one of them (a future version's
 * reason, or one quoting a value) is replaced by {@link UNKNOWN_TOML_REASON}.
 */
const KNOWN_REASONS: ReadonlySet<string> = new Set([
  'control characters are not allowed in comments',
  'control characters are not allowed in strings',
  'document contains an unsafe property',
  'document contains excessively nested structures. aborting.',
  'each key-value declaration must be followed by an end-of-line',
  'expected comma or end of structure',
  'expected end of table array declaration',
  'illegal character in key',
  'illegal character in numeric literal',
  'illegal empty bare key',
  'illegal leading zero',
  'illegal quoted key: multiline strings are not allowed',
  'illegal underscore',
  'incomplete key-value: cannot find end of key',
  'integer value cannot be represented losslessly',
  'invalid date',
  'invalid date-time: date part is malformed',
  'invalid date-time: time part is malformed',
  'invalid escape: only line-ending whitespace may be escaped',
  'invalid non-hex character in unicode escape',
  'invalid unicode escape',
  'invalid value',
  'trying to redefine an already defined table or value',
  'trying to redefine an already defined value',
  'unexpected end of key',
  'unfinished array',
  'unfinished numeric value',
  'unfinished string',
  'unfinished table',
  'unrecognised escape sequence',
]);

const PREFIX = 'Invalid TOML document: ';

/** smol-toml's short reason: its message without the prefix and without the code excerpt. */
export function tomlErrorReason(error: TomlError): string {
  const withoutPrefix = error.message.startsWith(PREFIX) ? error.message.slice(PREFIX.length) : error.message;
  const firstLine = withoutPrefix.split('\n', 1)[0] ?? '';
  return KNOWN_REASONS.has(firstLine) ? firstLine : UNKNOWN_TOML_REASON;
}

/** The {@link MalformedConfig} of anything smol-toml's `parse` threw (position 1:1 when it has none). */
export function malformedConfigFrom(thrown: unknown): MalformedConfig {
  if (thrown instanceof TomlError) return malformedConfig(thrown.line, thrown.column, tomlErrorReason(thrown));
  return malformedConfig(1, 1, UNKNOWN_TOML_REASON);
}
