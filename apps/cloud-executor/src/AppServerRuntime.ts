/**
 * The executor's one app-server: started once, restarted with the same options when a committed plugin
 * change cannot be reloaded in place, disposed at the end. A failed restart leaves no process; the next
 * restart tries again.
 */
import * as E from 'fp-ts/lib/Either.js';
import { spawnAppServer, type SpawnedAppServer, type SpawnError } from '@wework/app-server-client/node';
import type { Log } from './Ports.js';

/** Options of {@link startAppServerRuntime}. */
export interface AppServerRuntimeOptions {
  /** `CODEX_HOME` of the app-server (prepared before). */
  readonly codexHome: string;
  /** `HOME` of the app-server. */
  readonly home: string;
  /** Working directory of the app-server. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Log;
}

/** The app-server did not start. */
export interface AppServerDidNotStart {
  readonly _tag: 'AppServerDidNotStart';
  readonly reason: SpawnError['_tag'] | 'ShuttingDown';
}

/** The running app-server, restartable. */
export interface AppServerRuntime {
  /** The running app-server, or `null` after a failed restart. */
  current(): SpawnedAppServer | null;
  /** Stops the app-server (if any) and starts a new one with the same options. */
  restart(): Promise<E.Either<AppServerDidNotStart, SpawnedAppServer>>;
  dispose(): Promise<void>;
}

/** Starts the app-server. */
export async function startAppServerRuntime(options: AppServerRuntimeOptions): Promise<E.Either<AppServerDidNotStart, AppServerRuntime>> {
  const spawn = async (): Promise<E.Either<AppServerDidNotStart, SpawnedAppServer>> => {
    const spawned = await spawnAppServer({ codexHome: options.codexHome, home: options.home, cwd: options.cwd, env: options.env });
    if (E.isLeft(spawned)) {
      options.log({ event: 'app-server did not start', fields: { reason: spawned.left._tag } });
      return E.left({ _tag: 'AppServerDidNotStart', reason: spawned.left._tag });
    }
    options.log({ event: 'app-server started', fields: { pid: spawned.right.pid } });
    return spawned;
  };
  const first = await spawn();
  if (E.isLeft(first)) return first;
  let server: SpawnedAppServer | null = first.right;
  let disposed = false;
  return E.right({
    current: () => server,
    restart: async () => {
      const old = server;
      server = null;
      await old?.dispose();
      if (disposed) return E.left({ _tag: 'AppServerDidNotStart', reason: 'ShuttingDown' });
      const next = await spawn();
      if (E.isLeft(next)) return next;
      if (disposed) {
        await next.right.dispose();
        return E.left({ _tag: 'AppServerDidNotStart', reason: 'ShuttingDown' });
      }
      server = next.right;
      return next;
    },
    dispose: async () => {
      disposed = true;
      const old = server;
      server = null;
      await old?.dispose();
    },
  });
}
