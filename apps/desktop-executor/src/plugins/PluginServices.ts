/**
 * The plugin services of a started executor, composed in one place: the cloud plugin service (sync
 * transactions into both runtime homes), connector authorization (install-time logins shown to the hosts,
 * and recovery of a connector a turn found logged out), the installed inventory and its management, the
 * home's mutation gate, and the desktop app's bundled plugins. Their modules load after the start
 * (`DeferredLoading.ts` says why); interrupted transactions were finished or undone at launch, and what
 * that could not recover stays a repair until a sync of the plugin succeeds.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { BeforeCommit } from '@wework/sync-transaction';
import { parsePluginKey, pluginKey, type PluginRef, type StatusChange } from '@wework/plugin-inventory';
import { InventoryChangedNotification, PluginsUpdateStatusNotification, pluginsUpdateStatusParams } from '@wework/host-protocol';
import type { Clock, Log } from '@wework/ports';
import { nodeTimers } from '@wework/ports/node';
import { onFirstUse } from '../host/DeferredLoading.js';
import type { ExecutorServices } from '../host/handlers/ExecutorHandlers.js';
import { hostAuthorizations } from '../host/HostAuthorizationUi.js';
import type { PluginService, PluginServiceError } from '../host/PluginService.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { bundledDirectories } from './BundledLaunch.js';
import { bundledPlugins } from './BundledPlugins.js';
import type { InstallAuthorizationOptions } from './installAuthorization.js';
import { mutationGate } from './MutationGate.js';
import { pluginHomesOf, type PluginRepairs } from './PluginDirectoryRecovery.js';
import type { PluginSync } from './PluginSync.js';

/** How long a shutdown waits for a running bundled upgrade. */
const BUNDLED_SHUTDOWN_GRACE_MS = 10_000;

/** What {@link composePluginServices} needs. */
export interface PluginServicesOptions {
  readonly executorHome: string;
  readonly codexHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly runtime: RuntimeSupervisor;
  /** What start-up recovery (at launch, before Codex started) could not recover. */
  readonly repairs: PluginRepairs;
  /** The plugin service; default the cloud plugin sync. */
  readonly plugins?: PluginService;
  /** How long a plugin mutation may wait for running turns and Codex requests (a turn's timeout). */
  readonly turnTimeoutMs: number;
  /** The desktop app's bundled plugin package directories (`WEWORK_BUNDLED_PLUGINS` of `env` adds more). */
  readonly bundledPlugins: ReadonlyArray<string>;
  /** A fault injected into bundled upgrades (tests), or null. */
  readonly bundledFault: BeforeCommit | null;
  /** Sends a notification to every connected host. */
  readonly broadcast: (method: string, params: object) => void;
  readonly clock: Clock;
  readonly log: Log;
}

/** The plugin services, as the handlers take them, and their life. */
export interface PluginServices extends Required<Pick<ExecutorServices, 'plugins' | 'authorizations' | 'recoverConnector' | 'inventoryChanged' | 'pluginInventory' | 'gate' | 'bundled'>> {
  /**
   * Once the executor is ready: loads the plugin service and checks the bundled plugins (upgrading those
   * that differ) in the background; no host request waits for it. Before, the plugin service loads only
   * when a request first uses it.
   */
  startWhenReady(): void;
  /** Waits for the plugin service to have loaded, and a moment for a running bundled upgrade (crash-safe if it does not finish). */
  dispose(): Promise<void>;
}

