/**
 * Starts `codex app-server` as a child process in its own process group, connects an
 * `AppServerClient` to its stdio, performs `initialize`/`initialized`, and tears the whole process
 * tree down on `dispose()`: {@link launchAppServer} followed by {@link connectAppServer}.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { SpawnAppServerOptions, SpawnedAppServer } from './AppServerProcess.js';
import { connectAppServer } from './connectAppServer.js';
import { launchAppServer } from './launchAppServer.js';
import type { SpawnError } from './SpawnError.js';

export type { SpawnAppServerOptions, SpawnedAppServer } from './AppServerProcess.js';

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
