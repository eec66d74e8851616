/**
 * The task shapes of the host protocol: the task fields the executor needs and the host persists (which
 * Codex thread the task is, the model selection, the execution request), and the results of
 * `message/send` and `task/fork`. Credentials never live here: persisted task data has them redacted.
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

/** The permission mode a composer sends with `message/send`. */
export const PermissionMode = t.keyof({ 'read-only': null, workspace: null, 'full-access': null }, 'PermissionMode');
/** See the codec {@link PermissionMode}. */
export type PermissionMode = t.TypeOf<typeof PermissionMode>;

/** Which kind of model the composer shows (decides how the turn is composed). */
export const ModelCategory = t.keyof({ official: null, nonOfficial: null }, 'ModelCategory');
/** See the codec {@link ModelCategory}. */
export type ModelCategory = t.TypeOf<typeof ModelCategory>;

/**
 * The turn ended because a plugin connector needs a login on this device (`connector_auth_required`
 * in the final message or its tool calls): offer the login, then call `auth/recover` with it.
 */
export const AuthRequired = t.type({ pluginKey: t.string, connectorSlug: t.string, toolName: nullable(t.string) }, 'AuthRequired');
/** See the codec {@link AuthRequired}. */
export type AuthRequired = t.TypeOf<typeof AuthRequired>;

/**
 * How `message/send` delivers a message while the task's turn runs: `steer` adds it to that turn
 * (default), `queue` runs it as a turn of its own once the running one ended. With no turn running
 * either starts a turn.
 */
export const MessageDelivery = t.keyof({ steer: null, queue: null }, 'MessageDelivery');
/** See the codec {@link MessageDelivery}. */
export type MessageDelivery = t.TypeOf<typeof MessageDelivery>;

/** How a message was delivered: it started a turn, joined the running turn, or ran as its own turn after it. */
export const Delivered = t.keyof({ started: null, steered: null, queued: null }, 'Delivered');
/** See the codec {@link Delivered}. */
export type Delivered = t.TypeOf<typeof Delivered>;

/**
 * The result of `message/send`, once the turn it joined or started ended: that turn's id and status.
 * A queued message a `task/stop` cancelled before its turn started has `status: "cancelled"` and
 * `turnId: null`.
 */
export const SendResult = t.type(
  {
    taskId: t.string,
    threadId: t.string,
    turnId: nullable(t.string),
    /** The turn's status (`completed`, `interrupted`, `failed`), or `cancelled`. */
    status: t.string,
    delivery: Delivered,
    error: nullable(t.string),
    /** Attachments left out, or a corrupt persisted permission mode. */
    warnings: t.readonlyArray(t.string),
    authRequired: nullable(AuthRequired),
  },
  'SendResult',
);
/** See the codec {@link SendResult}. */
export type SendResult = t.TypeOf<typeof SendResult>;

/** The result of `task/fork`: the new task and what `thread/fork` answered. */
export const ForkResult = t.type(
  { task: TaskRecord, model: t.string, modelProvider: t.string, permissionProfile: nullable(t.string), cwd: t.string },
  'ForkResult',
);
/** See the codec {@link ForkResult}. */
export type ForkResult = t.TypeOf<typeof ForkResult>;
