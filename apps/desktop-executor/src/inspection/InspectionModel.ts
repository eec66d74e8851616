/**
 * The supervision model configuration the host sends over local IPC: which model inspects a task, and
 * how to reach it (a Responses API endpoint and its credentials). It lives in process memory only:
 * never persisted, never logged. Its JSON form and its `util.inspect` form are redacted, so a stray
 * `JSON.stringify` or `console.log` cannot leak the credentials.
 */
import { inspect } from 'node:util';
import type { JsonValue } from '@wework/codex-protocol';
import type { SupervisionModelConfig } from '@wework/host-protocol';

const REDACTED = '[supervision model config redacted]';

/** The supervision model held in memory; the config is only reachable through `use`. */
export interface HeldModelConfig {
  readonly model: string;
  readonly providerId: string;
  /** The thread/start overrides that point the inspection thread at the model; never log them. */
  threadOverrides(): { readonly model: string; readonly modelProvider: string; readonly config: { [key: string]: JsonValue } };
  toJSON(): string;
}

/**
 * Holds a config in memory.
 * @example
 * const held = holdModelConfig({ model: 'qwen', providerId: 'supervisor', baseUrl: 'http://127.0.0.1:8080/v1', bearerToken: 'sk-…' });
 * JSON.stringify(held); // '"[supervision model config redacted]"'
 */
export function holdModelConfig(config: SupervisionModelConfig): HeldModelConfig {
  const secret = structuredClone(config);
  const provider: { [key: string]: JsonValue } = {
    name: secret.name ?? 'Wework supervision model',
    base_url: secret.baseUrl,
    wire_api: 'responses',
    request_max_retries: 0,
    stream_max_retries: 0,
    ...(secret.bearerToken === undefined ? {} : { experimental_bearer_token: secret.bearerToken }),
    ...(secret.headers === undefined ? {} : { http_headers: secret.headers }),
  };
  const held = {
    model: secret.model,
    providerId: secret.providerId,
    threadOverrides: () => ({ model: secret.model, modelProvider: secret.providerId, config: { [`model_providers.${secret.providerId}`]: provider } }),
    toJSON: () => REDACTED,
    [inspect.custom]: () => REDACTED,
  };
  return held;
}
