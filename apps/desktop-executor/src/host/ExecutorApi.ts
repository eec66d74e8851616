/**
 * What the host protocol's requests do, over the executor's services: tasks and turns, models, accounts,
 * settings, plugins and supervision. Each method takes decoded params and answers a result or a
 * {@link HostFailure} (a wire error code, a sentence, and the typed error's tag). Requests that need
 * Codex are answered `RuntimeUnavailable` at once while the app-server is not running (restarting, or
 * failed); a request that timed out is `RuntimeTimedOut`, Codex's overload answer `Overloaded`.
 * Nothing here knows about JSON-RPC.
 */
import { listWorkspaceSkills, readKnownSkill, type KnownSkillReadError, type WorkspaceSkills } from '../plugins/WorkspaceSkills.js';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import {
  HostErrorCode,
  type EmptyResult,
  type HostMethod,
  type HostNotificationParamsOf,
  type HostParamsOf,
  type HostResultOf,
  type PluginSummary,
  type SkillWorkspace,
  type TaskRecord,
} from '@wework/host-protocol';
import { ItemCompleted, type ThreadItem } from '@wework/codex-protocol';
import { detectAuthRequired, type ConnectorIdentity, type RecoveryContinuation, type RecoveryError } from '@wework/local-auth';
import { finalMessageOf } from '../plugins/finalMessage.js';
import type { TurnImageStore } from '@wework/image-preprocess/node';
import { describeAccountServiceError, type AccountService, type PendingAccount } from '../accounts/AccountService.js';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import { describeRuntimeError, type LocalRuntime, type RuntimeError } from '../runtime/LocalRuntime.js';
import { modelCatalogCache } from '../runtime/ModelCatalogCache.js';
import type { WegentRuntimeToken } from '../runtime/WegentRuntimeToken.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { codexSettings } from '../settings/CodexSettings.js';
import { describeSupervisionError, type Supervisor } from '../supervision/Supervisor.js';
import { describeTaskError, type TaskError, type TaskRuntime } from '../tasks/TaskRuntime.js';
import { composeTurn } from '../turn/composeTurn.js';
import { describePluginServiceError, type PluginService, type PluginServiceError } from './PluginService.js';
import { describeMarketplaceError, marketplaceFailureCode, type MarketplacePages } from '../plugins/MarketplacePages.js';
import { describeManagementError, type ManagementError, type PluginManagement } from '../plugins/PluginManagement.js';
import type { PluginInventory } from '../plugins/PluginInventory.js';
import { preparePluginTrialOn } from '../plugins/PluginTrial.js';
import { parsePluginKey, pluginRef } from '@wework/plugin-inventory';
import type { BundledPlugins } from '../plugins/BundledPlugins.js';
import { openGate, type MutationGate } from '../plugins/MutationGate.js';

/** An error reply: its code, a sentence for a person, and the typed error's tag. */
export interface HostFailure {
  readonly code: HostErrorCode;
  readonly message: string;
  readonly tag: string;
  /** Whether sending the same request again later may succeed (`data.retryable` of the reply). */
  readonly retryable?: boolean;
}

type Answer<A> = Promise<E.Either<HostFailure, A>>;

/** The result type of a host method. */
type Result<M extends HostMethod> = Answer<HostResultOf<M>>;

