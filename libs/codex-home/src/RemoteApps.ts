/**
 * The "remote apps" switch: whether Codex initializes remote apps (ChatGPT connectors). Codex reads
 * it from the feature flag `[features] apps` of config.toml — a stable feature, on by default, that
 * takes effect only with ChatGPT auth. Per-app settings under `[apps.<id>]` are a different thing
 * and are left alone.
 *
 * Every function is pure: text in, text or a `_tag`ged error out. A text edit is kept only when
 * reading the result back gives the original document with just `features.apps` changed, so
 * comments and layout survive and nothing else can change.
 */
import * as E from 'fp-ts/lib/Either.js';
import { parse, TomlError, type TomlTable } from 'smol-toml';
import { malformedConfig, UNKNOWN_TOML_REASON, type MalformedConfig } from '@wework/config-toml';

/** The config key path of the switch (for `config/read` and `config/batchWrite`). */
export const REMOTE_APPS_KEY_PATH = 'features.apps';

/** Codex's default when config.toml does not set `features.apps`. */
export const REMOTE_APPS_DEFAULT = true;

/** The text could not be edited without risking other settings (e.g. `features` is an inline table). */
export interface RemoteAppsNotEditable {
  readonly _tag: 'RemoteAppsNotEditable';
}

/** Why the switch could not be read or written. */
export type RemoteAppsError = MalformedConfig | RemoteAppsNotEditable;

/**
 * The `config/batchWrite` edit that sets the switch while the app-server runs.
 *
 * @example
 * ```ts
 * remoteAppsEdit(false); // { keyPath: 'features.apps', value: false, mergeStrategy: 'upsert' }
 * ```
 */
export const remoteAppsEdit = (enabled: boolean): { readonly keyPath: 'features.apps'; readonly value: boolean; readonly mergeStrategy: 'upsert' } => ({
  keyPath: 'features.apps',
  value: enabled,
  mergeStrategy: 'upsert',
});

const parseToml = (text: string): E.Either<MalformedConfig, TomlTable> => {
  try {
    return E.right(parse(text.startsWith('\uFEFF') ? text.slice(1) : text));
  } catch (thrown) {
    const [line, column] = thrown instanceof TomlError ? [thrown.line, thrown.column] : [1, 1];
    return E.left(malformedConfig(line, column, UNKNOWN_TOML_REASON));
  }
};

const isTable = (value: unknown): value is TomlTable => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The switch as config.toml sets it; {@link REMOTE_APPS_DEFAULT} when unset or not a boolean. */
export const readRemoteApps = (text: string): E.Either<MalformedConfig, boolean> =>
  E.map((doc: TomlTable) => {
    const features = doc['features'];
    const apps = isTable(features) ? features['apps'] : undefined;
    return typeof apps === 'boolean' ? apps : REMOTE_APPS_DEFAULT;
  })(parseToml(text));

/** A canonical form of a TOML value for comparison (sorted keys, dates by instant). */
const canonical = (value: unknown): unknown => {
  if (value instanceof Date) return `date:${value.toISOString()}:${String(value)}`;
  if (Array.isArray(value)) return value.map(canonical);
  if (isTable(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  return value;
};

const withApps = (doc: TomlTable, enabled: boolean): TomlTable => {
  const features = doc['features'];
  return { ...doc, features: { ...(isTable(features) ? features : {}), apps: enabled } };
};

const HEADER = /^\s*\[\s*features\s*\]\s*(#.*)?$/;
const ANY_HEADER = /^\s*\[/;
const APPS_LINE = /^(\s*apps\s*=\s*)(true|false)(\s*(#.*)?)$/;
const DOTTED_APPS_LINE = /^(\s*features\s*\.\s*apps\s*=\s*)(true|false)(\s*(#.*)?)$/;

/** Whether a line toggles a multi-line string (an odd number of `"""` or `'''`). */
const togglesMultiline = (line: string): boolean => (line.split('"""').length - 1) % 2 === 1 || (line.split("'''").length - 1) % 2 === 1;

/** Candidate text: the line-based edit (checked by the caller). */
const editText = (text: string, enabled: boolean): string => {
  const lineEnding = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(lineEnding);
  const value = String(enabled);
  let inMultiline = false;
  let section: 'root' | 'features' | 'other' = 'root';
  let headerAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (inMultiline) {
      if (togglesMultiline(line)) inMultiline = false;
      continue;
    }
    if (togglesMultiline(line)) {
      inMultiline = true;
      continue;
    }
    if (HEADER.test(line)) {
      section = 'features';
      headerAt = i;
      continue;
    }
    if (ANY_HEADER.test(line)) {
      if (section === 'features') break;
      section = 'other';
      continue;
    }
    const pattern = section === 'features' ? APPS_LINE : section === 'root' ? DOTTED_APPS_LINE : null;
    const match = pattern?.exec(line);
    if (match) {
      lines[i] = `${match[1] ?? ''}${value}${match[3] ?? ''}`;
      return lines.join(lineEnding);
    }
  }
  if (headerAt !== -1) {
    lines.splice(headerAt + 1, 0, `apps = ${value}`);
    return lines.join(lineEnding);
  }
  if (text.trim() === '') return `[features]${lineEnding}apps = ${value}${lineEnding}`;
  const separator = text.endsWith(lineEnding) ? lineEnding : lineEnding + lineEnding;
  return `${text}${separator}[features]${lineEnding}apps = ${value}${lineEnding}`;
};

/**
 * `text` with `[features] apps` set to `enabled`; the same text when it already is. Comments,
 * order and layout are kept; a new `[features]` table goes at the end.
 *
 * @example
 * ```ts
 * setRemoteApps('model = "x"\n', false); // Right('model = "x"\n\n[features]\napps = false\n')
 * ```
 */
export const setRemoteApps = (text: string, enabled: boolean): E.Either<RemoteAppsError, string> => {
  const doc = parseToml(text);
  if (E.isLeft(doc)) return doc;
  const features = doc.right['features'];
  if (isTable(features) && features['apps'] === enabled) return E.right(text);
  if (features !== undefined && !isTable(features)) return E.left({ _tag: 'RemoteAppsNotEditable' });
  const edited = editText(text, enabled);
  const reread = parseToml(edited);
  if (E.isLeft(reread)) return E.left({ _tag: 'RemoteAppsNotEditable' });
  const expected = JSON.stringify(canonical(withApps(doc.right, enabled)));
  return JSON.stringify(canonical(reread.right)) === expected ? E.right(edited) : E.left({ _tag: 'RemoteAppsNotEditable' });
};
