/**
 * Keeps the executor's one local app-server, supervised by `@wework/app-server-client`'s
 * `superviseAppServer`: each initialized process becomes a {@link LocalRuntime} (handlers attached
 * first), an unexpected end is restarted with backoff up to the crash-loop limit, and every change of
 * state is told to `onStatus` listeners. A planned restart (after an account switch) uses the same path.
 * Tasks keep their thread IDs across a restart: a follow-up resumes the thread on the new process.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ConnectionActivity, Disposable, RestartPolicyConfig } from '@wework/app-server-client';
import { superviseAppServer, type RuntimeStatus, type SupervisedAppServer } from '@wework/app-server-client/node';
import type { LaunchedAppServer } from '@wework/app-server-client/node';
import type { RuntimeFault } from '@wework/host-errors';
import { localRuntimeOf, runtimeConnectOptions, type LocalRuntime, type LocalRuntimeOptions } from './LocalRuntime.js';
import { runtimeLaunchOptions } from './launchRuntimeProcess.js';

/** The executor's app-server, supervised and restartable. */
export interface RuntimeSupervisor {
  /** The latest runtime: the running one, or while restarting the one that ended (its requests fail at once). */
  current(): LocalRuntime;
  /** The running runtime, or why there is none (`RuntimeUnavailable`, retryable while restarting). */
  ready(): E.Either<RuntimeFault, LocalRuntime>;
  /** The app-server's state: `ready`, `restarting`, `failed`, … with the reason and a secret-free stderr tail. */
  status(): RuntimeStatus;
  /** Told every change of state. */
  onStatus(listener: (status: RuntimeStatus) => void): Disposable;
  /** What the running app-server connection is busy with (idle when none runs: nothing of a dead one counts). */
  activity(): ConnectionActivity;
  /** Stops the app-server and starts a new one with the same options (also after `failed`). */
  restart(): Promise<E.Either<RuntimeFault, LocalRuntime>>;
  dispose(): Promise<void>;
}

const idle: ConnectionActivity = { requestsInFlight: [], serverRequestsPending: [], activeTurns: [] };

/** Why no runtime is running, from the supervisor's status. */
export function unavailable(status: RuntimeStatus): RuntimeFault {
  return {
    _tag: 'RuntimeUnavailable',
    reason: status.state === 'failed' ? `it failed and is not restarted any more (${status.reason ?? 'unknown reason'}); switch accounts or restart the executor` : `it is ${status.state}${status.reason === null ? '' : ` (${status.reason})`}`,
    retryable: status.state !== 'failed',
  };
}

/**
 * Starts the first app-server, or adopts `launched`, a process already started with the same options;
 * `policy` overrides the restart policy (default `DEFAULT_RESTART_POLICY`).
 */
export async function startRuntimeSupervisor(options: LocalRuntimeOptions, launched?: LaunchedAppServer, policy?: RestartPolicyConfig): Promise<E.Either<RuntimeFault, RuntimeSupervisor>> {
  let runtime: LocalRuntime | undefined;
  const supervised = await superviseAppServer(
    {
      // Every restart is launched like the first process (the same withheld environment and Codex).
      launch: runtimeLaunchOptions(options),
      connect: runtimeConnectOptions(),
      ...(policy === undefined ? {} : { policy }),
      onServer: (server) => {
        runtime = localRuntimeOf(server, options);
      },
    },
    launched,
  );
  if (E.isLeft(supervised)) return E.left({ _tag: 'AppServerDidNotStart', reason: supervised.left._tag });
  const app: SupervisedAppServer = supervised.right;
  app.onStatus((status) =>
    options.log({ event: `app-server ${status.state}`, fields: { reason: status.reason, pid: status.pid, crashes: status.crashes, retryInMs: status.retryInMs } }),
  );
  const latest = (): LocalRuntime => {
    if (runtime === undefined) throw new Error('the supervisor adopted no process');
    return runtime;
  };
  const ready = (): E.Either<RuntimeFault, LocalRuntime> => (app.current() === null ? E.left(unavailable(app.status())) : E.right(latest()));
  return E.right({
    current: latest,
    ready,
    status: () => app.status(),
    onStatus: (listener) => app.onStatus(listener),
    activity: () => (app.current() === null ? idle : latest().activity.current()),
    restart: async () => {
      const restarted = await app.restart();
      if (E.isLeft(restarted)) return E.left(unavailable(restarted.left.status));
      options.log({ event: 'app-server restarted', fields: { pid: restarted.right.pid } });
      return E.right(latest());
    },
    dispose: () => app.dispose(),
  });
}
