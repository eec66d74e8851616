/**
 * The requests a host sends to the executor, one descriptor each: the method literal, the codec of its
 * params (unknown fields are ignored) and the codec of its result. `docs/host-protocol.md` describes
 * every one; {@link HostRequests} lists them by method.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { codecs } from '@wework/codex-protocol';
import { requestDescriptor } from './Descriptor.js';
import { AccountList, Inspection, PluginSummary, RuntimeStatus, SupervisionModelConfig } from './Services.js';
import { MarketplacesAdd, MarketplacesList, MarketplacesRefresh, MarketplacesRemove, MarketplacesReorder, PluginsCatalog, PluginsRead } from './Marketplaces.js';
import { InstalledInventory, TrialResult, UpdateStatus } from './Inventory.js';
import { SkillsList, SkillWorkspace } from './Skills.js';
import { CardsPending, EventsSubscribe, EventsUnsubscribe } from './Events.js';
import { RuntimeClearWegentToken, RuntimeSetWegentToken } from './WegentToken.js';
import { ExecutionRequest, ForkResult, MessageDelivery, ModelCategory, ModelSelection, PermissionMode, SendResult, TaskRecord } from './Tasks.js';

/** The result of the requests that answer nothing but success: `{}`. */
export const EmptyResult = t.type({}, 'EmptyResult');
/** See the codec {@link EmptyResult}. */
export type EmptyResult = t.TypeOf<typeof EmptyResult>;

const NoParams = t.type({});
const TaskResult = t.type({ task: TaskRecord });

/** `executor/info`: who the executor is, and the app-server's current status (also a cheap readiness probe). */
export const ExecutorInfo = requestDescriptor(
  'executor/info',
  NoParams,
  t.type({ executor: t.string, protocolVersion: t.number, codexUserAgent: t.string, runtime: RuntimeStatus }),
);
/** `task/create`: starts the task's thread with its model, provider, permission mode and workspace. */
export const TaskCreate = requestDescriptor('task/create', t.type({ taskId: t.string, modelSelection: ModelSelection, executionRequest: ExecutionRequest }), TaskResult);
/** `task/open`: opens a persisted task; its thread is resumed before its next turn. */
export const TaskOpen = requestDescriptor('task/open', t.type({ task: TaskRecord }), TaskResult);
/** `task/list`: the open tasks. */
export const TaskList = requestDescriptor('task/list', NoParams, t.type({ tasks: t.readonlyArray(TaskRecord) }));
/**
 * `message/send`: composes the message and runs it as a turn, or, while the task's turn runs, adds it to
 * that turn (`delivery: "steer"`, the default) or queues it for a turn of its own (`"queue"`); answers
 * once the turn it joined or started ended.
 */
export const MessageSend = requestDescriptor(
  'message/send',
  t.intersection([
    t.type({ taskId: t.string, markdown: t.string }),
    t.partial({
      /** Paths of attached images, as the user attached them. */
      attachments: t.array(t.string),
      modelCategory: ModelCategory,
      /** The composer's current model selection; saved on the task. */
      modelSelection: ModelSelection,
      /** The composer's permission mode; saved as `modelSelection.options.permissionMode`. */
      permissionMode: PermissionMode,
      /** While the task's turn runs: join it (`steer`, default) or wait for a turn of its own (`queue`). */
      delivery: MessageDelivery,
    }),
  ]),
  SendResult,
);
/** `task/stop`: cancels the task's waiting cards and interrupts its turn. */
export const TaskStop = requestDescriptor('task/stop', t.type({ taskId: t.string }), EmptyResult);
/** `task/archive`: archives the task's thread. */
export const TaskArchive = requestDescriptor('task/archive', t.type({ taskId: t.string }), EmptyResult);
/** `task/fork`: forks the task's thread (up to `lastTurnId`) into a new task. */
export const TaskFork = requestDescriptor(
  'task/fork',
  t.intersection([t.type({ taskId: t.string, newTaskId: t.string }), t.partial({ lastTurnId: t.string })]),
  ForkResult,
);
/** `models/list`: Codex's models (`model/list` without hidden ones, every page, Codex's order). */
export const ModelsList = requestDescriptor('models/list', NoParams, t.type({ models: t.readonlyArray(codecs.Model) }));
/** `accounts/list`: the accounts of this device. */
export const AccountsList = requestDescriptor('accounts/list', NoParams, AccountList);
/** `accounts/add`: starts a ChatGPT login; `accounts/loginCompleted` follows. */
export const AccountsAdd = requestDescriptor('accounts/add', NoParams, t.type({ loginId: t.string, authUrl: t.string }));
/** `accounts/cancel`: cancels a login started with `accounts/add`. */
export const AccountsCancel = requestDescriptor('accounts/cancel', t.type({ loginId: t.string }), EmptyResult);
/** `accounts/switch`: makes an account the active one (refused while work runs). */
export const AccountsSwitch = requestDescriptor(
  'accounts/switch',
  t.type({ accountId: t.string }),
  t.type({ switched: t.boolean, accountId: t.string, email: t.union([t.string, t.null]) }),
);
/** `settings/read`: the user's custom instructions and interaction style. */
export const SettingsRead = requestDescriptor('settings/read', NoParams, t.type({ instructions: t.string, style: t.union([t.string, t.null]) }));
/** `settings/write`: writes the given settings. */
export const SettingsWrite = requestDescriptor('settings/write', t.partial({ instructions: t.string, style: t.keyof({ friendly: null, pragmatic: null }) }), EmptyResult);
/** `plugins/list`: the plugins of the management page. */
export const PluginsList = requestDescriptor('plugins/list', NoParams, t.type({ plugins: t.readonlyArray(PluginSummary) }));
/**
 * `plugins/install`: installs (or updates to) a version of a Wegent cloud plugin from a package the host
 * unpacked (`{ marketplace, plugin, version, packagePath }`), or a plugin of a local or official
 * marketplace through Codex (`{ marketplace, plugin }`, neither `version` nor `packagePath`).
 */
