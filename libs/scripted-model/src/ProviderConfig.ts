/**
 * Codex configuration for using the scripted model as the model provider, as plain objects
 * the caller writes with its own TOML writer. The settings make Codex fail fast: no request
 * or stream retries, and no unbounded reconnection when the model is unreachable.
 *
 * Measured on codex 0.171.0: `unbounded_connection_retries` is a *feature* flag
 * (`[features] unbounded_connection_retries = false`); inside `[model_providers.<id>]` it is
 * reported as an unrecognized setting and ignored, and a refused connection is then retried
 * forever. {@link scriptedModelCodexConfig} therefore puts it under `features`.
 *
 * {@link withScriptedModel} writes the same settings into an existing `config.toml` text through
 * `@wework/config-toml`, the project's config editor, keeping every other key and comment.
 *
 * Every function here is pure: plain data (or text) in, plain data (or text, or a `_tag`ged error) out.
 */
import * as E from 'fp-ts/lib/Either.js';
import { parseToml, removeKey, removeTable, setKey, type TomlEditError } from '@wework/config-toml';

/** The `[model_providers.<id>]` table for a Responses API provider. */
export interface ModelProviderSettings {
  readonly name: string;
  readonly base_url: string;
  readonly wire_api: 'responses';
  readonly request_max_retries: 0;
  readonly stream_max_retries: 0;
}

/** Options of {@link modelProviderSettings}. */
export interface ModelProviderOptions {
  /** The server's base URL ending in `/v1` (`ScriptedModel.url`). */
  readonly baseUrl: string;
  /** Display name Codex requires for a provider; default `Scripted model`. */
  readonly name?: string;
}

/**
 * The `[model_providers.<id>]` settings pointing Codex at the scripted model, fail-fast.
 *
 * @example
 * ```ts
 * modelProviderSettings({ baseUrl: 'http://127.0.0.1:4000/v1' });
 * // { name: 'Scripted model', base_url: 'http://127.0.0.1:4000/v1', wire_api: 'responses',
 * //   request_max_retries: 0, stream_max_retries: 0 }
 * ```
 */
export function modelProviderSettings(options: ModelProviderOptions): ModelProviderSettings {
  return {
    name: options.name ?? 'Scripted model',
    base_url: options.baseUrl,
    wire_api: 'responses',
    request_max_retries: 0,
    stream_max_retries: 0,
  };
}

/** Feature flags that make Codex fail fast against a local model. */
export interface FailFastFeatures {
  /** Without this a refused model connection is retried forever. */
  readonly unbounded_connection_retries: false;
  /** Stops the curated-plugin network sync at start. */
  readonly plugins: false;
}

/** The `[features]` flags that make Codex fail fast against a local model. */
export const failFastFeatures: FailFastFeatures = { unbounded_connection_retries: false, plugins: false };

/** Options of {@link scriptedModelCodexConfig}. */
export interface ScriptedModelConfigOptions extends ModelProviderOptions {
  /** Provider id (the `<id>` of `[model_providers.<id>]`); default `scripted`. */
  readonly providerId?: string;
  /** Model slug Codex sends; default `mock-model` (an unknown slug: no `apply_patch`, MCP tools offered directly). */
  readonly model?: string;
}

/** The top-level Codex config keys selecting the scripted model. */
export interface ScriptedModelCodexConfig {
  readonly model_provider: string;
  readonly model: string;
  readonly model_providers: Readonly<Record<string, ModelProviderSettings>>;
  readonly features: FailFastFeatures;
}

/**
 * The top-level Codex config selecting the scripted model, with fail-fast provider settings
 * and features; merge it into the rest of `config.toml` before writing.
 *
 * @example
 * ```ts
 * import { stringify } from 'smol-toml';
 * const toml = stringify({ ...scriptedModelCodexConfig({ baseUrl: model.url }) });
 * ```
 */
export function scriptedModelCodexConfig(options: ScriptedModelConfigOptions): ScriptedModelCodexConfig {
  const providerId = options.providerId ?? 'scripted';
  return {
    model_provider: providerId,
    model: options.model ?? 'mock-model',
    model_providers: { [providerId]: modelProviderSettings(options) },
    features: failFastFeatures,
  };
}

/** The key paths and values {@link withScriptedModel} writes, in the order it writes them. */
function configLeaves(config: ScriptedModelCodexConfig): ReadonlyArray<readonly [ReadonlyArray<string>, string | number | boolean]> {
  const leaves: Array<readonly [ReadonlyArray<string>, string | number | boolean]> = [
    [['model_provider'], config.model_provider],
    [['model'], config.model],
  ];
  for (const [id, provider] of Object.entries(config.model_providers)) {
    for (const [key, value] of Object.entries(provider)) leaves.push([['model_providers', id, key], value as string | number]);
  }
  for (const [key, value] of Object.entries(config.features)) leaves.push([['features', key], value as boolean]);
  return leaves;
}

/**
 * Writes the scripted model into a `config.toml` text (empty for a new file): `model_provider`,
 * `model`, the `[model_providers.<id>]` table (exactly the scripted model's settings: a key an earlier
 * run left in it is removed) and the fail-fast `[features]` flags of {@link scriptedModelCodexConfig}. Every other
 * key, table and comment stays as it was written. The edits are `@wework/config-toml`'s: each is
 * read back and verified; a text that is not TOML, or that writes one of these keys inside an inline
 * table, is a `_tag`ged error and nothing to write.
 *
 * @example
 * ```ts
 * withScriptedModel('[mcp_servers.forms]\ncommand = "node"\n', { baseUrl: 'http://127.0.0.1:4000/v1' });
 * // Right('model_provider = "scripted"\nmodel = "mock-model"\n[mcp_servers.forms]\ncommand = "node"\n\n' +
 * //   '[model_providers.scripted]\nname = "Scripted model"\nbase_url = "http://127.0.0.1:4000/v1"\nwire_api = "responses"\n' +
 * //   'request_max_retries = 0\nstream_max_retries = 0\n\n[features]\nunbounded_connection_retries = false\nplugins = false\n')
 * ```
 */
export function withScriptedModel(text: string, options: ScriptedModelConfigOptions): E.Either<TomlEditError, string> {
  const config = scriptedModelCodexConfig(options);
  let result: E.Either<TomlEditError, string> = E.right(text);
  const edit = (step: (current: string) => E.Either<TomlEditError, string>): void => {
    result = E.chain(step)(result);
  };
  // Keys of an earlier provider table with this id that the new one does not have are removed, so the
  // table ends up exactly the scripted model's; its own keys are then changed where they are written.
  for (const [id, settings] of Object.entries(config.model_providers)) {
    edit((current) =>
      E.chain((values: Readonly<Record<string, unknown>>) => {
        const providers = values['model_providers'];
        const existing = isTable(providers) ? providers[id] : undefined;
        if (existing === undefined) return E.right(current);
        if (!isTable(existing)) return removeKey(current, ['model_providers', id]);
        let next: E.Either<TomlEditError, string> = E.right(current);
        for (const [key, value] of Object.entries(existing)) {
          if (key in settings) continue;
          const path = ['model_providers', id, key];
          next = E.chain((inner: string) => (isTable(value) ? removeTable(inner, path) : removeKey(inner, path)))(next);
        }
        return next;
      })(parseToml(current.replace(/^\uFEFF/, ''))),
    );
  }
  for (const [path, value] of configLeaves(config)) edit((current) => setKey(current, path, value));
  return result;
}

function isTable(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
