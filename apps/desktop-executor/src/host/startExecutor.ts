/**
 * The executor as its host sees it: the Wework Codex home prepared (config.toml normalized, native login
 * linked), the one app-server started under a supervisor (restarted when it ends, its state broadcast as
 * `runtime/status`), cards routed to the connected hosts, the
 * transcript streamed to them, and the tasks, accounts, settings, plugins and supervision behind the
 * host protocol. Transports (stdio, WebSocket) attach hosts with `serve`. The plugin homes were
 * recovered at launch (before Codex started); the plugin machinery loads right after the start and
 * plugin requests wait for it. Then, in the background, the desktop app's bundled plugins are checked
 * and upgraded when they differ (behind the home's mutation gate, which waits for running turns and
 * Codex requests).
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { TurnImageStore } from '@wework/image-preprocess/node';
import { accountService } from '../accounts/AccountService.js';
import { attachExecutorCards } from '../cards/index.js';
import { launchExecutor, type ExecutorLaunch, type ExecutorLaunchOptions } from '../runtime/ExecutorLaunch.js';
import { describeRuntimeError } from '../runtime/RuntimeError.js';
import { RUNTIME_START_TIMEOUT_MS } from '../runtime/LocalRuntime.js';
import { startRuntimeSupervisor, type RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { restartPolicyFromEnv } from '../runtime/RestartBackoff.js';
import { runtimeWaitFromEnv, runtimeWaiters } from '../runtime/RuntimeWaiters.js';
import { taskInspector } from '../inspection/TaskInspector.js';
import type { Clock, Timer } from '@wework/ports';
import { nodeTimer, nodeTimers, systemClock } from '@wework/ports/node';
import { parsePluginKey, pluginKey, type PluginRef, type StatusChange } from '@wework/plugin-inventory';
import type { PluginSync } from '../plugins/PluginSync.js';
import { mutationGate } from '../plugins/MutationGate.js';
import { bundledPlugins } from '../plugins/BundledPlugins.js';
import { bundledDirectories, bundledFaultFromEnv } from '../plugins/BundledLaunch.js';
import { inMemoryModelRouterRegistry, type ModelRouterRegistry } from '../tasks/ModelRouterRegistry.js';
import { taskRuntime, type TaskRuntime } from '../tasks/TaskRuntime.js';
import { checkCodexVersion, describeCodexVersionCheck } from '@wework/app-server-client';
import { executorHandlers, type ExecutorServices, type HostCall } from './handlers/ExecutorHandlers.js';
import type { InstallAuthorizationOptions } from '../plugins/installAuthorization.js';
import { serveHostConnection } from './HostConnection.js';
import {
  DEFAULT_RUNTIME_WAIT,
  InventoryChangedNotification,
  onCodexTranscript,
  PluginsUpdateStatusNotification,
  pluginsUpdateStatusParams,
  RuntimeStatusNotification,
  transcriptNotification,
  WegentTokenExpiringNotification,
  type CodexTranscriptNotification,
  type HostAnswer,
  type HostHandler,
  type HostHandlers,
  type HostMethod,
  type HostParamsOf,
} from '@wework/host-protocol';
import { wegentRuntimeToken } from '../runtime/WegentRuntimeToken.js';
import type { PluginInventory } from '../plugins/PluginInventory.js';
import type { PluginManagement } from '../plugins/PluginManagement.js';
import { hostSessions, type HostSessions } from './HostSessions.js';
import { eventBufferFromEnv } from './EventBuffer.js';
import type { PluginService, PluginServiceError } from './PluginService.js';
import { hostAuthorizations } from './HostAuthorizationUi.js';
import { marketplacePages, type MarketplacePagesOptions } from '../plugins/MarketplacePages.js';
import { pluginHomesOf } from '../plugins/PluginDirectoryRecovery.js';

/** How long a shutdown waits for a running bundled upgrade. */
const BUNDLED_SHUTDOWN_GRACE_MS = 10_000;

