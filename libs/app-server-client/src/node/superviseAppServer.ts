/**
 * A supervised `codex app-server`: one process at a time, started (or adopted) and initialized, and
 * started again when it ends unexpectedly, as `RestartPolicy` decides (backoff, crash-loop limit, then
 * `failed`). Every change of state is told to the status listeners with the reason and a bounded,
 * redacted stderr tail; each newly initialized process is handed to `onServer` before the state says
 * `ready`, so handlers are attached first. A planned restart (`restart()`) ends the
 * process on purpose and is no crash. Nothing is left running after `dispose()`.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Timers } from '@wework/ports';
import { nodeTimers, systemClock } from '@wework/ports/node';
import type { Disposable } from '../internal/ListenerSet.js';
import { ListenerSet } from '../internal/ListenerSet.js';
import { withTimeout } from '../internal/Delay.js';
import {
  DEFAULT_RESTART_POLICY,
  initialSupervisorState,
  stepSupervisor,
  type CrashReason,
  type RestartPolicyConfig,
  type SupervisorEvent,
  type SupervisorState,
} from '../RestartPolicy.js';
import { shownTail } from '../SecretRedaction.js';
import type { ConnectAppServerOptions, LaunchAppServerOptions, LaunchedAppServer, SpawnedAppServer } from './AppServerProcess.js';
import { launchAppServer } from './launchAppServer.js';
import type { SpawnError } from './SpawnError.js';

/** How long the exit of a process whose output closed is awaited once its tree was ended. */
const EXIT_AFTER_DISPOSE_MS = 5_000;

/** The process' exit after `dispose()` ended its tree; unknown (null code and signal) if it never comes. */
const exitAfterDispose = async (timers: Timers, spawned: SpawnedAppServer, disposed: Promise<void>): Promise<{ readonly code: number | null; readonly signal: string | null }> =>
  (await withTimeout(
    timers,
    disposed.then(() => spawned.exited),
    EXIT_AFTER_DISPOSE_MS,
  )) ?? { code: null, signal: null };

/** The supervised process' state as hosts see it. */
export type RuntimeState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

/** A change of state, with why: what every `runtime/status` notification carries. */
export interface RuntimeStatus {
  readonly state: RuntimeState;
  /** Why it is not ready (a sentence without secrets), or null. */
  readonly reason: string | null;
  /** The exit code of the process that ended, when it exited. */
  readonly exitCode: number | null;
  /** The signal that ended it, when a signal did. */
  readonly signal: string | null;
  /** The last lines the process wrote to stderr, secrets redacted, at most 2,000 characters. */
  readonly stderrTail: string | null;
  /** Unexpected ends within the crash-loop window (the limit makes it `failed`). */
  readonly crashes: number;
  /** While `restarting`: the backoff before the next start, in milliseconds. */
  readonly retryInMs: number | null;
  /** The pid of the ready process. */
  readonly pid: number | null;
}

/** Options of {@link superviseAppServer}. */
export interface SuperviseAppServerOptions {
  readonly launch: LaunchAppServerOptions;
  readonly connect?: ConnectAppServerOptions;
  /** Default {@link DEFAULT_RESTART_POLICY}. */
  readonly policy?: RestartPolicyConfig;
  /** The clock of the policy; default the system clock of `@wework/ports/node`. */
  readonly now?: () => number;
  /** The sleeps of the restart backoff and of the wait for an ended process's exit. Default `nodeTimers` of `@wework/ports/node`. */
  readonly timers?: Timers;
  /**
   * Told each newly initialized process, the first included, before the state becomes `ready`: attach
   * handlers here. A listener that throws does not stop the supervisor.
   */
  readonly onServer?: (server: SpawnedAppServer) => void;
}

/** Why the supervisor has no ready process to hand out. */
export interface SupervisorUnavailable {
  readonly _tag: 'SupervisorUnavailable';
  readonly status: RuntimeStatus;
}

