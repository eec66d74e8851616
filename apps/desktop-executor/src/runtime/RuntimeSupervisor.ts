/**
 * Keeps the executor's one local app-server: starts it, tells what it is busy with, and restarts it
 * (after an account switch) with the same options. Tasks keep their thread IDs across a restart: a
 * follow-up resumes the thread on the new process.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ConnectionActivity } from '@wework/app-server-client';
import type { LaunchedAppServer } from '@wework/app-server-client/node/launch';
import { startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions, type RuntimeError } from './LocalRuntime.js';

/** The executor's app-server, restartable. */
export interface RuntimeSupervisor {
  /** The running runtime. */
  current(): LocalRuntime;
  /** What the running app-server connection is busy with. */
  activity(): ConnectionActivity;
  /** Stops the app-server and starts a new one with the same options. */
  restart(): Promise<E.Either<RuntimeError, LocalRuntime>>;
  dispose(): Promise<void>;
}

/** Starts the first app-server, or adopts `launched`, a process already started with the same options. */
export async function startRuntimeSupervisor(options: LocalRuntimeOptions, launched?: LaunchedAppServer): Promise<E.Either<RuntimeError, RuntimeSupervisor>> {
  const first = await startLocalRuntime(options, launched);
  if (E.isLeft(first)) return first;
  let runtime = first.right;
  let disposed = false;
  return E.right({
    current: () => runtime,
    activity: () => runtime.activity.current(),
    restart: async () => {
      await runtime.dispose();
      const next = await startLocalRuntime(options);
      if (E.isLeft(next)) return next;
      if (disposed) {
        await next.right.dispose();
        return E.left({ _tag: 'AppServerDidNotStart', reason: 'the executor is shutting down' });
      }
      runtime = next.right;
      options.log({ event: 'app-server restarted', fields: { pid: runtime.server.pid } });
      return E.right(runtime);
    },
    dispose: async () => {
      disposed = true;
      await runtime.dispose();
    },
  });
}