/** Options of {@link startExecutor}. */
export interface ExecutorOptions extends ExecutorLaunchOptions {
  /** MCP servers to wait for before a thread's first turn. */
  readonly waitForPlugins: ReadonlyArray<string>;
  /** The plugin service; default the cloud plugin sync. Either way it answers only once interrupted plugin transactions were recovered. */
  readonly plugins?: PluginService;
  readonly registry?: ModelRouterRegistry;
  readonly clock?: Clock;
  /** The thread lifecycle's timer; default a `setTimeout` timer over `clock`. */
  readonly timer?: Timer;
  /** The runtime token's timer (its expiring notice); default a `setTimeout` timer over `clock`. */
  readonly tokenTimer?: Timer;
  /** Refuse to start when the Codex is outside the supported versions (`--require-supported-codex`); otherwise a warning is logged. */
  readonly requireSupportedCodex?: boolean;
  /** How long a turn may run (cards wait for the user meanwhile). Default 24 hours. */
  readonly turnTimeoutMs?: number;
  /** Replaces the official catalog's upstream fetch (tests; default Codex's `plugin/list`). */
  readonly officialCatalogFetch?: MarketplacePagesOptions['officialFetch'];
  /** The desktop app's bundled plugin package directories (`WEWORK_BUNDLED_PLUGINS` of `env` adds more). */
  readonly bundledPlugins?: ReadonlyArray<string>;
}