/** What the host protocol can do: one method per host request, answering the protocol's result type. */
export interface ExecutorApi {
  /** The thread of an open task (to route its cards to the host that sent its message). */
  taskThread(taskId: string): string | undefined;
  info(): Result<'executor/info'>;
  createTask(params: HostParamsOf<'task/create'>): Result<'task/create'>;
  openTask(params: HostParamsOf<'task/open'>): Result<'task/open'>;
  listTasks(): Result<'task/list'>;
  send(params: HostParamsOf<'message/send'>): Result<'message/send'>;
  stop(params: HostParamsOf<'task/stop'>): Result<'task/stop'>;
  archive(params: HostParamsOf<'task/archive'>): Result<'task/archive'>;
  fork(params: HostParamsOf<'task/fork'>): Result<'task/fork'>;
  listModels(): Result<'models/list'>;
  listAccounts(): Result<'accounts/list'>;
  addAccount(onCompleted: (outcome: HostNotificationParamsOf<'accounts/loginCompleted'>) => void): Result<'accounts/add'>;
  cancelLogin(params: HostParamsOf<'accounts/cancel'>): Result<'accounts/cancel'>;
  switchAccount(params: HostParamsOf<'accounts/switch'>): Result<'accounts/switch'>;
  readSettings(): Result<'settings/read'>;
  writeSettings(params: HostParamsOf<'settings/write'>): Result<'settings/write'>;
  listPlugins(): Result<'plugins/list'>;
  installPlugin(params: HostParamsOf<'plugins/install'>): Result<'plugins/install'>;
  uninstallPlugin(params: HostParamsOf<'plugins/uninstall'>): Result<'plugins/uninstall'>;
  /** Logs a connector in after `authRequired`, then continues the blocked step in the task. */
  recoverAuthorization(params: HostParamsOf<'auth/recover'>): Result<'auth/recover'>;
  /** Closes a connector login shown with `auth/session`. */
  cancelAuthorization(params: HostParamsOf<'auth/cancel'>): Result<'auth/cancel'>;
  setSupervisionModel(params: HostParamsOf<'supervision/setModel'>): Result<'supervision/setModel'>;
  clearSupervisionModel(): Result<'supervision/clearModel'>;
  inspect(params: HostParamsOf<'supervision/inspect'>): Result<'supervision/inspect'>;
  listMarketplaces(): Result<'marketplaces/list'>;
  addMarketplace(params: HostParamsOf<'marketplaces/add'>): Result<'marketplaces/add'>;
  removeMarketplace(params: HostParamsOf<'marketplaces/remove'>): Result<'marketplaces/remove'>;
  reorderMarketplaces(params: HostParamsOf<'marketplaces/reorder'>): Result<'marketplaces/reorder'>;
  refreshMarketplace(params: HostParamsOf<'marketplaces/refresh'>): Result<'marketplaces/refresh'>;
  readCatalog(params: HostParamsOf<'plugins/catalog'>): Result<'plugins/catalog'>;
  readPlugin(params: HostParamsOf<'plugins/read'>): Result<'plugins/read'>;
  installedPlugins(): Result<'plugins/installed'>;
  setPluginEnabled(params: HostParamsOf<'plugins/setEnabled'>): Result<'plugins/setEnabled'>;
  setSkillEnabled(params: HostParamsOf<'skills/setEnabled'>): Result<'skills/setEnabled'>;
  listSkills(params: HostParamsOf<'skills/list'>): Result<'skills/list'>;
  readSkill(params: HostParamsOf<'skills/read'>): Result<'skills/read'>;
  setAppEnabled(params: HostParamsOf<'apps/setEnabled'>): Result<'apps/setEnabled'>;
  readRemoteApps(): Result<'integrations/apps/read'>;
  writeRemoteApps(params: HostParamsOf<'integrations/apps/write'>): Result<'integrations/apps/write'>;
  tryPlugin(params: HostParamsOf<'plugins/trial'>): Result<'plugins/trial'>;
  /** Takes the Wegent runtime token for the commands of new turns; answers when the executor asks for the next one. */
  setWegentToken(params: HostParamsOf<'runtime/setWegentToken'>): Result<'runtime/setWegentToken'>;
  clearWegentToken(): Result<'runtime/clearWegentToken'>;
  /** Checks a bundled plugin again (after a failed upgrade). */
  retryUpdate(params: HostParamsOf<'plugins/retryUpdate'>): Result<'plugins/retryUpdate'>;
}

