/**
 * The executor as its host sees it: the Wework Codex home prepared (config.toml normalized, native login
 * linked), the one app-server started under a supervisor, cards routed to the connected hosts, the
 * transcript streamed to them, and the tasks, accounts, settings, plugins and supervision behind the
 * host protocol. Transports (stdio, WebSocket) attach hosts with `serve`.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as T from 'fp-ts/lib/Task.js';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { ItemAgentMessageDelta, ItemCompleted, ItemStarted, TurnCompleted, TurnStarted } from '@wework/codex-protocol';
import { DEFAULT_MIGRATION_CHOICE } from '@wework/codex-home';
import { nodeCodexHome } from '@wework/codex-home/node';
import type { TurnImageStore } from '@wework/image-preprocess/node';
import { accountService } from '../accounts/AccountService.js';
import { attachExecutorCards } from '../cards/index.js';
import { describeHomePreparationError, prepareCodexHome } from '../home/prepareCodexHome.js';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import { describeRuntimeError } from '../runtime/LocalRuntime.js';
import { startRuntimeSupervisor, type RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { supervisor } from '../supervision/Supervisor.js';
import { nodeTimer, systemClock, type Clock, type TimerPort } from '../tasks/Clock.js';
import { inMemoryModelRouterRegistry, type ModelRouterRegistry } from '../tasks/ModelRouterRegistry.js';
import { taskRuntime, type TaskRuntime } from '../tasks/TaskRuntime.js';
import { executorApi, type ExecutorApi } from './ExecutorApi.js';
import { serveHostConnection } from './HostConnection.js';
import { ExecutorNotification } from './HostProtocol.js';
import { hostSessions, type HostSessions } from './HostSessions.js';
import { recoverAll } from '@wework/sync-transaction';
import { createNodePorts } from '@wework/sync-transaction/node';
import { pluginSync } from '../plugins/PluginSync.js';
import { syncedPluginService } from '../plugins/SyncedPluginService.js';
import type { PluginService } from './PluginService.js';

/** Options of {@link startExecutor}. */
export interface ExecutorOptions {
  /** The executor's own directory; the Codex home is its `codex` child unless `WEGENT_CODEX_HOME` says otherwise. */
  readonly executorHome: string;
  /** The user's home (where a native `~/.codex` would be). */
  readonly userHome: string;
  /** The workspace of threads whose task names none. */
  readonly workspace: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** MCP servers to wait for before a thread's first turn. */
  readonly waitForPlugins: ReadonlyArray<string>;
  readonly log: ExecutorLog;
  readonly plugins?: PluginService;
  readonly registry?: ModelRouterRegistry;
  readonly clock?: Clock;
  readonly timer?: TimerPort;
  /** How long a turn may run (cards wait for the user meanwhile). Default 24 hours. */
  readonly turnTimeoutMs?: number;
}

/** A started executor. */
export interface Executor {
  readonly api: ExecutorApi;
  readonly sessions: HostSessions;
  readonly runtime: RuntimeSupervisor;
  readonly tasks: TaskRuntime;
  /** Serves one host over a JSON-RPC connection; resolves when it disconnects. */
  serve(connection: MessageConnection): Promise<void>;
  dispose(): Promise<void>;
}

