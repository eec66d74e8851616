/**
 * The task fields the executor needs and the host persists: which Codex thread the task is, the model
 * selection (model, provider, category, permission mode) and the execution request (workspace, local
 * model router route). Credentials never live here: persisted task data has them redacted.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** The task's model choice, as the composer saved it. `options.permissionMode` is the permission mode. */
export const ModelSelection = t.intersection(
  [
    t.type({ model: nullable(t.string) }),
    t.partial({
      /** The `[model_providers.<id>]` the model runs on; null or absent: Codex's configured provider. */
      modelProvider: nullable(t.string),
      category: t.keyof({ official: null, nonOfficial: null }),
      /** Free-form options; `permissionMode` is read leniently by `@wework/approval-policy`. */
      options: t.UnknownRecord,
    }),
  ],
  'ModelSelection',
);
/** See the codec {@link ModelSelection}. */
export type ModelSelection = t.TypeOf<typeof ModelSelection>;

/** A task routed through Wework's local model router: the route's id (its credentials stay with the router). */
export const ModelRouterRoute = t.type({ routeId: t.string }, 'ModelRouterRoute');
/** See the codec {@link ModelRouterRoute}. */
export type ModelRouterRoute = t.TypeOf<typeof ModelRouterRoute>;

/** How the task executes: its workspace, and the local model router route when it has one. Other fields are kept as they are. */
export const ExecutionRequest = t.intersection(
  [t.type({ workspace: t.string }), t.partial({ modelRouter: nullable(ModelRouterRoute) })],
  'ExecutionRequest',
);
/** See the codec {@link ExecutionRequest}. */
export type ExecutionRequest = t.TypeOf<typeof ExecutionRequest> & Readonly<Record<string, unknown>>;

/** The persisted fields of a task. */
export const TaskRecord = t.type(
  {
    taskId: t.string,
    threadId: t.string,
    modelSelection: ModelSelection,
    executionRequest: ExecutionRequest,
    archived: t.boolean,
  },
  'TaskRecord',
);
/** See the codec {@link TaskRecord}. */
export interface TaskRecord {
  readonly taskId: string;
  readonly threadId: string;
  readonly modelSelection: ModelSelection;
  readonly executionRequest: ExecutionRequest;
  readonly archived: boolean;
}

/** A deep copy of plain JSON data (what `structuredClone` gives, typed). */
export function copyJson<A>(value: A): A {
  return structuredClone(value);
}
