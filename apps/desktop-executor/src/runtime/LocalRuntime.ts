/**
 * The executor's local Codex runtime: one app-server for the local conversations, threads started with
 * the task's permission mode, turns run to completion, and a stop that interrupts the turn and cancels
 * the cards still waiting for the user. When the app-server ends under a running turn, the turn ends
 * `failed` (told to `onTurnAborted`) and every card still waiting is dismissed; nothing of the dead
 * connection keeps the runtime busy. Failed requests become typed runtime errors (`runtimeErrorOf`).
 */
import * as E from 'fp-ts/lib/Either.js';
import { loadCatalog, type CatalogLoadError, type ModelCatalog } from '@wework/model-catalog';
import {
  ModelList,
  ThreadFork,
  ThreadResume,
  ThreadStart,
  TurnCompleted,
  TurnInterrupt,
  TurnStart,
  TurnStarted,
  TurnSteer,
  type ActivePermissionProfile,
  type ParamsOf,
  type Turn,
  type UserInputStrict,
} from '@wework/codex-protocol';
import { type ActivityTracker, type AppServerClient, checkCodexVersion, type ClientError, describeClientErrorCategory, type McpStartupError, describeCodexVersionCheck, runTurn as runClientTurn, trackActivity, trackMcpStartup } from '@wework/app-server-client';
import type { ConnectAppServerOptions, LaunchedAppServer, SpawnedAppServer } from '@wework/app-server-client/node';
import { weworkInitializeCapabilities } from '@wework/approval-policy';
import type { Log } from '@wework/ports';
import type { RuntimeFault } from '@wework/host-errors';
import { logUnknownProtocolValues } from './UnknownValueLog.js';
import { launchRuntimeProcess, type RuntimeProcessOptions } from './launchRuntimeProcess.js';
import { pluginStartupErrorOf, runtimeErrorOf } from './RuntimeError.js';

export { describeRuntimeError, runtimeErrorOf } from './RuntimeError.js';

function describeCatalogError(error: CatalogLoadError<ClientError>): string {
  return error._tag === 'FetchFailed' ? describeClientErrorCategory(error.error) : 'message' in error && typeof error.message === 'string' ? error.message : error._tag;
}

/** Thread params the runtime starts threads with (permission profile, approval policy, ...). */
export type ThreadParams = Omit<ParamsOf<typeof ThreadStart>, 'cwd'>;

/** What `thread/resume` carries besides the thread id: the task's permissions, and its model, provider and workspace when known. */
export type ResumeParams = Omit<ParamsOf<typeof ThreadResume>, 'threadId'>;

/** What `thread/fork` carries besides the source thread id: the source task's model, provider, permissions, workspace, and the turn to fork through. */
export type ForkParams = Omit<ParamsOf<typeof ThreadFork>, 'threadId'>;

/** Where and how a thread starts, besides its params. */
export interface StartThreadOptions {
  /** The thread's workspace; default the runtime's workspace. */
  readonly cwd?: string;
  /** Wait for the runtime's plugins to be ready (default true). */
  readonly waitForPlugins?: boolean;
}

/** The permission part of thread and turn params, applied on every call of a task. */
export type PermissionCallParams = Pick<ParamsOf<typeof TurnStart>, 'permissions' | 'approvalPolicy'>;

/** What a turn carries besides its input: the task's permissions and, when chosen, its model. */
export type TurnCallParams = PermissionCallParams & Pick<ParamsOf<typeof TurnStart>, 'model'>;

/** A thread as the app-server confirmed it: its id, the permission profile, model and provider it runs with. */
export interface ThreadHandle {
  readonly threadId: string;
  readonly activePermissionProfile: ActivePermissionProfile | null;
  readonly model: string;
  readonly modelProvider: string;
  /** The thread's workspace as the app-server resolved it. */
  readonly cwd: string;
}

/** Told when a task is stopped, and when the app-server connection ended (then every card goes). */
export interface StopListener {
  cancelThread(threadId: string): void;
  dispose?(): void;
}

/**
 * The request timeouts of the executor's app-server connection: 60 s by default; `thread/start`,
 * `thread/resume` and `thread/fork` 120 s (they load a thread, its MCP servers and its rollout). A turn's
 * own wait is bounded by `turnTimeoutMs`.
 */