/** Prepares the home and starts everything; on failure nothing is left running. */
export async function startExecutor(options: ExecutorOptions): Promise<E.Either<string, Executor>> {
  const { log } = options;
  const home = nodeCodexHome({ executorHome: options.executorHome, userHome: options.userHome, env: options.env });
  if (E.isLeft(home)) return E.left(`the Codex home cannot be used (${home.left._tag})`);
  // The host is not connected yet at start: a first start with a native ~/.codex takes the default choice.
  const prepared = await prepareCodexHome(home.right, () => T.of(DEFAULT_MIGRATION_CHOICE), log);
  if (E.isLeft(prepared)) return E.left(describeHomePreparationError(prepared.left));

  const sessions = hostSessions(log);
  // The runtime's attach hook needs the tasks, which need the runtime: set once both exist.
  const box: { tasks?: TaskRuntime } = {};
  const taskOf = (threadId: string): string | undefined => box.tasks?.list().find((task) => task.threadId === threadId)?.taskId;
  const started = await startRuntimeSupervisor({
    codexHome: home.right.layout.home,
    home: options.userHome,
    workspace: options.workspace,
    env: options.env,
    pluginNames: options.waitForPlugins,
    log,
    turnTimeoutMs: options.turnTimeoutMs ?? 24 * 60 * 60_000,
    attach: (client) => {
      const forTask = <P extends { readonly threadId: string }>(method: string, shape: (params: P, taskId: string) => object) => (params: P) => {
        const taskId = taskOf(params.threadId);
        if (taskId !== undefined) sessions.broadcast(method, shape(params, taskId));
      };
      client.on(TurnStarted, forTask(ExecutorNotification.TurnStarted, (p, taskId) => ({ taskId, threadId: p.threadId, turnId: p.turn.id })));
      client.on(ItemStarted, forTask(ExecutorNotification.Item, (p, taskId) => ({ taskId, threadId: p.threadId, turnId: p.turnId, phase: 'started', item: p.item })));
      client.on(ItemCompleted, forTask(ExecutorNotification.Item, (p, taskId) => ({ taskId, threadId: p.threadId, turnId: p.turnId, phase: 'completed', item: p.item })));
      client.on(ItemAgentMessageDelta, forTask(ExecutorNotification.AgentMessageDelta, (p, taskId) => ({ taskId, threadId: p.threadId, turnId: p.turnId, itemId: p.itemId, delta: p.delta })));
      client.on(TurnCompleted, forTask(ExecutorNotification.TurnCompleted, (p, taskId) => ({ taskId, threadId: p.threadId, turn: p.turn })));
      return attachExecutorCards(client, sessions, log);
    },
  });
  if (E.isLeft(started)) return E.left(describeRuntimeError(started.left));
  const runtime = started.right;
  // Cloud plugins: both runtime homes of this executor; interrupted transactions are finished or undone first.
  const pluginHomes = { codexHome: home.right.layout.home, claudeHome: join(options.executorHome, 'claude'), stateDirectory: join(options.executorHome, 'plugin-state') };
  const pluginPorts = createNodePorts();
  const recovered = await recoverAll(pluginPorts.fs, pluginPorts.host, pluginHomes)();
  if (E.isLeft(recovered)) log({ event: 'plugin recovery failed', fields: { error: recovered.left._tag } });
  const clock = options.clock ?? systemClock;
  const tasks = taskRuntime({ runtime, clock, timer: options.timer ?? nodeTimer(clock), registry: options.registry ?? inMemoryModelRouterRegistry(), log });
  // The image store loads the image codec library: only when a message first needs it.
  let imageStore: Promise<TurnImageStore> | undefined;
  const images = (): Promise<TurnImageStore> =>
    (imageStore ??= import('@wework/image-preprocess/node').then(async ({ createTurnImageStore }) => {
      const store = createTurnImageStore({ root: join(options.executorHome, 'model-input') });
      await store.sweepLeftovers();
      return store;
    }));
  const api = executorApi({
    runtime,
    tasks,
    accounts: accountService({ home: home.right, runtime, log }),
    plugins: options.plugins ?? syncedPluginService(pluginSync({ ports: pluginPorts, homes: pluginHomes, runtime, log, now: () => new Date().toISOString() }), pluginHomes),
    supervision: supervisor(runtime, log),
    images,
    log,
  });
  box.tasks = tasks;
  return E.right({
    api,
    sessions,
    runtime,
    tasks,
    serve: (connection) => serveHostConnection(connection, api, sessions, log),
    dispose: async () => {
      tasks.dispose();
      await runtime.dispose();
    },
  });
}
