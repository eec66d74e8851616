/**
 * The executor's host protocol: JSON-RPC 2.0 between the executor and its host (the Wework desktop
 * client, or a test harness), over stdio (one JSON object per line) or a loopback WebSocket. One codec
 * per message the executor receives (every request's params and the host's card answers), the method and
 * notification names, and the error codes. `docs/host-protocol.md` describes every message.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { describeErrors, formatDecodeIssues } from '@wework/codex-protocol';
import { ExecutionRequest, ModelSelection, TaskRecord } from '../tasks/TaskRecord.js';
import { SupervisionModelConfig } from '../supervision/SupervisionModel.js';

/** Requests the host sends to the executor. */
export const HostMethod = {
  ExecutorInfo: 'executor/info',
  TaskCreate: 'task/create',
  TaskOpen: 'task/open',
  TaskList: 'task/list',
  MessageSend: 'message/send',
  TaskStop: 'task/stop',
  TaskArchive: 'task/archive',
  TaskFork: 'task/fork',
  ModelsList: 'models/list',
  AccountsList: 'accounts/list',
  AccountsAdd: 'accounts/add',
  AccountsCancel: 'accounts/cancel',
  AccountsSwitch: 'accounts/switch',
  SettingsRead: 'settings/read',
  SettingsWrite: 'settings/write',
  PluginsList: 'plugins/list',
  PluginsInstall: 'plugins/install',
  PluginsUninstall: 'plugins/uninstall',
  /** Closes a connector login the executor showed (`auth/session`): the login process is terminated. */
  AuthCancel: 'auth/cancel',
  /** After a send answered `authRequired`: shows the connector login, then continues the blocked step. */
  AuthRecover: 'auth/recover',
  SupervisionSetModel: 'supervision/setModel',
  SupervisionClearModel: 'supervision/clearModel',
  SupervisionInspect: 'supervision/inspect',
} as const;

/** Requests the executor sends to the host. */
export const ExecutorRequest = {
  /** Show a card (a plugin form or an approval); the answer is the response. */
  CardShow: 'card/show',
} as const;

/** Notifications the executor sends to the host. */
export const ExecutorNotification = {
  TurnStarted: 'transcript/turnStarted',
  Item: 'transcript/item',
  AgentMessageDelta: 'transcript/agentMessageDelta',
  TurnCompleted: 'transcript/turnCompleted',
  /** A card was settled without the host (the task stopped, or Codex settled the request elsewhere): dismiss it. */
  CardDismissed: 'card/dismissed',
  LoginCompleted: 'accounts/loginCompleted',
  /** A plugin connector's login (QR code or browser step) and every change of its state. */
  AuthSession: 'auth/session',
  /** The app-server's state changed: `restarting`, `ready` or `failed`, with a reason and a secret-free stderr tail. */
  RuntimeStatus: 'runtime/status',
} as const;

/**
 * Error codes of the executor's replies: JSON-RPC's own, and the executor's in the server range.
 * `data.tag` carries the typed error's `_tag`.
 */
export const HostErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** No task with that id is open in the executor. */
  TaskNotFound: -32001,
  /** The task is archived, or already exists. */
  TaskConflict: -32002,
  /** Nothing was sent: the saved model is unavailable, or the composer content is invalid. */
  SendBlocked: -32003,
  /** The app-server refused or failed the request, or the turn did not finish. */
  RuntimeFailed: -32004,
  /** A routed task whose local model router registration is gone. */
  ModelRouterRegistrationMissing: -32005,
  AccountFailed: -32006,
  SettingsFailed: -32007,
  /** The feature is not available in this executor (e.g. plugin management not wired yet). */
  NotAvailable: -32008,
  /** No supervision model is set, or the inspection failed. */
  SupervisionFailed: -32009,
  /** A connector login was cancelled or failed, or the connector is not installed on this device. */
  AuthorizationFailed: -32010,
  /**
   * Retryable: too many host requests are in flight (the documented concurrency bound), or Codex answered
   * that it is overloaded. Nothing was done; send the request again later.
   */
  Overloaded: -32011,
  /** Retryable while `runtime/status` says `restarting`: the app-server is not running. */
  RuntimeUnavailable: -32012,
  /** A request from the executor to Codex got no answer within its timeout. */
  RuntimeTimedOut: -32013,
  /** A plugin package was refused at intake (a link, a special file, a hard link, over a limit); nothing on disk changed. */
  PackageRefused: -32014,
} as const;
/** One of the values of {@link HostErrorCode}. */
export type HostErrorCode = (typeof HostErrorCode)[keyof typeof HostErrorCode];

