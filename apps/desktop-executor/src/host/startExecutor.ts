/**
 * The executor composed as its host sees it: the Wework Codex home prepared (config.toml normalized,
 * native login linked), the one app-server started under a supervisor (restarted when it ends, its state
 * broadcast as `runtime/status`), cards routed to the connected hosts, the transcript streamed to them,
 * and the tasks, accounts, settings, plugins (`PluginServices.ts`) and task inspection behind the host
 * protocol. Transports (stdio, WebSocket) attach hosts with `serve`. This module only composes: each
 * part's rules live in its own module or library.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { checkCodexVersion, describeCodexVersionCheck } from '@wework/app-server-client';
import {
  DEFAULT_RUNTIME_WAIT,
  onCodexTranscript,
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
import type { Clock, Timer } from '@wework/ports';
import { nodeTimer, nodeTimers, systemClock } from '@wework/ports/node';
import { accountService } from '../accounts/AccountService.js';
import { attachExecutorCards } from '../cards/index.js';
import { taskInspector } from '../inspection/TaskInspector.js';
import { bundledFaultFromEnv } from '../plugins/BundledLaunch.js';
import { marketplacePages, type MarketplacePagesOptions } from '../plugins/MarketplacePages.js';
import { composePluginServices } from '../plugins/PluginServices.js';
import { launchExecutor, type ExecutorLaunch, type ExecutorLaunchOptions } from '../runtime/ExecutorLaunch.js';
import { RUNTIME_START_TIMEOUT_MS } from '../runtime/LocalRuntime.js';
import { restartPolicyFromEnv } from '../runtime/RestartBackoff.js';
import { describeRuntimeError } from '../runtime/RuntimeError.js';
import { startRuntimeSupervisor, type RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { runtimeWaitFromEnv, runtimeWaiters } from '../runtime/RuntimeWaiters.js';
import { wegentRuntimeToken } from '../runtime/WegentRuntimeToken.js';
import { inMemoryModelRouterRegistry, type ModelRouterRegistry } from '../tasks/ModelRouterRegistry.js';
import { taskRuntime, type TaskRuntime } from '../tasks/TaskRuntime.js';
import { onFirstUse, whenReady } from './DeferredLoading.js';
import { eventBufferFromEnv } from './EventBuffer.js';
import { executorHandlers, type HostCall } from './handlers/ExecutorHandlers.js';
import { serveHostConnection } from './HostConnection.js';
import { hostSessions, type HostSessions } from './HostSessions.js';
import type { PluginService } from './PluginService.js';

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
  if (E.isLeft(settings)) return refused(launch.right.appServer, settings.left);
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
    return refused(runtime, `${describeCodexVersionCheck(codexVersion)}; it was refused because --require-supported-codex was given`);
  }
  // Every host learns when the app-server ends, restarts, is ready again or gives up.
  runtime.onStatus((status) => sessions.broadcast(RuntimeStatusNotification.method, status));
  const clock = options.clock ?? systemClock;
  const plugins = composePluginServices({
    executorHome: options.executorHome,
    codexHome: home.layout.home,
    env: options.env,
    runtime,
    repairs: launch.right.pluginRepairs,
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
    turnTimeoutMs,
    bundledPlugins: options.bundledPlugins ?? [],
    bundledFault,
    broadcast: (method, params) => sessions.broadcast(method, params),
    clock,
    log,
  });
  // The Wegent runtime token, in memory only: the task threads carry it into the commands' environment.
  const wegentToken = wegentRuntimeToken({
    clock,
    timer: options.tokenTimer ?? nodeTimer(clock),
    notify: (notice) => sessions.broadcast(WegentTokenExpiringNotification.method, notice),
    log,
  });
  const tasks = taskRuntime({ runtime, clock, timer: options.timer ?? nodeTimer(clock), registry: options.registry ?? inMemoryModelRouterRegistry(), log, environment: wegentToken });
  const images = onFirstUse(() =>
    import('@wework/image-preprocess/node').then(async ({ createTurnImageStore }) => {
      const store = createTurnImageStore({ root: join(options.executorHome, 'model-input') });
      await store.sweepLeftovers();
      return store;
    }),
  );
  const accounts = accountService({ home, runtime, log });
  const handlers = executorHandlers({
    runtime,
    // Requests that need Codex wait for a restarting app-server (bounded in time and count).
    waiters: runtimeWaiters({ runtime, timers: nodeTimers, config: waitRule, log }),
    sessions,
    tasks,
    accounts,
    plugins: plugins.plugins,
    authorizations: plugins.authorizations,
    recoverConnector: plugins.recoverConnector,
    inventoryChanged: plugins.inventoryChanged,
    pluginInventory: plugins.pluginInventory,
    bundled: plugins.bundled,
    gate: plugins.gate,
    inspector: taskInspector(runtime, log),
    images,
    wegentToken,
    log,
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
  // The plugin service's load and the bundled plugins' check wait until the first answer is out.
  const ready = whenReady(nodeTimer(clock), clock, () => plugins.startWhenReady());
  return E.right({
    handlers,
    request: async (method, params) => {
      const answer = await (handlers[method] as HostHandler<typeof method, HostCall>)(params, { session: null });
      ready.answered();
      return answer;
    },
    sessions,
    runtime,
    tasks,
    serve: (connection) => serveHostConnection(connection, handlers, sessions, log, ready.answered),
    dispose: async () => {
      ready.cancel();
      tasks.dispose();
      wegentToken.dispose();
      await plugins.dispose();
      await runtime.dispose();
    },
  });
}

/** A refused start: what was started is disposed of first, so nothing is left running. */
async function refused(started: { dispose(): Promise<void> }, reason: string): Promise<E.Either<string, never>> {
  await started.dispose();
  return E.left(reason);
}