export const PluginsInstall = requestDescriptor(
  'plugins/install',
  t.union([
    t.type({ marketplace: t.string, plugin: t.string, version: t.string, packagePath: t.string }),
    t.intersection([t.type({ marketplace: t.string, plugin: t.string }), t.partial({ version: t.undefined, packagePath: t.undefined })]),
  ]),
  t.type({ plugin: PluginSummary }),
);
/** `plugins/uninstall`: removes a plugin. */
export const PluginsUninstall = requestDescriptor('plugins/uninstall', t.type({ pluginId: t.string }), EmptyResult);
/** `auth/cancel`: closes a connector login the executor showed (`auth/session`); the login process is terminated. */
export const AuthCancel = requestDescriptor('auth/cancel', t.type({ sessionId: t.string }), EmptyResult);
/** `auth/recover`: after a send answered `authRequired`, shows the connector login, then continues the blocked step. */
export const AuthRecover = requestDescriptor(
  'auth/recover',
  t.intersection([t.type({ taskId: t.string, pluginKey: t.string, connectorSlug: t.string }), t.partial({ toolName: t.string })]),
  t.type({ continuation: t.string, turn: SendResult }),
);
/** `supervision/setModel`: holds the supervision model in memory. */
export const SupervisionSetModel = requestDescriptor('supervision/setModel', t.type({ config: SupervisionModelConfig }), t.type({ model: t.string }), {
  secrets: [
    ['config', 'bearerToken'],
    ['config', 'headers', '*'],
  ],
});
/** `supervision/clearModel`: forgets the supervision model. */
export const SupervisionClearModel = requestDescriptor('supervision/clearModel', NoParams, EmptyResult);
/** `supervision/inspect`: runs an inspection in its own ephemeral thread. */
export const SupervisionInspect = requestDescriptor('supervision/inspect', t.type({ prompt: t.string, workspace: t.string }), Inspection);

/** `plugins/installed`: the one inventory of installed plugins (marketplace, management view, chat picker). */
export const PluginsInstalled = requestDescriptor('plugins/installed', NoParams, InstalledInventory);
/** `plugins/setEnabled`: switches a whole installed plugin on or off. */
export const PluginsSetEnabled = requestDescriptor('plugins/setEnabled', t.type({ pluginId: t.string, enabled: t.boolean }), EmptyResult);
/** `skills/setEnabled`: switches one skill on or off, by its `SKILL.md` path or its name (Codex's `skills/config/write`). */
export const SkillsSetEnabled = requestDescriptor(
  'skills/setEnabled',
  t.union([t.type({ path: t.string, enabled: t.boolean }), t.type({ name: t.string, enabled: t.boolean })]),
  t.type({ effectiveEnabled: t.boolean }),
);
/**
 * `skills/read`: the `SKILL.md` of a skill the inventory lists, or `skills/list` lists for the workspace (`taskId`,
 * `cwd` or neither, as there), by its path (at most 64 KiB of it; `truncated` when there is more).
 */