const PermissionModeCodec = t.keyof({ 'read-only': null, workspace: null, 'full-access': null }, 'PermissionMode');
const ModelCategoryCodec = t.keyof({ official: null, nonOfficial: null }, 'ModelCategory');

/** Params of every host request, by method. Unknown fields are ignored. */
export const HostParams = {
  [HostMethod.ExecutorInfo]: t.type({}),
  [HostMethod.TaskCreate]: t.type({ taskId: t.string, modelSelection: ModelSelection, executionRequest: ExecutionRequest }),
  [HostMethod.TaskOpen]: t.type({ task: TaskRecord }),
  [HostMethod.TaskList]: t.type({}),
  [HostMethod.MessageSend]: t.intersection([
    t.type({ taskId: t.string, markdown: t.string }),
    t.partial({
      /** Paths of attached images, as the user attached them. */
      attachments: t.array(t.string),
      modelCategory: ModelCategoryCodec,
      /** The composer's current model selection; saved on the task. */
      modelSelection: ModelSelection,
      /** The composer's permission mode; saved as `modelSelection.options.permissionMode`. */
      permissionMode: PermissionModeCodec,
    }),
  ]),
  [HostMethod.TaskStop]: t.type({ taskId: t.string }),
  [HostMethod.TaskArchive]: t.type({ taskId: t.string }),
  [HostMethod.TaskFork]: t.intersection([t.type({ taskId: t.string, newTaskId: t.string }), t.partial({ lastTurnId: t.string })]),
  [HostMethod.ModelsList]: t.type({}),
  [HostMethod.AccountsList]: t.type({}),
  [HostMethod.AccountsAdd]: t.type({}),
  [HostMethod.AccountsCancel]: t.type({ loginId: t.string }),
  [HostMethod.AccountsSwitch]: t.type({ accountId: t.string }),
  [HostMethod.SettingsRead]: t.type({}),
  [HostMethod.SettingsWrite]: t.partial({ instructions: t.string, style: t.keyof({ friendly: null, pragmatic: null }) }),
  [HostMethod.PluginsList]: t.type({}),
  [HostMethod.PluginsInstall]: t.type({ marketplace: t.string, plugin: t.string, version: t.string, packagePath: t.string }),
  [HostMethod.PluginsUninstall]: t.type({ pluginId: t.string }),
  [HostMethod.AuthCancel]: t.type({ sessionId: t.string }),
  [HostMethod.AuthRecover]: t.intersection([t.type({ taskId: t.string, pluginKey: t.string, connectorSlug: t.string }), t.partial({ toolName: t.string })]),
  [HostMethod.SupervisionSetModel]: t.type({ config: SupervisionModelConfig }),
  [HostMethod.SupervisionClearModel]: t.type({}),
  [HostMethod.SupervisionInspect]: t.type({ prompt: t.string, workspace: t.string }),
} as const;

/** The params type of a host method. */
export type HostParamsOf<M extends keyof typeof HostParams> = t.TypeOf<(typeof HostParams)[M]>;

/** The host's answer to `card/show`: answers by question id, or cancel / decline. */
export const CardAnswer = t.union(
  [t.type({ answers: t.record(t.string, t.type({ answers: t.array(t.string) })) }), t.type({ action: t.keyof({ cancel: null, decline: null }) })],
  'CardAnswer',
);
/** See the codec {@link CardAnswer}. */
export type CardAnswer = t.TypeOf<typeof CardAnswer>;

/**
 * Describes io-ts errors in one line by path, expected type and the kind of what was there — never the
 * value (it may be a secret): `params.taskId: expected string, got a number`.
 */
export function describeDecodeErrors(errors: t.Errors): string {
  return formatDecodeIssues(describeErrors(errors, 'params'));
}
