/**
 * Codex plugin enablement in config.toml: `[plugins."<plugin>@<marketplace>"] enabled = true|false`,
 * or the same key written dotted (`plugins."<plugin>@<marketplace>".enabled = true`).
 *
 * Every function is pure: text in, text or a typed error out. The edits are made by
 * `@wework/config-toml`: minimal and textual — every byte outside the plugin's own lines is kept —
 * and each result is parsed again and compared with the intended document, so an edit that would
 * change anything else (a layout the editor does not rewrite, such as an inline table) is refused
 * instead of written.
 */
import * as E from 'fp-ts/lib/Either.js';
import { parseToml, removeTable, setKey, type TomlEditError } from '@wework/config-toml';

/** config.toml is not valid TOML. */
export interface ConfigParseFailed {
  readonly _tag: 'ParseFailed';
  readonly file: 'config.toml';
  readonly detail: string;
}

/** The plugin's enablement is written in a form this editor does not change safely. */
export interface UnsupportedConfigLayout {
  readonly _tag: 'UnsupportedConfigLayout';
  readonly file: 'config.toml';
  readonly key: string;
}

/** Errors of this module. */
export type ConfigTomlError = ConfigParseFailed | UnsupportedConfigLayout;

type Table = Record<string, unknown>;

const isTable = (u: unknown): u is Table => typeof u === 'object' && u !== null && !Array.isArray(u) && !(u instanceof Date);

const parseFailed = (message: string): ConfigParseFailed => ({ _tag: 'ParseFailed', file: 'config.toml', detail: `Invalid TOML document: ${message}` });

/** The plugin's `enabled` value in config.toml text: `null` when not set. */
export const readCodexEnablement = (text: string, key: string): E.Either<ConfigParseFailed, boolean | null> => {
  const doc = parseToml(text);
  if (E.isLeft(doc)) return E.left(parseFailed(doc.left.message));
  const plugins = doc.right['plugins'];
  const table = isTable(plugins) ? plugins[key] : undefined;
  const enabled = isTable(table) ? table['enabled'] : undefined;
  return E.right(typeof enabled === 'boolean' ? enabled : null);
};

const toConfigTomlError =
  (key: string) =>
  (error: TomlEditError): ConfigTomlError =>
    error._tag === 'MalformedConfig' ? parseFailed(error.message) : { _tag: 'UnsupportedConfigLayout', file: 'config.toml', key };

/**
 * Sets (`true`/`false`) or removes (`null`: the plugin's whole table goes) the plugin's enablement in
 * config.toml text. Text that already says what is asked is returned unchanged. A new `enabled`
 * line goes first in the plugin's table; a new table is appended at the end.
 *
 * @example
 * ```ts
 * setCodexEnablement('model = "m"\n', 'forms@wework', true);
 * // Right('model = "m"\n\n[plugins."forms@wework"]\nenabled = true\n')
 * ```
 */
export const setCodexEnablement = (text: string, key: string, enabled: boolean | null): E.Either<ConfigTomlError, string> =>
  E.mapLeft(toConfigTomlError(key))(enabled === null ? removeTable(text, ['plugins', key]) : setKey(text, ['plugins', key, 'enabled'], enabled, { placement: 'start' }));
