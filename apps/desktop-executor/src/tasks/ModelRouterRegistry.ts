/**
 * Wework's local model router as the executor sees it: a task routed through it has a registration
 * (the loopback proxy's provider id, model and the provider settings that point Codex at the proxy).
 * The registration is made when the task is created, with the real upstream credentials, and lives in
 * the router's memory; persisted task data only has the route id. A fork reuses the source's
 * registration and never re-registers from persisted (redacted) data.
 */
import type { JsonValue } from '@wework/codex-protocol';

/** A live registration of a task with the local model router. */
export interface ModelRouterRegistration {
  readonly routeId: string;
  /** The `[model_providers.<id>]` id Codex uses for the route. */
  readonly providerId: string;
  readonly model: string;
  /** The provider table pointing Codex at the router's loopback proxy (`name`, `base_url`, `wire_api`, ...); no upstream credentials. */
  readonly providerConfig: Readonly<Record<string, JsonValue>>;
}

/** The router's registrations, by task. */
export interface ModelRouterRegistry {
  /** The task's registration, or null when the router has none (never rebuilt from persisted data). */
  lookup(taskId: string): ModelRouterRegistration | null;
  /** Binds a task (a fork) to an existing registration. */
  bind(taskId: string, registration: ModelRouterRegistration): void;
}

/**
 * A registry held in memory.
 * @example
 * const registry = inMemoryModelRouterRegistry();
 * registry.bind('task-1', { routeId: 'r1', providerId: 'wework-router', model: 'local-llm', providerConfig: { name: 'Router', base_url: 'http://127.0.0.1:9000/v1', wire_api: 'responses' } });
 * registry.lookup('task-1')?.providerId; // 'wework-router'
 */
export function inMemoryModelRouterRegistry(): ModelRouterRegistry {
  const registrations = new Map<string, ModelRouterRegistration>();
  return {
    lookup: (taskId) => registrations.get(taskId) ?? null,
    bind: (taskId, registration) => void registrations.set(taskId, registration),
  };
}