/** The services behind the API. */
export interface ExecutorServices {
  readonly runtime: RuntimeSupervisor;
  readonly tasks: TaskRuntime;
  readonly accounts: AccountService;
  readonly plugins: PluginService;
  readonly supervision: Supervisor;
  /** The turn image store, loaded on first use (it loads the image codec library). */
  readonly images: () => Promise<TurnImageStore>;
  /** Connector logins shown to the host; `cancel` answers whether the session was open. */
  readonly authorizations?: { cancel(sessionId: string): boolean };
  /** Runtime authorization recovery of a connector (login shown through `authorizations`). */
  readonly recoverConnector?: (blocked: ConnectorIdentity & { readonly toolName?: string | undefined }) => Promise<E.Either<RecoveryError, RecoveryContinuation>>;
  /** The installed inventory and its management (loaded with the plugin machinery). */
  /** Tells the hosts that the inventory changed (`inventory/changed`). */
  readonly inventoryChanged: (change: HostNotificationParamsOf<'inventory/changed'>['change'], pluginId: string | null) => void;
  readonly pluginInventory: () => Promise<{ readonly inventory: PluginInventory; readonly management: PluginManagement }>;
  /** The Wegent runtime token (in memory only). */
  readonly wegentToken: WegentRuntimeToken;
  readonly log: ExecutorLog;
  /** The marketplaces, catalogs and plugin details of the plugin pages. */
  readonly marketplaces?: MarketplacePages;
  /** The plugins bundled with the desktop app (background upgrades); none when absent. */
  readonly bundled?: BundledPlugins;
  /** The home's mutation gate: turns run through it, so they wait only while a plugin mutation runs. */
  readonly gate?: MutationGate;
}

/** The reply for a runtime error: the app-server gone, a timeout and Codex's overload have codes of their own. */
export const runtimeFailure = (error: RuntimeError): HostFailure => {
  const message = describeRuntimeError(error);
  switch (error._tag) {
    case 'RuntimeUnavailable':
      return { code: HostErrorCode.RuntimeUnavailable, message, tag: error._tag, retryable: error.retryable };
    case 'RuntimeTimedOut':
      return { code: HostErrorCode.RuntimeTimedOut, message, tag: error._tag, retryable: true };
    case 'Overloaded':
      return { code: HostErrorCode.Overloaded, message, tag: error._tag, retryable: true };
    default:
      return { code: HostErrorCode.RuntimeFailed, message, tag: error._tag };
  }
};

const taskFailure = (error: TaskError): HostFailure => {
  if (error._tag === 'Runtime') return runtimeFailure(error.error);
  const code =
    error._tag === 'TaskNotFound' ? HostErrorCode.TaskNotFound : error._tag === 'ModelRouterRegistrationMissing' ? HostErrorCode.ModelRouterRegistrationMissing : HostErrorCode.TaskConflict;
  return { code, message: describeTaskError(error), tag: error._tag };
};

const pluginFailure = (error: PluginServiceError): HostFailure => ({
  code: error._tag === 'PluginsNotAvailable' ? HostErrorCode.NotAvailable : error._tag === 'PackageRefused' ? HostErrorCode.PackageRefused : HostErrorCode.InternalError,
  message: describePluginServiceError(error),
  tag: error._tag,
});

const managementFailure = (error: ManagementError): HostFailure => {
  const message = describeManagementError(error);
  switch (error._tag) {
    case 'Runtime':
      return runtimeFailure(error.error);
    case 'PluginNotFound':
    case 'MarketplaceNotFound':
    case 'SkillNotFound':
    case 'AppNotFound':
    case 'InstallRefused':
      return { code: HostErrorCode[error._tag], message, tag: error._tag };
    default:
      return { code: HostErrorCode.RuntimeFailed, message, tag: error._tag };
  }
};

const ok = <A>(value: A): E.Either<HostFailure, A> => E.right(value);
const empty = (): E.Either<HostFailure, EmptyResult> => E.right({});

