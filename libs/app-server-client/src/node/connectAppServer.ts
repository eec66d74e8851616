/**
 * Connects an `AppServerClient` to a launched app-server's stdio and performs
 * `initialize`/`initialized`; the connected server's `dispose()` ends the client, then the process
 * tree. `LaunchedAppServer.connect()` loads this module on demand.
 */
import * as E from 'fp-ts/lib/Either.js';
import { nodeTimers } from '@wework/ports/node';
import { createAppServerClient } from '../AppServerClient.js';
import { withTimeout } from '../internal/Delay.js';
import type { ConnectAppServerOptions, LaunchedAppServer, SpawnedAppServer } from './AppServerProcess.js';
import type { SpawnError } from './SpawnError.js';

const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
/** How long a failed handshake waits for the process's exit, to report that rather than the transport's symptom. */
const EXIT_AFTER_FAILED_HANDSHAKE_MS = 2_000;

/**
 * Connects to a launched app-server and initializes it. On failure the process tree is ended.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 * import { launchAppServer } from '@wework/app-server-client/node';
 *
 * const launched = await launchAppServer({ codexHome, home: codexHome, env: process.env, cwd: process.cwd() });
 * const spawned = E.isRight(launched) ? await launched.right.connect({ initializeTimeoutMs: 10_000 }) : launched;
 * ```
 */
export async function connectAppServer(launched: LaunchedAppServer, options: ConnectAppServerOptions = {}): Promise<E.Either<SpawnError, SpawnedAppServer>> {
  const { child } = launched;
  const timers = options.timers ?? nodeTimers;
  const client = createAppServerClient({
    timers,
    input: child.stdout,
    output: child.stdin,
    peerExit: launched.exited,
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.requestTimeouts === undefined ? {} : { requestTimeouts: options.requestTimeouts }),
  });
  if (options.onMessage !== undefined) client.onMessage(options.onMessage);

  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    disposed ??= (() => {
      client.dispose();
      return launched.dispose();
    })();
    return disposed;
  };

  const timeoutMs = options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  const timedOut = 'timed out' as const;
  const init =
    (await withTimeout(
      timers,
      client.initialize({
        ...(options.clientInfo === undefined ? {} : { clientInfo: options.clientInfo }),
        ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities }),
      }),
      timeoutMs,
    )) ?? timedOut;
  if (init === timedOut || E.isLeft(init)) {
    // A process that exits at once can fail the handshake first as a write error (EPIPE) or a closed
    // connection; what the host needs is the exit, so it is waited for a moment and reported instead.
    const exit = init === timedOut || init.left._tag === 'ProcessExited' ? undefined : await withTimeout(timers, launched.exited, EXIT_AFTER_FAILED_HANDSHAKE_MS);
    await dispose();
    return E.left(
      init === timedOut
        ? { _tag: 'InitializeTimedOut', timeoutMs, stderrTail: launched.stderrTail() }
        : { _tag: 'InitializeFailed', error: exit ?? init.left, stderrTail: launched.stderrTail() },
    );
  }

  return E.right({
    client,
    initializeResult: init.right,
    pid: launched.pid,
    commandLine: launched.commandLine,
    child,
    exited: launched.exited,
    stderrTail: launched.stderrTail,
    dispose,
    [Symbol.asyncDispose]: dispose,
  });
}
