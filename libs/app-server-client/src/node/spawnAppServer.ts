/**
 * Starts `codex app-server` as a child process in its own process group, connects an
 * `AppServerClient` to its stdio, performs `initialize`/`initialized`, and tears the whole process
 * tree down on `dispose()`.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { delimiter } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { createAppServerClient } from '../AppServerClient.js';
import type { AppServerClient, ClientInfo, InitializeCapabilities, InitializeResult, MessageDirection } from '../AppServerClient.js';
import type { JsonRpcMessage } from '../JsonRpcMessage.js';
import { ClientError } from '../ClientError.js';
import type { ProcessExited } from '../ClientError.js';
import { guard, release } from './exitGuard.js';
import { resolveCodexCommand } from './resolveCodexCommand.js';
import type { SpawnError } from './SpawnError.js';
import { DEFAULT_STDERR_LIMIT_BYTES, StderrTail } from './StderrTail.js';
import { terminateProcessTree } from './terminateProcessTree.js';

/** Options of {@link spawnAppServer}. */
export interface SpawnAppServerOptions {
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
  /** Sent in `initialize`; defaults to the client's own. */
  readonly clientInfo?: ClientInfo;
  /** Sent in `initialize`; defaults to `{ experimentalApi: true }`. */
  readonly capabilities?: InitializeCapabilities;
  /** How many trailing bytes of stderr to keep. Default 64 KiB. */
  readonly stderrLimitBytes?: number;
  /** Longest accepted stdout line. Default 32 MiB. */
  readonly maxLineBytes?: number;
  /** How long `initialize` may take. Default 30 000 ms. */
  readonly initializeTimeoutMs?: number;
  /** How long SIGTERM gets before SIGKILL on dispose. Default 2000 ms. */
  readonly shutdownGraceMs?: number;
  /** Receives stderr as it arrives (for live diagnostics). */
  readonly onStderr?: (text: string) => void;
  /**
   * A wire tap installed before `initialize`, so it sees every message of the connection both ways,
   * the handshake included (`client.onMessage` subscribes only from the moment it is called).
   */
  readonly onMessage?: (direction: MessageDirection, message: JsonRpcMessage) => void;
}

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

const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 2_000;
/** How long to wait for stderr to drain after the process exited. */
const STDERR_DRAIN_MS = 250;

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
  });

function childEnv(options: SpawnAppServerOptions, pathPrepend: readonly string[]): Record<string, string> {
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

  const client = createAppServerClient({
    input: child.stdout,
    output: child.stdin,
    peerExit: exited,
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
  });
  if (options.onMessage !== undefined) client.onMessage(options.onMessage);

  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    disposed ??= (async () => {
      disposing = true;
      client.dispose();
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

  const timeoutMs = options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  const timedOut = 'timed out' as const;
  const init = await Promise.race([
    client.initialize({
      ...(options.clientInfo === undefined ? {} : { clientInfo: options.clientInfo }),
      ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities }),
    }),
    sleep(timeoutMs).then((): typeof timedOut => timedOut),
  ]);
  if (init === timedOut || E.isLeft(init)) {
    await dispose();
    return E.left(
      init === timedOut
        ? { _tag: 'InitializeTimedOut', timeoutMs, stderrTail: tail.text() }
        : { _tag: 'InitializeFailed', error: init.left, stderrTail: tail.text() },
    );
  }

  return E.right({
    client,
    initializeResult: init.right,
    pid,
    commandLine,
    child,
    exited,
    stderrTail: () => tail.text(),
    dispose,
  });
}