export const RUNTIME_REQUEST_TIMEOUTS: Pick<ConnectAppServerOptions, 'requestTimeoutMs' | 'requestTimeouts'> = {
  requestTimeoutMs: 60_000,
  requestTimeouts: { 'thread/start': 120_000, 'thread/resume': 120_000, 'thread/fork': 120_000 },
};

/** How long starting the app-server may take, up to its `initialize` answer: 30 s (requests waiting for a restart count on it). */
export const RUNTIME_START_TIMEOUT_MS = 30_000;

/** The connect options of the executor's app-server: Wework's capabilities, the start timeout and the request timeouts. */
export const runtimeConnectOptions = (): ConnectAppServerOptions => ({ capabilities: weworkInitializeCapabilities(), initializeTimeoutMs: RUNTIME_START_TIMEOUT_MS, ...RUNTIME_REQUEST_TIMEOUTS });

/** Options of {@link startLocalRuntime}. */
export interface LocalRuntimeOptions extends RuntimeProcessOptions {
  /** MCP servers to wait for before the first turn (Codex may otherwise sample before their tools are listed). */
  readonly pluginNames: ReadonlyArray<string>;
  readonly log: Log;
  /**
   * Attaches the executor's server-request handlers before anything else happens. What it returns is
   * told when a task is stopped, so cards still waiting for the user are cancelled.
   */
  readonly attach?: (client: AppServerClient) => StopListener | void;
  readonly pluginStartTimeoutMs?: number;
  readonly turnTimeoutMs?: number;
  /** Told of each turn that ended `failed` because the app-server connection ended under it. */
  readonly onTurnAborted?: (threadId: string, turn: Turn) => void;
}

/** A running local runtime. */
export interface LocalRuntime {
  /** Which app-server process this is: one more for every runtime made in this executor, so a later process has a larger number. */
  readonly instance: number;
  readonly server: SpawnedAppServer;
  /** What the connection is busy with: requests in flight, unanswered server requests, running turns. */
  readonly activity: ActivityTracker;
  /** Starts a thread with the given params; resolves once the plugins are ready (unless told not to wait). */
  startThread(params: ThreadParams, start?: StartThreadOptions): Promise<E.Either<RuntimeFault, ThreadHandle>>;
  /** Resumes a persisted thread with the task's permission params (and model, provider and workspace when given); resolves once its plugins are ready. */
  resumeThread(threadId: string, params: ResumeParams): Promise<E.Either<RuntimeFault, ThreadHandle>>;
  /** Forks a thread with the source task's permission params (and model, provider, workspace and turn when given). */
  forkThread(threadId: string, params: ForkParams): Promise<E.Either<RuntimeFault, ThreadHandle>>;
  /**
   * Runs one user turn to its end, with the permission params and model given (the task runtime leaves
   * out the ones its thread already took; `@wework/thread-lifecycle`'s `RunTurn`). `input` is plain text,
   * or the turn's `UserInput` items (strict: what we send) as composed by the executor (text with mentions, skills, images).
   */
  runTurn(threadId: string, input: string | ReadonlyArray<UserInputStrict>, params?: TurnCallParams, onStarted?: (turnId: string) => void): Promise<E.Either<RuntimeFault, Turn>>;
  /**
   * Adds input to the thread's running turn `turnId` (`turn/steer`); refused by Codex (`RequestFailed`)
   * when that turn is no longer the active one. Steering takes no permissions or model.
   */
  steerTurn(threadId: string, turnId: string, input: ReadonlyArray<UserInputStrict>): Promise<E.Either<RuntimeFault, void>>;
  /** Loads the model catalog (`model/list`, hidden models excluded, every page, order kept). */
  loadModelCatalog(): Promise<E.Either<RuntimeFault, ModelCatalog>>;
  /** Stops the thread's task: cancels its cards still waiting for the user, and interrupts its active turn. */
  stopTurn(threadId: string): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Starts the app-server and returns the runtime; everything it starts ends with `dispose()`. A process
 * started earlier with {@link launchRuntimeProcess} (with the same options) is adopted instead of
 * starting one.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions, launched?: LaunchedAppServer): Promise<E.Either<RuntimeFault, LocalRuntime>> {
  const appServer = launched === undefined ? await launchRuntimeProcess(options) : E.right(launched);
  if (E.isLeft(appServer)) return appServer;
  // Wework does not advertise the openai/form extension unless it really supports it.
  const spawned = await appServer.right.connect(runtimeConnectOptions());
  if (E.isLeft(spawned)) return E.left({ _tag: 'AppServerDidNotStart', reason: spawned.left._tag });
  return E.right(localRuntimeOf(spawned.right, options));
}

