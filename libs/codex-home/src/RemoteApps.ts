/**
 * The "remote apps" switch: whether Codex initializes remote apps (ChatGPT connectors). Codex reads
 * it from the feature flag `[features] apps` of config.toml — a stable feature, on by default, that
 * takes effect only with ChatGPT auth. Per-app settings under `[apps.<id>]` are a different thing
 * and are left alone.
 *
 * Every function is pure: text in, text or a `_tag`ged error out. Edits go through
 * `@wework/config-toml`'s `setKey`, which keeps an edit only when reading the result back gives the
 * original document with just `features.apps` changed, so comments and layout survive and nothing
 * else can change.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TomlTable } from 'smol-toml';
import { parseToml, setKey, type MalformedConfig } from '@wework/config-toml';

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

/** The config's values, read by the one TOML reader (a leading byte-order mark is skipped). */
const readValues = (text: string): E.Either<MalformedConfig, TomlTable> => parseToml(text.startsWith('\uFEFF') ? text.slice(1) : text);

const isTable = (value: unknown): value is TomlTable => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The switch as config.toml sets it; {@link REMOTE_APPS_DEFAULT} when unset or not a boolean. */
export const readRemoteApps = (text: string): E.Either<MalformedConfig, boolean> =>
  E.map((doc: TomlTable) => {
    const features = doc['features'];
    const apps = isTable(features) ? features['apps'] : undefined;
    return typeof apps === 'boolean' ? apps : REMOTE_APPS_DEFAULT;
  })(readValues(text));

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
  const doc = readValues(text);
  if (E.isLeft(doc)) return doc;
  const features = doc.right['features'];
  if (features !== undefined && !isTable(features)) return E.left({ _tag: 'RemoteAppsNotEditable' });
  // The one config.toml editor: a new key goes first under an existing `[features]`, and every edit
  // is read back and compared before it is kept.
  const edited = setKey(text, ['features', 'apps'], enabled, { placement: 'start' });
  if (E.isRight(edited)) return edited;
  return edited.left._tag === 'MalformedConfig' ? E.left(edited.left) : E.left({ _tag: 'RemoteAppsNotEditable' });
};
