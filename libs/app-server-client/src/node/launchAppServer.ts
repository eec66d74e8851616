/**
 * Starts `codex app-server` as a child process in its own process group, without connecting to it:
 * the stderr tail, the exit promise, the last-resort exit guard and the process-tree teardown are in
 * place from the moment it runs. `connect()` then loads the client and performs `initialize`.
 *
 * This module deliberately imports neither the client nor the protocol codecs, so a host can start
 * Codex first and load them while Codex boots in its own process.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { delimiter } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { ClientInfo, InitializeCapabilities, MessageDirection } from '../AppServerClient.js';
import type { JsonRpcMessage } from '../JsonRpcMessage.js';
import { ClientError } from '../ClientError.js';
import type { ProcessExited } from '../ClientError.js';
import { guard, release } from './exitGuard.js';
import { resolveCodexCommand } from './resolveCodexCommand.js';
import type { CodexHomeMissing, CodexNotFound, SpawnError, SpawnFailed } from './SpawnError.js';
import { DEFAULT_STDERR_LIMIT_BYTES, StderrTail } from './StderrTail.js';
import { terminateProcessTree } from './terminateProcessTree.js';
import type { SpawnedAppServer } from './spawnAppServer.js';

/** Options of {@link launchAppServer}: everything about the process, nothing about the connection. */
export interface LaunchAppServerOptions {
  /** `CODEX_HOME` of the child; must be an existing directory. */
  readonly codexHome: string;
  /** `HOME` of the child (the app-server probes `$HOME/.agents/...`). */
  readonly home: string;
  /** The child's base environment (for example `process.env`); CODEX_HOME, HOME and PATH are set on top. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Working directory of the child. */
  readonly cwd: string;
  /** Program to run instead of the `codex` resolved from `@openai/codex`. */
  readonly command?: string;
  /** Arguments to `codex`. Default `['app-server']`. */
  readonly args?: readonly string[];
  /** How many trailing bytes of stderr to keep. Default 64 KiB. */
  readonly stderrLimitBytes?: number;
  /** How long SIGTERM gets before SIGKILL on dispose. Default 2000 ms. */
  readonly shutdownGraceMs?: number;
  /** Receives stderr as it arrives (for live diagnostics). */
  readonly onStderr?: (text: string) => void;
}

/** Options of {@link LaunchedAppServer.connect}: everything about the connection and its handshake. */
export interface ConnectAppServerOptions {
  /** Sent in `initialize`; defaults to the client's own. */
  readonly clientInfo?: ClientInfo;
  /** Sent in `initialize`; defaults to `{ experimentalApi: true }`. */
  readonly capabilities?: InitializeCapabilities;
  /** Longest accepted stdout line. Default 32 MiB. */
  readonly maxLineBytes?: number;
  /** How long `initialize` may take, counted from `connect()`. Default 30 000 ms. */
  readonly initializeTimeoutMs?: number;
  /** The client's default request timeout (see `AppServerClientOptions.requestTimeoutMs`). Default 60 s. */
  readonly requestTimeoutMs?: number;
  /** Per-method request timeouts (see `AppServerClientOptions.requestTimeouts`). */
  readonly requestTimeouts?: Readonly<Record<string, number>>;
  /**
   * A wire tap installed before `initialize`, so it sees every message of the connection both ways,
   * the handshake included (`client.onMessage` subscribes only from the moment it is called).
   */
  readonly onMessage?: (direction: MessageDirection, message: JsonRpcMessage) => void;
}

/** Why {@link launchAppServer} could not start the process. */
export type LaunchError = CodexHomeMissing | CodexNotFound | SpawnFailed;

/** A started app-server process that no client talks to yet. */
export interface LaunchedAppServer {
  /** The child's pid, also its process group id. */
  readonly pid: number;
  /** The program and arguments that were started. */
  readonly commandLine: readonly string[];
  /** The child process itself; its stdout is left unread (and buffered) until `connect()`. */
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited, for whatever reason. */
  readonly exited: Promise<ProcessExited>;
  /** The last bytes of stderr, colour escapes removed. */
  stderrTail(): string;
  /**
   * Loads the client, connects it to the child's stdio and performs `initialize`/`initialized`. On
   * failure the process tree is ended, as by `dispose()`. Connects once: later calls return the first
   * call's result.
   */
  connect(options?: ConnectAppServerOptions): Promise<E.Either<SpawnError, SpawnedAppServer>>;
  /**
   * Ends the process: stdin is closed, the process group gets SIGTERM (SIGKILL after the grace
   * period), descendants that left the group are killed too, and the promise resolves once none of
   * them runs. Safe to call more than once. A connected client is not disposed by this; dispose the
   * {@link SpawnedAppServer} instead.
   */
  dispose(): Promise<void>;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 2_000;
/** How long to wait for stderr to drain after the process exited. */
const STDERR_DRAIN_MS = 250;

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
  });

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
 * import { launchAppServer } from '@wework/app-server-client/node/launch';
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
    const resolved = resolveCodexCommand();
    if (E.isLeft(resolved)) return resolved;
    commandLine = [resolved.right.command, ...resolved.right.args, ...args];
    pathPrepend = resolved.right.pathPrepend;
  }
  const [program = '', ...programArgs] = commandLine;

  const child = spawn(program, programArgs, {
    cwd: options.cwd,
    env: childEnv(options, pathPrepend),
    detached: true,
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
      void Promise.race([stderrClosed, sleep(STDERR_DRAIN_MS)]).then(() =>
        resolve(ClientError.processExited(code, signalName, tail.text())),
      );
      if (!disposing) {
        // Unexpected exit: orphans of the group have nothing left to do.
        cleanup = terminateProcessTree(pid, { graceMs: 0, rootExited: true }).then(() => release(pid));
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
        terminateProcessTree(pid, { graceMs: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS, rootExited: alreadyExited }));
      await Promise.race([exited, sleep(STDERR_DRAIN_MS)]);
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
      // The client and the protocol codecs load only now, while the process may still be booting.
      connection ??= import('./connectAppServer.js').then(({ connectAppServer }) => connectAppServer(launched, connectOptions));
      return connection;
    },
    dispose,
  };
  return E.right(launched);
}