/** How many runtimes this executor has made: the last one's {@link LocalRuntime.instance}. */
let instances = 0;

/** The runtime over an initialized app-server connection: attaches the executor's handlers at once. */
export function localRuntimeOf(server: SpawnedAppServer, options: LocalRuntimeOptions): LocalRuntime {
  const client = server.client;
  const activity = trackActivity(client);
  const stopListener = options.attach?.(client);
  const unknownValues = logUnknownProtocolValues(client, options.log);
  // Each connected Codex (the first and every restart) is checked against the supported versions.
  const version = checkCodexVersion(server.initializeResult.userAgent);
  if (version._tag === 'Supported') options.log({ event: 'codex version', fields: { version: version.version } });
  else options.log({ event: 'codex version not supported', level: 'warn', fields: { check: describeCodexVersionCheck(version) } });
  // The connection ended: its cards can never be answered, its activity is gone.
  void client.closed.then(() => {
    stopListener?.dispose?.();
    activity.dispose();
    unknownValues.dispose();
  });
  /** Threads started, resumed or forked on this connection (their MCP servers were started here). */
  const loadedHere = new Set<string>();
  const activeTurn = new Map<string, string>();
  client.on(TurnStarted, (params) => activeTurn.set(params.threadId, params.turn.id));
  client.on(TurnCompleted, (params) => {
    if (activeTurn.get(params.threadId) === params.turn.id) activeTurn.delete(params.threadId);
  });

  const handleOf = (response: { readonly thread: { readonly id: string }; readonly activePermissionProfile: ActivePermissionProfile | null; readonly model: string; readonly modelProvider: string; readonly cwd: string }): ThreadHandle => ({
    threadId: response.thread.id,
    activePermissionProfile: response.activePermissionProfile,
    model: response.model,
    modelProvider: response.modelProvider,
    cwd: response.cwd,
  });

  /** The fault of plugins that did not become ready; a wait the app-server's end cut short is logged. */
  const pluginsFault = (error: McpStartupError): RuntimeFault => {
    if (error._tag === 'McpStartupAbandoned' && error.cause === 'ClientEnded') options.log({ event: 'plugin wait ended with the app-server', fields: { pending: error.pending.length } });
    return pluginStartupErrorOf(error, client.terminalError);
  };

  const startThread = async (params: ThreadParams, start: StartThreadOptions = {}): Promise<E.Either<RuntimeFault, ThreadHandle>> => {
    const startup = trackMcpStartup(client);
    try {
      const thread = await client.request(ThreadStart, { ...params, cwd: start.cwd ?? options.workspace });
      if (E.isLeft(thread)) return E.left(runtimeErrorOf(ThreadStart.method, thread.left));
      loadedHere.add(thread.right.thread.id);
      if (start.waitForPlugins !== false) {
        const ready = await startup.whenSettled(options.pluginNames, options.pluginStartTimeoutMs ?? 30_000);
        if (E.isLeft(ready)) return E.left(pluginsFault(ready.left));
      }
      options.log({ event: 'thread started', fields: { threadId: thread.right.thread.id, permissions: params.permissions ?? null, approvalPolicy: params.approvalPolicy ?? null } });
      return E.right(handleOf(thread.right));
    } finally {
      startup.dispose();
    }
  };

  const resumeThread = async (threadId: string, params: ResumeParams): Promise<E.Either<RuntimeFault, ThreadHandle>> => {
    // A thread first loaded on this process (after a restart, or persisted) starts its MCP servers: wait for them
    // as a new thread does. A thread already loaded here keeps its servers and reports nothing new.
    const startup = loadedHere.has(threadId) ? undefined : trackMcpStartup(client);
    try {
      // The handle needs no history: without `excludeTurns` Codex hydrates every turn of the rollout into the
      // answer, and the client decodes it all, a cost that grows with the thread.
      const resumed = await client.request(ThreadResume, { ...params, threadId, cwd: params.cwd ?? options.workspace, excludeTurns: true });
      if (E.isLeft(resumed)) return E.left(runtimeErrorOf(ThreadResume.method, resumed.left));
      loadedHere.add(threadId);
      if (startup !== undefined) {
        const ready = await startup.whenSettled(options.pluginNames, options.pluginStartTimeoutMs ?? 30_000);
        if (E.isLeft(ready)) return E.left(pluginsFault(ready.left));
      }
      return E.right(handleOf(resumed.right));
    } finally {
      startup?.dispose();
    }
  };

  const forkThread = async (threadId: string, params: ForkParams): Promise<E.Either<RuntimeFault, ThreadHandle>> => {
    const forked = await client.request(ThreadFork, { ...params, threadId, cwd: params.cwd ?? options.workspace });
    if (E.isLeft(forked)) return E.left(runtimeErrorOf(ThreadFork.method, forked.left));
    loadedHere.add(forked.right.thread.id);
    return E.right(handleOf(forked.right));
  };

  const runTurn = async (threadId: string, input: string | ReadonlyArray<UserInputStrict>, params: TurnCallParams = {}, onStarted?: (turnId: string) => void): Promise<E.Either<RuntimeFault, Turn>> => {
    const items: UserInputStrict[] = typeof input === 'string' ? [{ type: 'text', text: input, text_elements: [] }] : [...input];
    const outcome = await runClientTurn(client, { ...params, threadId, input: items }, {
      timeoutMs: options.turnTimeoutMs ?? 120_000,
      interruptOnStop: false,
      ...(onStarted === undefined ? {} : { onStarted: (turn: Turn) => onStarted(turn.id) }),
    });
    switch (outcome._tag) {
      case 'StartFailed':
        return E.left(runtimeErrorOf(TurnStart.method, outcome.error));
      case 'TimedOut':
        return E.left({ _tag: 'TurnDidNotFinish', reason: 'timed out' });
      case 'Aborted':
        return E.left({ _tag: 'TurnDidNotFinish', reason: 'aborted' });
      case 'ClientClosed': {
        // The app-server ended under the turn: the turn is over, failed (as the client's outcome says); the supervisor restarts Codex.
        activeTurn.delete(threadId);
        options.log({ event: 'turn aborted by app-server exit', fields: { threadId, turnId: outcome.turnId } });
        options.onTurnAborted?.(threadId, outcome.turn);
        return E.right(outcome.turn);
      }
      default:
        return E.right(outcome.turn);
    }
  };

  const steerTurn = async (threadId: string, turnId: string, input: ReadonlyArray<UserInputStrict>): Promise<E.Either<RuntimeFault, void>> => {
    const steered = await client.request(TurnSteer, { threadId, expectedTurnId: turnId, input: [...input] });
    return E.isLeft(steered) ? E.left(runtimeErrorOf(TurnSteer.method, steered.left)) : E.right(undefined);
  };

  const loadModelCatalog = async (): Promise<E.Either<RuntimeFault, ModelCatalog>> => {
    const catalog = await loadCatalog((_cursor, params) => client.request(ModelList, params));
    return E.mapLeft((error: CatalogLoadError<ClientError>): RuntimeFault =>
      error._tag === 'FetchFailed' ? runtimeErrorOf(ModelList.method, error.error) : { _tag: 'RequestFailed', method: ModelList.method, reason: describeCatalogError(error) },
    )(catalog);
  };

  const stopTurn = async (threadId: string): Promise<void> => {
    stopListener?.cancelThread(threadId);
    const turnId = activeTurn.get(threadId);
    if (turnId === undefined) return;
    options.log({ event: 'turn stop requested', fields: { threadId, turnId } });
    await client.request(TurnInterrupt, { threadId, turnId });
  };

  instances += 1;
  return { instance: instances, server, activity, startThread, resumeThread, forkThread, runTurn, steerTurn, loadModelCatalog, stopTurn, dispose: () => server.dispose() };
}
