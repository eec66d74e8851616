/**
 * Starts `codex app-server` as a child process in its own process group, without connecting to it:
 * the stderr tail, the exit promise, the last-resort exit guard and the process-tree teardown are in
 * place from the moment it runs. `connect()` then performs `initialize`. Nothing of the client is loaded
 * here: `connect()` loads it (the `./node/launch` entry stays light).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { delimiter } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { nodeTimers } from '@wework/ports/node';
import { ClientError } from '../ClientError.js';
import { withTimeout } from '../internal/Delay.js';
import type { ProcessExited } from '../ClientError.js';
import { guard, release } from './exitGuard.js';
import { codexCommandAt, resolveCodexCommand } from './resolveCodexCommand.js';
import type { SpawnError } from './SpawnError.js';
import { DEFAULT_STDERR_LIMIT_BYTES, StderrTail } from './StderrTail.js';
import { terminateProcessTree } from './terminateProcessTree.js';
import type { LaunchAppServerOptions, LaunchError, LaunchedAppServer, SpawnedAppServer } from './AppServerProcess.js';

export type { ConnectAppServerOptions, LaunchAppServerOptions, LaunchError, LaunchedAppServer } from './AppServerProcess.js';

const DEFAULT_SHUTDOWN_GRACE_MS = 2_000;
/** How long to wait for stderr to drain after the process exited. */
const STDERR_DRAIN_MS = 250;

function childEnv(options: LaunchAppServerOptions, pathPrepend: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
  const path = [...pathPrepend, ...(env[pathKey] === undefined || env[pathKey] === '' ? [] : [env[pathKey]])].join(delimiter);
  if (path !== '') env[pathKey] = path;
  env['CODEX_HOME'] = options.codexHome;
  env['HOME'] = options.home;
  return env;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function started(child: ChildProcessWithoutNullStreams): Promise<E.Either<Error, void>> {
  return new Promise((resolve) => {
    child.once('spawn', () => resolve(E.right(undefined)));
    child.once('error', (error) => resolve(E.left(error)));
  });
}

/**
 * Starts `codex app-server` without connecting to it. `spawnAppServer(options)` is
 * `launchAppServer(options)` followed by `connect(options)`; launching apart lets a host overlap
 * Codex's start-up with its own.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 * import { launchAppServer } from '@wework/app-server-client/node';
 *
 * const launched = await launchAppServer({ codexHome, home: codexHome, env: process.env, cwd: process.cwd() });
 * if (E.isRight(launched)) {
 *   // ... load the rest of the host while Codex boots ...
 *   const spawned = await launched.right.connect();
 *   if (E.isRight(spawned)) await spawned.right.dispose();
 * }
 * ```
 */
export async function launchAppServer(options: LaunchAppServerOptions): Promise<E.Either<LaunchError, LaunchedAppServer>> {
  if (!(await isDirectory(options.codexHome))) return E.left({ _tag: 'CodexHomeMissing', path: options.codexHome });
  const args = options.args ?? ['app-server'];
  let commandLine: string[];
  let pathPrepend: readonly string[] = [];
  if (options.command !== undefined) {
    commandLine = [options.command, ...args];
  } else {
    const resolved = options.codexPath === undefined ? resolveCodexCommand() : E.right(codexCommandAt(options.codexPath));
    if (E.isLeft(resolved)) return resolved;
    commandLine = [resolved.right.command, ...resolved.right.args, ...args];
    pathPrepend = resolved.right.pathPrepend;
  }
  const [program = '', ...programArgs] = commandLine;

  const child = spawn(program, programArgs, {
    cwd: options.cwd,
    env: childEnv(options, pathPrepend),
    // Its own process group, so the whole tree can be signalled (Unix); Windows ends trees with taskkill /T.
    detached: process.platform !== 'win32',
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  // Late stream errors (EPIPE after a crash) are expected; never let them go unhandled.
  for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on('error', () => undefined);
  const spawnResult = await started(child);
  child.on('error', () => undefined);
  if (E.isLeft(spawnResult) || child.pid === undefined) {
    return E.left({ _tag: 'SpawnFailed', command: program, message: E.isLeft(spawnResult) ? spawnResult.left.message : 'no pid' });
  }
  const pid = child.pid;
  guard(pid);
  const timers = options.timers ?? nodeTimers;

  const tail = new StderrTail(options.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT_BYTES);
  const stderrClosed = new Promise<void>((resolve) => child.stderr.once('close', () => resolve()));
  child.stderr.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    options.onStderr?.(chunk.toString('utf8'));
  });

  let disposing = false;
  let cleanup: Promise<void> | undefined;
  const exited = new Promise<ProcessExited>((resolve) => {
    child.once('exit', (code, signalName) => {
      void withTimeout(timers, stderrClosed, STDERR_DRAIN_MS).then(() =>
        resolve(ClientError.processExited(code, signalName, tail.text())),
      );
      if (!disposing) {
        // Unexpected exit: orphans of the group have nothing left to do.
        cleanup = terminateProcessTree(pid, { graceMs: 0, rootExited: true, timers }).then(() => release(pid));
      }
    });
  });

  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    disposed ??= (async () => {
      disposing = true;
      child.stdin.end();
      const alreadyExited = child.exitCode !== null || child.signalCode !== null;
      await (cleanup ??
        terminateProcessTree(pid, { graceMs: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS, rootExited: alreadyExited, timers }));
      await withTimeout(timers, exited, STDERR_DRAIN_MS);
      release(pid);
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
    })();
    return disposed;
  };

  let connection: Promise<E.Either<SpawnError, SpawnedAppServer>> | undefined;
  const launched: LaunchedAppServer = {
    pid,
    commandLine,
    child,
    exited,
    stderrTail: () => tail.text(),
    connect: (connectOptions = {}) => {
      // The client, its connection and the protocol codecs load on the first connect, not with the launch.
      connection ??= import('./connectAppServer.js').then(({ connectAppServer }) => connectAppServer(launched, connectOptions));
      return connection;
    },
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
  return E.right(launched);
}