/** A supervised app-server. */
export interface SupervisedAppServer {
  /** The ready process, or null while starting, restarting, failed or stopped. */
  current(): SpawnedAppServer | null;
  status(): RuntimeStatus;
  /** Told every change of state. */
  onStatus(listener: (status: RuntimeStatus) => void): Disposable;
  /** Resolves once the state is `ready` (with the process), `failed` or `stopped`. */
  settled(): Promise<E.Either<SupervisorUnavailable, SpawnedAppServer>>;
  /** Ends the current process on purpose (no crash) and starts a new one at once; also retries after `failed`. */
  restart(): Promise<E.Either<SupervisorUnavailable, SpawnedAppServer>>;
  dispose(): Promise<void>;
}

const describeReason = (reason: CrashReason): string =>
  reason._tag === 'Exited' ? `the app-server exited (code ${String(reason.code)}, signal ${String(reason.signal)})` : `the app-server did not start (${reason.error})`;

/**
 * Starts (or adopts `launched`) and supervises the app-server. Resolves once the first process is
 * ready; when it cannot start, the error and nothing left running.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 * import { superviseAppServer } from '@wework/app-server-client/node';
 *
 * const supervised = await superviseAppServer({ launch: { codexHome, home: codexHome, env: process.env, cwd: process.cwd() } });
 * if (E.isRight(supervised)) {
 *   supervised.right.onStatus((status) => console.log(status.state, status.reason));
 *   await supervised.right.dispose();
 * }
 * ```
 */