/** A started executor. */
export interface Executor {
  /** The executor's handler of every host method, keyed by wire method. */
  readonly handlers: HostHandlers<HostCall>;
  /** Runs a host method from inside the executor's process (no connection: its cards go to the most recent host). */
  request<M extends HostMethod>(method: M, params: HostParamsOf<M>): HostAnswer<M>;
  readonly sessions: HostSessions;
  readonly runtime: RuntimeSupervisor;
  readonly tasks: TaskRuntime;
  /** Serves one host over a JSON-RPC connection; resolves when it disconnects. */
  serve(connection: MessageConnection): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Prepares the home and starts everything; on failure nothing is left running. `launched`, the result
 * of {@link launchExecutor} with the same options, is adopted instead of preparing and launching again
 * (the serve entry launches first, so Codex boots while the rest of the executor loads).
 */
export async function startExecutor(options: ExecutorOptions, launched?: ExecutorLaunch): Promise<E.Either<string, Executor>> {
  const { log } = options;
  const launch = launched === undefined ? await launchExecutor(options) : E.right(launched);
  if (E.isLeft(launch)) return E.left(launch.left.message);
  const home = launch.right.home;

  // The runtime's attach hook needs the tasks, which need the runtime: set once both exist.
  const box: { tasks?: TaskRuntime } = {};
  const taskOf = (threadId: string): string | undefined => box.tasks?.list().find((task) => task.threadId === threadId)?.taskId;
  // The settings read from the environment; the first refused one stops the start (and the launched app-server).
  const settings = pipe(
    E.Do,
    E.apS('eventLog', eventBufferFromEnv(options.env)),
    E.apS('policy', restartPolicyFromEnv(options.env)),
    E.apS('waitRule', runtimeWaitFromEnv(options.env, { ...DEFAULT_RUNTIME_WAIT, startTimeoutMs: RUNTIME_START_TIMEOUT_MS })),
    E.apS('bundledFault', bundledFaultFromEnv(options.env)),
  );
  if (E.isLeft(settings)) {
    await launch.right.appServer.dispose();
    return settings;
  }
  const { eventLog, policy, waitRule, bundledFault } = settings.right;
  // A card goes to the host that sent its task's last message, also when the task's thread was replaced.
  const sessions = hostSessions(log, taskOf, { eventLog });
  // Codex's turns and items of a task's thread reach every host as its transcript.
  const toHosts = (notification: CodexTranscriptNotification): void => {
    const taskId = taskOf(notification.params.threadId);
    if (taskId === undefined) return;
    const { method, params } = transcriptNotification(notification, taskId);
    sessions.broadcast(method, params);
  };
  const turnTimeoutMs = options.turnTimeoutMs ?? 24 * 60 * 60_000;
  const started = await startRuntimeSupervisor({
    codexHome: home.layout.home,
    home: options.userHome,
    workspace: options.workspace,
    env: options.env,
    ...(options.codexPath === undefined ? {} : { codexPath: options.codexPath }),
    pluginNames: options.waitForPlugins,
    log,
    turnTimeoutMs,
    // A turn the app-server died under ends failed for the hosts too.
    onTurnAborted: (threadId, turn) => toHosts({ method: 'turn/completed', params: { threadId, turn } }),
    attach: (client) => {
      onCodexTranscript((descriptor, listener) => client.on(descriptor, listener), toHosts);
      return attachExecutorCards(client, sessions, log);
    },
  }, launch.right.appServer, policy);
  if (E.isLeft(started)) return E.left(describeRuntimeError(started.left));
  const runtime = started.right;
  const codexVersion = checkCodexVersion(runtime.current().server.initializeResult.userAgent);
  if (options.requireSupportedCodex === true && codexVersion._tag !== 'Supported') {
    await runtime.dispose();
    return E.left(`${describeCodexVersionCheck(codexVersion)}; it was refused because --require-supported-codex was given`);
  }
  // Every host learns when the app-server ends, restarts, is ready again or gives up.
  runtime.onStatus((status) => sessions.broadcast(RuntimeStatusNotification.method, status));
  // Cloud plugins: both runtime homes of this executor. The plugin machinery (sync transactions, the
  // inventory, connector authorization) loads after the start, and interrupted transactions are finished
  // or undone before any plugin request is served.
  const pluginHomes = pluginHomesOf(options.executorHome, home.layout.home);
  // What start-up recovery (at launch, before Codex started) could not recover; a successful sync of the plugin repairs it.
  const repairs = new Map(launch.right.pluginRepairs);
  // Connector logins (install-time authorization) are shown to the hosts as `auth/session` notifications.
  const authorizations = hostAuthorizations((method, params) => sessions.broadcast(method, params));
  // One device authorization (bridge runner, health cache, one login per connector) for installs and recovery; loaded on first use.
  let deviceAuth: Promise<InstallAuthorizationOptions> | undefined;
  const authorization = (): Promise<InstallAuthorizationOptions> =>
    (deviceAuth ??= import('../plugins/deviceAuthorization.js').then(({ deviceAuthorization }) => deviceAuthorization({ executorHome: options.executorHome, ui: authorizations.ui, log })));
  // Cache and configuration mutations of the plugin homes wait for running turns and Codex requests (at most a turn's timeout).
  const gate = mutationGate({ activity: () => runtime.activity(), timers: nodeTimers, maxWaitMs: turnTimeoutMs });
  const syncLoaded = deferred<PluginSync>();
  const plugins = loadPluginService(async () => {
    const [{ createNodePorts }, { pluginSync }, { syncedPluginService }] = await Promise.all([
      import('@wework/sync-transaction/node'),
      import('../plugins/PluginSync.js'),
      import('../plugins/SyncedPluginService.js'),
    ]);
    const pluginPorts = createNodePorts();
    const sync = repairedBy(pluginSync({ ports: pluginPorts, homes: pluginHomes, runtime, log, now: () => new Date().toISOString(), authorization: await authorization(), gate }), repairs);
    syncLoaded.resolve(sync);
    return options.plugins === undefined ? syncedPluginService(sync, pluginHomes) : repairedBySync(options.plugins, repairs);
  }, syncLoaded.reject);
  const recoverConnector: ExecutorServices['recoverConnector'] = async (blocked) => {
    const [{ recoverConnectorAuth }, { resolveInstalledConnector }, deps] = await Promise.all([import('@wework/local-auth'), import('../plugins/connectorResolver.js'), authorization()]);
    return recoverConnectorAuth({ resolveConnector: resolveInstalledConnector(pluginHomes), health: deps.health, startLogin: deps.startLogin, ui: deps.ui }, blocked);
  };
  const clock = options.clock ?? systemClock;
  // The Wegent runtime token, in memory only: the task threads carry it into the commands' environment.
  const wegentToken = wegentRuntimeToken({
    clock,
    timer: options.tokenTimer ?? nodeTimer(clock),
    notify: (notice) => sessions.broadcast(WegentTokenExpiringNotification.method, notice),
    log,
  });
  const tasks = taskRuntime({ runtime, clock, timer: options.timer ?? nodeTimer(clock), registry: options.registry ?? inMemoryModelRouterRegistry(), log, environment: wegentToken });
  // The image store loads the image codec library: only when a message first needs it.
  let imageStore: Promise<TurnImageStore> | undefined;
  const images = (): Promise<TurnImageStore> =>
    (imageStore ??= import('@wework/image-preprocess/node').then(async ({ createTurnImageStore }) => {
      const store = createTurnImageStore({ root: join(options.executorHome, 'model-input') });
      await store.sweepLeftovers();
      return store;
    }));
  const accounts = accountService({ home, runtime, log });
  // The one installed inventory and its management: loaded on first use, after the plugin machinery.
  const inventoryChanged: ExecutorServices['inventoryChanged'] = (change, pluginId) => sessions.broadcast(InventoryChangedNotification.method, { change, pluginId });
  let inventoryServices: Promise<{ readonly inventory: PluginInventory; readonly management: PluginManagement }> | undefined;
  const pluginInventory = (): Promise<{ readonly inventory: PluginInventory; readonly management: PluginManagement }> =>
    (inventoryServices ??= Promise.all([
      import('../plugins/PluginInventory.js'),
      import('../plugins/CodexInventory.js'),
      import('../plugins/PluginManagement.js'),
      import('@wework/sync-transaction/node'),
    ]).then(
      ([{ pluginInventory: makeInventory }, { codexInventory, cloudPluginsOf }, { pluginManagement }, { inspectInstalledPlugin }]) => {
        const cloudPlugins = () => cloudPluginsOf(pluginHomes);
        const inventory = makeInventory({
          codex: codexInventory(runtime, { plugins: cloudPlugins, inspect: (ref) => inspectInstalledPlugin(pluginHomes, ref) }),
          directory: join(options.executorHome, 'plugin-inventory'),
          cloudPlugins,
          repairs: () => repairsOf(repairs),
          clock,
          deviceId: options.env['WEWORK_DEVICE_ID'] ?? 'this-device',
          log,
        });
        const management = pluginManagement({ runtime, inventory, cloud: plugins.service, cloudPlugins, codexHome: home.layout.home, authorization, changed: inventoryChanged, log });
        return { inventory, management };
      },
    ));
  // The desktop app's bundled plugins: checked in the background once started; no host request waits for them.
  const bundled = bundledPlugins({
    directories: bundledDirectories(options.bundledPlugins ?? [], options.env),
    sync: () => syncLoaded.promise,
    homes: pluginHomes,
    notify: (change: StatusChange) => sessions.broadcast(PluginsUpdateStatusNotification.method, pluginsUpdateStatusParams(change)),
    inventory: {
      status: async (ref: PluginRef, status) => {
        const { inventory } = await pluginInventory();
        if (status.kind === 'updating') inventory.updateStarted(ref);
        else if (status.kind === 'updateFailed') inventory.updateFailed(ref, status.reason);
        else inventory.updateSucceeded(ref);
      },
      upgraded: (ref: PluginRef) => inventoryChanged('installed', pluginKey(ref)),
    },
    ...(bundledFault === null ? {} : { beforeCommit: bundledFault }),
    log,
  });
  const handlers = executorHandlers({
    runtime,
    // Requests that need Codex wait for a restarting app-server (bounded in time and count).
    waiters: runtimeWaiters({ runtime, timers: nodeTimers, config: waitRule, log }),
    sessions,
    tasks,
    accounts,
    plugins: plugins.service,
    inspector: taskInspector(runtime, log),
    images,
    authorizations,
    recoverConnector,
    inventoryChanged,
    pluginInventory,
    wegentToken,
    log,
    bundled,
    gate,
    marketplaces: marketplacePages({
      runtime,
      executorHome: options.executorHome,
      codexHome: home.layout.home,
      clock,
      log,
      accounts,
      ...(options.officialCatalogFetch === undefined ? {} : { officialFetch: options.officialCatalogFetch }),
    }),
  });
  box.tasks = tasks;
  void bundled.checkAll().catch((error: unknown) => log({ event: 'bundled plugin check failed', fields: { error: error instanceof Error ? error.name : typeof error } }));
  return E.right({
    handlers,
    request: (method, params) => (handlers[method] as HostHandler<typeof method, HostCall>)(params, { session: null }),
    sessions,
    runtime,
    tasks,
    serve: (connection) => serveHostConnection(connection, handlers, sessions, log),
    dispose: async () => {
      tasks.dispose();
      wegentToken.dispose();
      await plugins.settled;
      // A bundled upgrade still running is given a moment to finish (it is crash-safe if it does not).
      const grace = new AbortController();
      await Promise.race([bundled.idle(), nodeTimers.sleep(BUNDLED_SHUTDOWN_GRACE_MS, grace.signal)]);
      grace.abort();
      await runtime.dispose();
    },
  });
}

/** The start-up repairs still open, by plugin (a key that is no plugin's is left out). */
function repairsOf<R>(repairs: ReadonlyMap<string, R>): Array<{ readonly ref: PluginRef; readonly reason: R }> {
  return [...repairs].flatMap(([key, reason]) => {
    const ref = parsePluginKey(key);
    return E.isRight(ref) ? [{ ref: ref.right, reason }] : [];
  });
}

/** A promise and the functions that settle it; a rejection nobody waits for is not reported as unhandled. */
function deferred<A>(): { readonly promise: Promise<A>; readonly resolve: (value: A) => void; readonly reject: (error: unknown) => void } {
  let resolve: (value: A) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<A>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The sync with each successful install or removal of a plugin (a host's, or a bundled upgrade) clearing its start-up repair. */
function repairedBy(sync: PluginSync, repairs: Map<string, unknown>): PluginSync {
  return {
    install: async (plugin, version, source) => {
      const installed = await sync.install(plugin, version, source);
      if (E.isRight(installed)) repairs.delete(pluginKey(plugin));
      return installed;
    },
    remove: async (plugin) => {
      const removed = await sync.remove(plugin);
      if (E.isRight(removed)) repairs.delete(pluginKey(plugin));
      return removed;
    },
    upgradeBundled: async (plugin, version, source, beforeCommit) => {
      const upgraded = await sync.upgradeBundled(plugin, version, source, beforeCommit);
      if (E.isRight(upgraded) && upgraded.right.transaction.bundled._tag === 'Upgraded') repairs.delete(pluginKey(plugin));
      return upgraded;
    },
  };
}

/** An injected service with each successful install or uninstall of a plugin clearing its start-up repair. */
function repairedBySync(service: PluginService, repairs: Map<string, unknown>): PluginService {
  return {
    list: () => service.list(),
    install: async (request) => {
      const installed = await service.install(request);
      if (E.isRight(installed)) repairs.delete(`${request.plugin}@${request.marketplace}`);
      return installed;
    },
    uninstall: async (request) => {
      const removed = await service.uninstall(request);
      if (E.isRight(removed)) repairs.delete(request.pluginId);
      return removed;
    },
  };
}

/** A plugin service that is loaded (and its homes recovered) in the background, and the end of that loading. */
interface LoadingPluginService {
  /** Waits for the loaded service on every call. */
  readonly service: PluginService;
  /** Resolves once loading ended, whatever its outcome. */
  readonly settled: Promise<void>;
}

/** Starts `load` now; every call of the returned service waits for it (a failed load answers `PluginsNotAvailable`, and is told to `failed`). */
function loadPluginService(load: () => Promise<PluginService>, failed: (error: unknown) => void): LoadingPluginService {
  const loaded: Promise<E.Either<string, PluginService>> = load().then(E.right, (error: unknown) => {
    failed(error);
    return E.left(error instanceof Error ? error.message : String(error));
  });
  const call =
    <A extends unknown[], R>(method: (service: PluginService, ...args: A) => Promise<E.Either<PluginServiceError, R>>) =>
    async (...args: A): Promise<E.Either<PluginServiceError, R>> => {
      const service = await loaded;
      return E.isLeft(service) ? E.left({ _tag: 'PluginsNotAvailable', message: `plugin management could not be loaded: ${service.left}` }) : method(service.right, ...args);
    };
  return {
    service: {
      list: call((service) => service.list()),
      install: call((service, request: Parameters<PluginService['install']>[0]) => service.install(request)),
      uninstall: call((service, request: Parameters<PluginService['uninstall']>[0]) => service.uninstall(request)),
    },
    settled: loaded.then(() => undefined),
  };
}