/** The API over the executor's services. */
export function executorApi(services: ExecutorServices): ExecutorApi {
  const { runtime, tasks, accounts, plugins, supervision, images, log } = services;
  const gate = services.gate ?? openGate;
  // The model catalog sends are checked against: one for the executor, refreshed when it can change.
  const catalogCache = modelCatalogCache();
  const logins = new Map<string, PendingAccount>();
  /**
   * The login each task's last turn asked for, until it is used by `auth/recover` or made obsolete by the
   * task's next message: a recovery is offered once, for the request that is still current.
   */
  const pendingAuth = new Map<string, string>();
  const authKey = (pluginKey: string, connectorSlug: string): string => JSON.stringify([pluginKey, connectorSlug]);
  /** The running runtime, or the `RuntimeUnavailable` reply (at once: nothing is forwarded to a dead app-server). */
  const codex = (): E.Either<HostFailure, LocalRuntime> => E.mapLeft(runtimeFailure)(runtime.ready());
  /** Runs `answer` only while the app-server runs. */
  const withCodex =
    <P extends unknown[], A>(answer: (...params: P) => Answer<A>) =>
    async (...params: P): Answer<A> => {
      const running = codex();
      return E.isLeft(running) ? running : answer(...params);
    };

  /** The folder a skills request is about: the task's workspace, the given `cwd`, or the app-server's own (`null`). */
  const skillWorkspace = ({ taskId, cwd }: SkillWorkspace): E.Either<HostFailure, string | null> => {
    if (taskId === undefined) return E.right(cwd ?? null);
    const task = tasks.get(taskId);
    return task === undefined ? E.left(taskFailure({ _tag: 'TaskNotFound', taskId })) : E.right(task.executionRequest.workspace);
  };

  /** Runs a marketplace page's request; its typed errors become replies with the marketplace codes. */
  const marketplacePage = async <A>(run: (pages: MarketplacePages) => Promise<E.Either<Parameters<typeof describeMarketplaceError>[0], A>>): Answer<A> => {
    const pages = services.marketplaces;
    if (pages === undefined) return E.left({ code: HostErrorCode.NotAvailable, message: 'marketplaces are not available in this executor', tag: 'NotAvailable' });
    const answer = await run(pages);
    if (E.isRight(answer)) return answer;
    const error = answer.left;
    if (error._tag === 'Runtime') return E.left(runtimeFailure(error.error));
    return E.left({ code: marketplaceFailureCode(error), message: describeMarketplaceError(error), tag: error._tag });
  };

  const send: ExecutorApi['send'] = async (params) => {
    const task = tasks.get(params.taskId);
    if (task === undefined) return E.left(taskFailure({ _tag: 'TaskNotFound', taskId: params.taskId }));
    const base = params.modelSelection ?? task.modelSelection;
    const modelSelection = params.permissionMode === undefined ? base : { ...base, options: { ...base.options, permissionMode: params.permissionMode } };
    const running = codex();
    if (E.isLeft(running)) return running;
    const routed = (task.executionRequest.modelRouter ?? null) !== null;
    // A routed task's model is the router's, not one of Codex's catalog.
    const savedModel = routed ? null : modelSelection.model;
    const catalog = await catalogCache.forSend(running.right, savedModel);
    if (E.isLeft(catalog)) return E.left(runtimeFailure(catalog.left));
    pendingAuth.delete(task.taskId);
    const attachments = params.attachments ?? [];
    // A message without attachments has no image work: no store is loaded, no turn directory begun or removed.
    const turnImages = attachments.length === 0 ? null : (await images()).beginTurn(randomUUID());
    try {
      const composed = await composeTurn(
        {
          markdown: params.markdown,
          attachments,
          modelCategory: params.modelCategory ?? modelSelection.category ?? 'nonOfficial',
          task: { ...task, modelSelection },
          savedModel,
        },
        catalog.right,
        turnImages,
      );
      if (E.isLeft(composed)) {
        const reason = composed.left;
        const message = 'message' in reason && typeof reason.message === 'string' ? reason.message : reason._tag === 'InvalidComposerContent' ? `the message has an invalid mention (${reason.reason._tag})` : reason._tag;
        return E.left({ code: HostErrorCode.SendBlocked, message, tag: reason._tag });
      }
      const warnings = composed.right.warnings.map((warning) => warning.message);
      if (warnings.length > 0) log({ event: 'turn composed with warnings', fields: { taskId: task.taskId, count: warnings.length } });
      // What the turn completes, for connector_auth_required detection on its final message.
      const items: ThreadItem[] = [];
      // The task's thread may be started again during the send (lost with a crashed app-server before its first turn).
      const threadOf = (): string => tasks.get(task.taskId)?.threadId ?? task.threadId;
      const collecting = running.right.server.client.on(ItemCompleted, (completed) => {
        if (completed.threadId === threadOf()) items.push(completed.item);
      });
      const turn = await gate.work(() => tasks.send(task.taskId, composed.right.input, modelSelection)).finally(() => collecting.dispose());
      if (E.isLeft(turn)) return E.left(taskFailure(turn.left));
      const detected = detectAuthRequired(finalMessageOf(turn.right, items));
      const authRequired = detected._tag === 'ConnectorAuthRequired' ? { pluginKey: detected.pluginKey, connectorSlug: detected.connectorSlug, toolName: detected.toolName ?? null } : null;
      if (authRequired !== null) {
        pendingAuth.set(task.taskId, authKey(authRequired.pluginKey, authRequired.connectorSlug));
        log({ event: 'connector login required', fields: { taskId: task.taskId, pluginKey: authRequired.pluginKey, connectorSlug: authRequired.connectorSlug } });
      }
      return ok({ taskId: task.taskId, threadId: threadOf(), turnId: turn.right.id, status: turn.right.status, error: turn.right.error?.message ?? null, warnings, authRequired });
    } finally {
      await turnImages?.end();
    }
  };

  return {
    taskThread: (taskId) => tasks.get(taskId)?.threadId,
    info: async () => ok({ executor: 'wework-desktop-executor', protocolVersion: 1, codexUserAgent: runtime.current().server.initializeResult.userAgent, runtime: runtime.status() }),
    createTask: withCodex(async (params: HostParamsOf<'task/create'>) => E.bimap(taskFailure, (task: TaskRecord) => ({ task }))(await tasks.create(params))),
    openTask: async (params) => E.bimap(taskFailure, (task: TaskRecord) => ({ task }))(tasks.open(params.task)),
    listTasks: async () => ok({ tasks: tasks.list() }),
    send,
    stop: async (params) => E.bimap(taskFailure, () => ({}))(await tasks.stop(params.taskId)),
    archive: withCodex(async (params: HostParamsOf<'task/archive'>) => E.bimap(taskFailure, () => ({}))(await tasks.archive(params.taskId))),
    fork: withCodex(async (params: HostParamsOf<'task/fork'>) => {
      const forked = await tasks.fork(params.taskId, { newTaskId: params.newTaskId, ...(params.lastTurnId === undefined ? {} : { lastTurnId: params.lastTurnId }) });
      if (E.isLeft(forked)) return E.left(taskFailure(forked.left));
      const { task, model, modelProvider, activePermissionProfile, cwd } = forked.right;
      return ok({ task, model, modelProvider, permissionProfile: activePermissionProfile?.id ?? null, cwd });
    }),
    listModels: async () => {
      const running = codex();
      if (E.isLeft(running)) return running;
      const catalog = await catalogCache.list(running.right);
      return E.isLeft(catalog) ? E.left(runtimeFailure(catalog.left)) : ok({ models: catalog.right.models });
    },
    listAccounts: async () => E.mapLeft((error: Parameters<typeof describeAccountServiceError>[0]) => ({ code: HostErrorCode.AccountFailed, message: describeAccountServiceError(error), tag: error._tag }))(await accounts.list()),
    addAccount: withCodex(async (onCompleted: Parameters<ExecutorApi['addAccount']>[0]) => {
      const pending = await accounts.add();
      if (E.isLeft(pending)) return E.left({ code: HostErrorCode.AccountFailed, message: describeAccountServiceError(pending.left), tag: pending.left._tag });
      const loginId = randomUUID();
      logins.set(loginId, pending.right);
      void pending.right.completion.then((outcome) => {
        logins.delete(loginId);
        // A new sign-in: the official catalog's metadata and fetches in flight belong to the old one.
        if (E.isRight(outcome)) {
          services.marketplaces?.official.accountChanged();
          catalogCache.accountChanged();
        }
        onCompleted({ loginId, ok: E.isRight(outcome), message: E.isLeft(outcome) ? describeAccountServiceError(outcome.left) : null });
      });
      return ok({ loginId, authUrl: pending.right.authUrl });
    }),
    cancelLogin: async (params) => {
      await logins.get(params.loginId)?.cancel();
      return empty();
    },
    switchAccount: async (params) => {
      const switched = await accounts.switchTo(params.accountId);
      if (E.isLeft(switched)) return E.left({ code: HostErrorCode.AccountFailed, message: describeAccountServiceError(switched.left), tag: switched.left._tag });
      // Another account: the official catalog's cached metadata and fetches in flight belong to the old one.
      if (switched.right._tag === 'Switched') {
        services.marketplaces?.official.accountChanged();
        catalogCache.accountChanged();
      }
      const account = switched.right.account;
      return ok({ switched: switched.right._tag === 'Switched', accountId: account.id, email: account.email });
    },
    readSettings: withCodex(async () => {
      const settings = codexSettings(runtime.current().server.client);
      const instructions = await settings.readInstructions();
      if (E.isLeft(instructions)) return E.left({ code: HostErrorCode.SettingsFailed, message: instructions.left.reason, tag: instructions.left._tag });
      const style = await settings.readStyle();
      if (E.isLeft(style)) return E.left({ code: HostErrorCode.SettingsFailed, message: style.left.reason, tag: style.left._tag });
      return ok({ instructions: instructions.right, style: style.right });
    }),
    writeSettings: withCodex(async (params: HostParamsOf<'settings/write'>) => {
      const settings = codexSettings(runtime.current().server.client);
      for (const write of [
        params.instructions === undefined ? null : () => settings.writeInstructions(params.instructions ?? ''),
        params.style === undefined ? null : () => settings.writeStyle(params.style ?? 'pragmatic'),
      ]) {
        if (write === null) continue;
        const written = await write();
        if (E.isLeft(written)) return E.left({ code: HostErrorCode.SettingsFailed, message: written.left.reason, tag: written.left._tag });
      }
      return empty();
    }),
    listPlugins: async () => E.bimap(pluginFailure, (list: ReadonlyArray<PluginSummary>) => ({ plugins: list }))(await plugins.list()),
    installPlugin: async (params) => {
      const { management, inventory } = await services.pluginInventory();
      if (params.packagePath !== undefined && params.version !== undefined) {
        const request = { marketplace: params.marketplace, plugin: params.plugin, version: params.version, packagePath: params.packagePath };
        const installed = await plugins.install(request);
        const ref = pluginRef(params.plugin, params.marketplace);
        if (E.isRight(ref)) (E.isRight(installed) ? inventory.updateSucceeded : (target: typeof ref.right) => inventory.updateFailed(target, installed.left._tag))(ref.right);
        if (E.isRight(installed)) services.inventoryChanged('installed', installed.right.pluginId);
        // An explicit install resumes the background synchronisation of a bundled plugin the user had uninstalled.
        if (E.isRight(installed) && E.isRight(ref)) services.bundled?.reinstalled(ref.right);
        return E.bimap(pluginFailure, (plugin: PluginSummary) => ({ plugin }))(installed);
      }
      return E.bimap(managementFailure, (plugin: PluginSummary) => ({ plugin }))(await management.install({ marketplace: params.marketplace, plugin: params.plugin }));
    },
    uninstallPlugin: async (params) => {
      // A manual uninstall stops the background synchronisation of that plugin and waits for an admitted one.
      const ref = parsePluginKey(params.pluginId);
      if (E.isRight(ref)) await services.bundled?.beforeUninstall(ref.right);
      const removed = await (await services.pluginInventory()).management.uninstall(params.pluginId);
      if (E.isLeft(removed) && E.isRight(ref)) services.bundled?.uninstallFailed(ref.right);
      return E.bimap(managementFailure, () => ({}))(removed);
    },
    retryUpdate: async ({ pluginId }) => {
      if (services.bundled === undefined) return E.left(managementFailure({ _tag: 'PluginNotFound', pluginId }));
      const retried = await services.bundled.retry(pluginId);
      if (E.isRight(retried)) return ok({ status: retried.right });
      return E.left(
        retried.left._tag === 'NotBundled'
          ? managementFailure({ _tag: 'PluginNotFound', pluginId })
          : { code: HostErrorCode.UpdatePaused, message: 'the plugin was uninstalled: its background synchronisation is paused until it is installed again', tag: 'UpdatePaused' },
      );
    },
    recoverAuthorization: async ({ taskId, pluginKey, connectorSlug, toolName }) => {
      if (tasks.get(taskId) === undefined) return E.left(taskFailure({ _tag: 'TaskNotFound', taskId }));
      if (services.recoverConnector === undefined) return E.left({ code: HostErrorCode.NotAvailable, message: 'connector authorization is not available in this executor', tag: 'NotAvailable' });
      if (pendingAuth.get(taskId) !== authKey(pluginKey, connectorSlug)) {
        return E.left({ code: HostErrorCode.AuthorizationFailed, message: 'this login request is no longer current: the task has moved on or it was already used', tag: 'RecoveryObsolete' });
      }
      pendingAuth.delete(taskId);
      const recovered = await services.recoverConnector({ pluginKey, connectorSlug, ...(toolName === undefined ? {} : { toolName }) });
      if (E.isLeft(recovered)) {
        const message = 'message' in recovered.left && typeof recovered.left.message === 'string' ? recovered.left.message : `the connector login ended (${recovered.left._tag})`;
        return E.left({ code: HostErrorCode.AuthorizationFailed, message, tag: recovered.left._tag });
      }
      log({ event: 'connector login recovered', fields: { taskId, pluginKey, connectorSlug, loggedIn: recovered.right.loggedIn } });
      // The blocked step continues in the same conversation: an instruction, not the original request again.
      const continued = await send({ taskId, markdown: recovered.right.continuation });
      return E.isLeft(continued) ? continued : ok({ continuation: recovered.right.continuation, turn: continued.right });
    },
    cancelAuthorization: async ({ sessionId }) =>
      services.authorizations?.cancel(sessionId) === true
        ? empty()
        : E.left({ code: HostErrorCode.NotAvailable, message: `no connector login ${JSON.stringify(sessionId)} is open`, tag: 'AuthSessionNotFound' }),
    setSupervisionModel: async (params) => {
      supervision.setModel(params.config);
      return ok({ model: params.config.model });
    },
    clearSupervisionModel: async () => {
      supervision.clearModel();
      return empty();
    },
    listMarketplaces: () => marketplacePage((pages) => pages.marketplaces.list()),
    addMarketplace: (params) =>
      marketplacePage((pages) => pages.marketplaces.add({ source: params.source, ...(params.name === undefined ? {} : { name: params.name }), ...(params.refName === undefined ? {} : { refName: params.refName }) })),
    removeMarketplace: (params) =>
      marketplacePage(async (pages) => {
        const removed = await pages.marketplaces.remove(params.name);
        // Codex keeps the marketplace's installed plugins (config entries and copies); the inventory now shows them repairRequired.
        if (E.isRight(removed)) services.inventoryChanged('marketplaceRemoved', null);
        return E.map(() => ({}))(removed);
      }),
    reorderMarketplaces: (params) => marketplacePage((pages) => pages.marketplaces.reorder(params.names)),
    refreshMarketplace: (params) => marketplacePage((pages) => pages.marketplaces.refresh(params.name)),
    readCatalog: (params) => marketplacePage((pages) => pages.catalog.catalog(params.marketplace)),
    readPlugin: (params) => marketplacePage(async (pages) => E.map((plugin: HostResultOf<'plugins/read'>['plugin']) => ({ plugin }))(await pages.catalog.read(params.marketplace, params.plugin))),
    inspect: withCodex(async (params: HostParamsOf<'supervision/inspect'>) =>
      E.mapLeft((error: Parameters<typeof describeSupervisionError>[0]) => ({ code: HostErrorCode.SupervisionFailed, message: describeSupervisionError(error), tag: error._tag }))(await supervision.inspect(params)),
    ),
    installedPlugins: async () => {
      const viewed = await (await services.pluginInventory()).inventory.view();
      return E.isLeft(viewed) ? E.left({ code: HostErrorCode.RuntimeFailed, message: `the plugin inventory could not be read: ${viewed.left.reason}`, tag: viewed.left._tag, retryable: true }) : ok(viewed.right);
    },
    setPluginEnabled: async ({ pluginId, enabled }) => E.bimap(managementFailure, () => ({}))(await (await services.pluginInventory()).management.setPluginEnabled(pluginId, enabled)),
    setSkillEnabled: async (params) => {
      const selector = 'path' in params ? { path: params.path } : { name: params.name };
      return E.mapLeft(managementFailure)(await (await services.pluginInventory()).management.setSkillEnabled(selector, params.enabled));
    },
    listSkills: withCodex(async (params: HostParamsOf<'skills/list'>) => {
      const cwd = skillWorkspace(params);
      if (E.isLeft(cwd)) return cwd;
      // A rescan: a skill folder written since the last listing shows up in the picker.
      return E.mapLeft(runtimeFailure)(await listWorkspaceSkills(runtime.current().server.client, cwd.right, true));
    }),
    readSkill: async ({ path, ...workspace }) => {
      const cwd = skillWorkspace(workspace);
      if (E.isLeft(cwd)) return cwd;
      const viewed = await (await services.pluginInventory()).inventory.view();
      const listed = async (): Promise<E.Either<RuntimeError, WorkspaceSkills>> => {
        const running = runtime.ready();
        return E.isLeft(running) ? running : listWorkspaceSkills(running.right.server.client, cwd.right, false);
      };
      const read = await readKnownSkill(path, viewed, listed);
      return E.mapLeft((error: KnownSkillReadError): HostFailure => {
        switch (error._tag) {
          case 'SkillNotFound':
            return { code: HostErrorCode.SkillNotFound, message: 'no skill of an installed plugin or of the workspace has that path', tag: error._tag };
          case 'ListingFailed':
            return E.isLeft(viewed) ? { code: HostErrorCode.RuntimeFailed, message: `the plugin inventory could not be read: ${viewed.left.reason}`, tag: viewed.left._tag, retryable: true } : runtimeFailure(error.error);
          default:
            return { code: HostErrorCode.RuntimeFailed, message: 'the skill file could not be read', tag: error._tag };
        }
      })(read);
    },
    setAppEnabled: async ({ id, enabled }) => E.bimap(managementFailure, () => ({}))(await (await services.pluginInventory()).management.setAppEnabled(id, enabled)),
    readRemoteApps: async () => E.bimap(managementFailure, (enabled: boolean) => ({ enabled }))(await (await services.pluginInventory()).management.readRemoteApps()),
    writeRemoteApps: async ({ enabled }) => E.bimap(managementFailure, (now: boolean) => ({ enabled: now }))(await (await services.pluginInventory()).management.writeRemoteApps(enabled)),
    tryPlugin: async ({ plugin, marketplace, deviceId }) => {
      const ref = pluginRef(plugin, marketplace);
      if (E.isLeft(ref)) return E.left(managementFailure({ _tag: 'PluginNotFound', pluginId: `${plugin}@${marketplace}` }));
      return ok(await preparePluginTrialOn((await services.pluginInventory()).inventory, ref.right, deviceId));
    },
    setWegentToken: async ({ token, expiresIn }) => ok(services.wegentToken.set(token, expiresIn)),
    clearWegentToken: async () => ok({ cleared: services.wegentToken.clear() }),
  };
}