export async function superviseAppServer(options: SuperviseAppServerOptions, launched?: LaunchedAppServer): Promise<E.Either<SpawnError, SupervisedAppServer>> {
  const policy = options.policy ?? DEFAULT_RESTART_POLICY;
  const now = options.now ?? (() => systemClock.now());
  const timers = options.timers ?? nodeTimers;
  const statusListeners = new ListenerSet<[RuntimeStatus]>();
  let state: SupervisorState = initialSupervisorState;
  let server: SpawnedAppServer | null = null;
  let lastTail: string | null = null;
  let cancelRestart: (() => void) | undefined;
  /** Bumped by every start and every planned end: a stale exit or start result is ignored. */
  let generation = 0;
  let waiters: Array<(result: E.Either<SupervisorUnavailable, SpawnedAppServer>) => void> = [];

  const status = (): RuntimeStatus => {
    const reason = state._tag === 'Restarting' || state._tag === 'Failed' ? state.reason : null;
    return {
      state: state._tag === 'Starting' ? 'starting' : state._tag === 'Ready' ? 'ready' : state._tag === 'Restarting' ? 'restarting' : state._tag === 'Failed' ? 'failed' : 'stopped',
      reason: reason === null ? (state._tag === 'Stopped' ? 'the executor is shutting down' : null) : describeReason(reason),
      exitCode: reason?._tag === 'Exited' ? reason.code : null,
      signal: reason?._tag === 'Exited' ? reason.signal : null,
      stderrTail: reason === null ? null : lastTail,
      crashes: state._tag === 'Stopped' ? 0 : state.crashes.length,
      retryInMs: state._tag === 'Restarting' ? state.delayMs : null,
      pid: state._tag === 'Ready' ? (server?.pid ?? null) : null,
    };
  };

  const settle = (): void => {
    if (state._tag === 'Starting' || state._tag === 'Restarting') return;
    const result = state._tag === 'Ready' && server !== null ? E.right(server) : E.left<SupervisorUnavailable>({ _tag: 'SupervisorUnavailable', status: status() });
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve(result);
  };

  const apply = (event: SupervisorEvent): void => {
    const step = stepSupervisor(policy, state, event);
    const changed = step.state !== state;
    state = step.state;
    cancelRestart?.();
    cancelRestart = undefined;
    if (step.command._tag === 'StartAfter') {
      const delay = step.command.delayMs;
      if (delay === 0) track(start());
      else cancelRestart = timers.after(delay, () => track(start()));
    }
    if (changed) statusListeners.emit(status());
    settle();
  };

  /** Start attempts still running; `dispose()` waits for them, so nothing is left running after it. */
  const starting = new Set<Promise<void>>();
  const track = (attempt: Promise<void>): void => {
    starting.add(attempt);
    void attempt.finally(() => starting.delete(attempt));
  };

  const adopt = (spawned: SpawnedAppServer, mine: number): void => {
    server = spawned;
    try {
      options.onServer?.(spawned);
    } catch {
      // A failing listener must not keep the process from being supervised.
    }
    apply({ _tag: 'Started', at: now() });
    void spawned.client.closed.then(async (ended) => {
      if (generation !== mine) return;
      // Unexpected: the process (or its output) ended without us. Make sure nothing of it is left.
      generation += 1;
      server = null;
      lastTail = shownTail(ended._tag === 'ProcessExited' ? ended.stderrTail : spawned.stderrTail());
      // Its output may have closed while the process hangs on: end the tree first (SIGTERM, then
      // SIGKILL after the grace), and only then wait for the exit, bounded, so a hung process is a crash too.
      const disposed = spawned.dispose();
      const exited = ended._tag === 'ProcessExited' ? ended : await exitAfterDispose(timers, spawned, disposed);
      apply({ _tag: 'Crashed', at: now(), reason: { _tag: 'Exited', code: exited.code, signal: exited.signal } });
    });
  };

  const connectTo = async (process: LaunchedAppServer): Promise<E.Either<SpawnError, SpawnedAppServer>> => process.connect(options.connect ?? {});

  const start = async (): Promise<void> => {
    const mine = ++generation;
    let spawned: E.Either<SpawnError | { readonly _tag: 'StartThrew' }, SpawnedAppServer>;
    try {
      const launchedNow = await launchAppServer(options.launch);
      spawned = E.isLeft(launchedNow) ? launchedNow : await connectTo(launchedNow.right);
    } catch {
      spawned = E.left({ _tag: 'StartThrew' });
    }
    if (generation !== mine || state._tag === 'Stopped') {
      if (E.isRight(spawned)) await spawned.right.dispose();
      return;
    }
    if (E.isLeft(spawned)) {
      lastTail = 'stderrTail' in spawned.left ? shownTail(spawned.left.stderrTail) : null;
      apply({ _tag: 'StartFailed', at: now(), reason: { _tag: 'StartFailed', error: spawned.left._tag } });
      return;
    }
    adopt(spawned.right, mine);
  };

  // The first process: adopted or started here; its failure is the caller's.
  const first = launched === undefined ? await launchAppServer(options.launch) : E.right(launched);
  const firstSpawned = E.isLeft(first) ? first : await connectTo(first.right);
  if (E.isLeft(firstSpawned)) return firstSpawned;
  const mine = ++generation;
  adopt(firstSpawned.right, mine);

  const settled = (): Promise<E.Either<SupervisorUnavailable, SpawnedAppServer>> =>
    new Promise((resolve) => {
      waiters.push(resolve);
      settle();
    });

  return E.right({
    current: () => (state._tag === 'Ready' ? server : null),
    status,
    onStatus: (listener) => statusListeners.add(listener),
    settled,
    restart: async () => {
      if (state._tag === 'Stopped') return E.left({ _tag: 'SupervisorUnavailable', status: status() });
      generation += 1;
      const old = server;
      server = null;
      lastTail = null;
      await old?.dispose();
      // Disposed meanwhile: the step keeps `Stopped` and starts nothing.
      apply({ _tag: 'RestartRequested', at: now() });
      return settled();
    },
    dispose: async () => {
      generation += 1;
      const old = server;
      server = null;
      apply({ _tag: 'Stop' });
      await old?.dispose();
      await Promise.all([...starting]);
    },
  });
}
