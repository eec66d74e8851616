/**
 * Starts `codex app-server` as a child process in its own process group, connects an
 * `AppServerClient` to its stdio, performs `initialize`/`initialized`, and tears the whole process
 * tree down on `dispose()`: {@link launchAppServer} followed by {@link connectAppServer}.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as E from 'fp-ts/lib/Either.js';
import type { AppServerClient, InitializeResult } from '../AppServerClient.js';
import type { ProcessExited } from '../ClientError.js';
import { connectAppServer } from './connectAppServer.js';
import { launchAppServer } from './launchAppServer.js';
import type { ConnectAppServerOptions, LaunchAppServerOptions } from './launchAppServer.js';
import type { SpawnError } from './SpawnError.js';

/** Options of {@link spawnAppServer}: those of the process and those of the connection. */
export interface SpawnAppServerOptions extends LaunchAppServerOptions, ConnectAppServerOptions {}

/** A running, initialized app-server. */
export interface SpawnedAppServer {
  /** The connected, initialized client. */
  readonly client: AppServerClient;
  /** The app-server's answer to `initialize`. */
  readonly initializeResult: InitializeResult;
  /** The child's pid, also its process group id. */
  readonly pid: number;
  /** The program and arguments that were started. */
  readonly commandLine: readonly string[];
  /** The child process itself, for diagnostics (for example writing raw bytes to its stdin). */
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited, for whatever reason. */
  readonly exited: Promise<ProcessExited>;
  /** The last bytes of stderr, colour escapes removed. */
  stderrTail(): string;
  /**
   * Ends everything: pending requests resolve `Left(Disposed)`, stdin is closed, the process group gets
   * SIGTERM (SIGKILL after the grace period), descendants that left the group are killed too, and the
   * promise resolves once none of them runs. Safe to call more than once.
   */
  dispose(): Promise<void>;
}

/**
 * Spawns and initializes `codex app-server`.
 *
 * @example
 * ```ts
 * import { mkdtemp } from 'node:fs/promises';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import * as E from 'fp-ts/lib/Either.js';
 * import { spawnAppServer } from '@wework/app-server-client/node';
 *
 * const codexHome = await mkdtemp(join(tmpdir(), 'codex-home-'));
 * const spawned = await spawnAppServer({ codexHome, home: codexHome, env: process.env, cwd: process.cwd() });
 * if (E.isRight(spawned)) {
 *   console.log(spawned.right.initializeResult.userAgent);
 *   await spawned.right.dispose();
 * }
 * ```
 */
export async function spawnAppServer(options: SpawnAppServerOptions): Promise<E.Either<SpawnError, SpawnedAppServer>> {
  const launched = await launchAppServer(options);
  if (E.isLeft(launched)) return launched;
  return connectAppServer(launched.right, options);
}