export const SkillsRead = requestDescriptor('skills/read', t.intersection([t.type({ path: t.string }), SkillWorkspace]), t.type({ name: t.string, markdown: t.string, truncated: t.boolean }));
/** `apps/setEnabled`: switches one app (connector) of an installed plugin on or off (`[apps.<id>] enabled`). */
export const AppsSetEnabled = requestDescriptor('apps/setEnabled', t.type({ id: t.string, enabled: t.boolean }), EmptyResult);
/** `integrations/apps/read`: the remote Apps / Connectors switch (`features.apps`). */
export const IntegrationsAppsRead = requestDescriptor('integrations/apps/read', NoParams, t.type({ enabled: t.boolean }));
/** `integrations/apps/write`: sets the remote Apps / Connectors switch. */
export const IntegrationsAppsWrite = requestDescriptor('integrations/apps/write', t.type({ enabled: t.boolean }), t.type({ enabled: t.boolean }));
/** `plugins/trial`: "Try in chat" (`preparePluginTrial`): reuse the plugin on this device, or say it needs installing, never installing. */
export const PluginsTrial = requestDescriptor('plugins/trial', t.type({ plugin: t.string, marketplace: t.string, deviceId: t.string }), TrialResult);
/**
 * `plugins/retryUpdate`: checks a bundled plugin again (typically after `updateFailed`) and upgrades it
 * when it differs; answers once the check was admitted (`updating`) or with the status it has.
 */
export const PluginsRetryUpdate = requestDescriptor('plugins/retryUpdate', t.type({ pluginId: t.string }), t.type({ status: UpdateStatus }));

/** Every request a host sends to the executor, by method. */
export const HostRequests = {
  [ExecutorInfo.method]: ExecutorInfo,
  [TaskCreate.method]: TaskCreate,
  [TaskOpen.method]: TaskOpen,
  [TaskList.method]: TaskList,
  [MessageSend.method]: MessageSend,
  [TaskStop.method]: TaskStop,
  [TaskArchive.method]: TaskArchive,
  [TaskFork.method]: TaskFork,
  [ModelsList.method]: ModelsList,
  [AccountsList.method]: AccountsList,
  [AccountsAdd.method]: AccountsAdd,
  [AccountsCancel.method]: AccountsCancel,
  [AccountsSwitch.method]: AccountsSwitch,
  [SettingsRead.method]: SettingsRead,
  [SettingsWrite.method]: SettingsWrite,
  [PluginsList.method]: PluginsList,
  [PluginsInstall.method]: PluginsInstall,
  [PluginsUninstall.method]: PluginsUninstall,
  [AuthCancel.method]: AuthCancel,
  [AuthRecover.method]: AuthRecover,
  [SupervisionSetModel.method]: SupervisionSetModel,
  [SupervisionClearModel.method]: SupervisionClearModel,
  [SupervisionInspect.method]: SupervisionInspect,
  [MarketplacesList.method]: MarketplacesList,
  [MarketplacesAdd.method]: MarketplacesAdd,
  [MarketplacesRemove.method]: MarketplacesRemove,
  [MarketplacesReorder.method]: MarketplacesReorder,
  [MarketplacesRefresh.method]: MarketplacesRefresh,
  [PluginsCatalog.method]: PluginsCatalog,
  [PluginsRead.method]: PluginsRead,
  [PluginsInstalled.method]: PluginsInstalled,
  [PluginsSetEnabled.method]: PluginsSetEnabled,
  [SkillsSetEnabled.method]: SkillsSetEnabled,
  [SkillsList.method]: SkillsList,
  [SkillsRead.method]: SkillsRead,
  [AppsSetEnabled.method]: AppsSetEnabled,
  [IntegrationsAppsRead.method]: IntegrationsAppsRead,
  [IntegrationsAppsWrite.method]: IntegrationsAppsWrite,
  [PluginsTrial.method]: PluginsTrial,
  [PluginsRetryUpdate.method]: PluginsRetryUpdate,
  [EventsSubscribe.method]: EventsSubscribe,
  [EventsUnsubscribe.method]: EventsUnsubscribe,
  [CardsPending.method]: CardsPending,
  [RuntimeSetWegentToken.method]: RuntimeSetWegentToken,
  [RuntimeClearWegentToken.method]: RuntimeClearWegentToken,
} as const;

/** The method of a host request. */
export type HostMethod = keyof typeof HostRequests;
/** The params type of a host request, by method. */
export type HostParamsOf<M extends HostMethod> = t.TypeOf<(typeof HostRequests)[M]['params']>;
/** The result type of a host request, by method. */
export type HostResultOf<M extends HostMethod> = t.TypeOf<(typeof HostRequests)[M]['result']>;
