/**
 * The task fields the executor needs and the host persists: which Codex thread the task is, the model
 * selection (model, provider, category, permission mode) and the execution request (workspace, local
 * model router route). Credentials never live here: persisted task data has them redacted.
 *
 * The codecs are the host protocol's (`@wework/host-protocol`); every value here is plain data.
 */
export { ExecutionRequest, ModelRouterRoute, ModelSelection, TaskRecord } from '@wework/host-protocol';

/** A deep copy of plain JSON data (what `structuredClone` gives, typed). */
export function copyJson<A>(value: A): A {
  return structuredClone(value);
}