/** Composes the plugin services over the started runtime; their modules load on first use or once the executor is ready (`startWhenReady`). */
export function composePluginServices(options: PluginServicesOptions): PluginServices {
  const { runtime, log } = options;
  // Cloud plugins: both runtime homes of this executor.
  const homes = pluginHomesOf(options.executorHome, options.codexHome);
  const repairs = new Map(options.repairs);
  // Connector logins (install-time authorization) are shown to the hosts as `auth/session` notifications.
  const authorizations = hostAuthorizations(options.broadcast);
  // One device authorization (bridge runner, health cache, one login per connector) for installs and recovery.
  const authorization = onFirstUse<InstallAuthorizationOptions>(() =>
    import('./deviceAuthorization.js').then(({ deviceAuthorization }) => deviceAuthorization({ executorHome: options.executorHome, ui: authorizations.ui, log })),
  );
  // Cache and configuration mutations of the plugin homes wait for running turns and Codex requests.
  const gate = mutationGate({ activity: () => runtime.activity(), timers: nodeTimers, maxWaitMs: options.turnTimeoutMs });
  const syncLoaded = deferred<PluginSync>();
  const plugins = loadPluginService(async () => {
    const [{ createNodePorts }, { pluginSync }, { syncedPluginService }] = await Promise.all([
      import('@wework/sync-transaction/node'),
      import('./PluginSync.js'),
      import('./SyncedPluginService.js'),
    ]);
    const sync = repairedBy(pluginSync({ ports: createNodePorts(), homes, runtime, log, now: () => new Date(options.clock.now()).toISOString(), authorization, gate }), repairs);
    syncLoaded.resolve(sync);
    return options.plugins === undefined ? syncedPluginService(sync, homes) : repairedBySync(options.plugins, repairs);
  }, syncLoaded.reject);
  const recoverConnector: NonNullable<ExecutorServices['recoverConnector']> = async (blocked) => {
    const [{ recoverConnectorAuth }, { resolveInstalledConnector }, deps] = await Promise.all([import('@wework/local-auth'), import('./connectorResolver.js'), authorization()]);
    return recoverConnectorAuth({ resolveConnector: resolveInstalledConnector(homes), health: deps.health, startLogin: deps.startLogin, ui: deps.ui }, blocked);
  };
  const inventoryChanged: ExecutorServices['inventoryChanged'] = (change, pluginId) => options.broadcast(InventoryChangedNotification.method, { change, pluginId });
  // The one installed inventory and its management, after the plugin machinery.
  const pluginInventory = onFirstUse(() =>
    Promise.all([import('./PluginInventory.js'), import('./CodexInventory.js'), import('./PluginManagement.js'), import('@wework/sync-transaction/node')]).then(
      ([{ pluginInventory: makeInventory }, { codexInventory, cloudPluginsOf }, { pluginManagement }, { inspectInstalledPlugin }]) => {
        const cloudPlugins = () => cloudPluginsOf(homes);
        const inventory = makeInventory({
          codex: codexInventory(runtime, { plugins: cloudPlugins, inspect: (ref) => inspectInstalledPlugin(homes, ref) }),
          directory: join(options.executorHome, 'plugin-inventory'),
          cloudPlugins,
          repairs: () => repairsOf(repairs),
          clock: options.clock,
          deviceId: options.env['WEWORK_DEVICE_ID'] ?? 'this-device',
          log,
        });
        const management = pluginManagement({ runtime, inventory, cloud: plugins.service, cloudPlugins, codexHome: options.codexHome, authorization, changed: inventoryChanged, log });
        return { inventory, management };
      },
    ),
  );
  const bundled = bundledPlugins({
    directories: bundledDirectories(options.bundledPlugins, options.env),
    sync: () => syncLoaded.promise,
    homes,
    notify: (change: StatusChange) => options.broadcast(PluginsUpdateStatusNotification.method, pluginsUpdateStatusParams(change)),
    inventory: {
      status: async (ref: PluginRef, status) => {
        const { inventory } = await pluginInventory();
        if (status.kind === 'updating') inventory.updateStarted(ref);
        else if (status.kind === 'updateFailed') inventory.updateFailed(ref, status.reason);
        else inventory.updateSucceeded(ref);
      },
      upgraded: (ref: PluginRef) => inventoryChanged('installed', pluginKey(ref)),
    },
    ...(options.bundledFault === null ? {} : { beforeCommit: options.bundledFault }),
    log,
  });
  return {
    plugins: plugins.service,
    authorizations,
    recoverConnector,
    inventoryChanged,
    pluginInventory,
    gate,
    bundled,
    startWhenReady: () => {
      plugins.load();
      void bundled.checkAll().catch((error: unknown) => log({ event: 'bundled plugin check failed', fields: { error: error instanceof Error ? error.name : typeof error } }));
    },
    dispose: async () => {
      await plugins.settled();
      const grace = new AbortController();
      await Promise.race([bundled.idle(), nodeTimers.sleep(BUNDLED_SHUTDOWN_GRACE_MS, grace.signal)]);
      grace.abort();
    },
  };
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

/** A plugin service that is loaded in the background, once started or first used, and the end of that loading. */
interface LoadingPluginService {
  /** Waits for the loaded service on every call (the first call starts loading it). */
  readonly service: PluginService;
  /** Starts loading the service (once; later calls do nothing). */
  readonly load: () => void;
  /** Resolves once loading ended, whatever its outcome; at once when it never started. */
  readonly settled: () => Promise<void>;
}

/** `load` run on the first call or `load()`; every call of the returned service waits for it (a failed load answers `PluginsNotAvailable`, and is told to `failed`). */
function loadPluginService(load: () => Promise<PluginService>, failed: (error: unknown) => void): LoadingPluginService {
  const loaded = onFirstUse(
    (): Promise<E.Either<string, PluginService>> =>
      load().then(E.right, (error: unknown) => {
        failed(error);
        return E.left(error instanceof Error ? error.message : String(error));
      }),
  );
  let started = false;
  const start = (): Promise<E.Either<string, PluginService>> => {
    started = true;
    return loaded();
  };
  const call =
    <A extends unknown[], R>(method: (service: PluginService, ...args: A) => Promise<E.Either<PluginServiceError, R>>) =>
    async (...args: A): Promise<E.Either<PluginServiceError, R>> => {
      const service = await start();
      return E.isLeft(service) ? E.left({ _tag: 'PluginsNotAvailable', message: `plugin management could not be loaded: ${service.left}` }) : method(service.right, ...args);
    };
  return {
    service: {
      list: call((service) => service.list()),
      install: call((service, request: Parameters<PluginService['install']>[0]) => service.install(request)),
      uninstall: call((service, request: Parameters<PluginService['uninstall']>[0]) => service.uninstall(request)),
    },
    load: () => void start(),
    settled: async () => {
      if (started) await loaded();
    },
  };
}
