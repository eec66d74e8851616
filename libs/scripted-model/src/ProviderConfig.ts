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
 * Every function here is pure: plain data in, plain data out.
 */

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
