/**
 * Starts the desktop executor's serve entry (`dist/serve.js` of `@wework/desktop-executor`, run with
 * this Node) and connects a {@link HostClient} to it: over stdio, or over its loopback WebSocket with
 * the launch token it announces on stdout (`--ws`). The serve flags are typed options; the executor's
 * log (stderr) is handed over line by line and its tail kept, bounded, for diagnostics. Stopping closes
 * stdin, then sends SIGTERM, then SIGKILL, each wait bounded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { createLineSplitter } from '@wework/jsonrpc';
import { createHostClient, type HostClient, type HostClientOptions } from '../Client.js';
import type { ConnectError } from '../Transport.js';
import { stdioTransport } from './stdio.js';
import { nodeWebSocketTransport, type NodeWebSocketOptions } from './webSocket.js';

/** Options of {@link spawnExecutor}: the serve flags as values, the process's environment, and the client's options. */
export interface SpawnExecutorOptions {
  /** `--stdio` or `--ws`. */
  readonly transport: 'stdio' | 'websocket';
  /** `--executor-home`: the executor's directory (its Codex home is its `codex` child). */
  readonly executorHome?: string;
  /** `--workspace`: the workspace of threads whose task names none. */
  readonly workspace?: string;
  /** `--wait-for-plugin` (each): MCP servers to wait for before a thread's first turn. */
  readonly waitForPlugins?: ReadonlyArray<string>;
  /** `--bundled-plugin` (each): the desktop app's bundled plugin package directories. */
  readonly bundledPlugins?: ReadonlyArray<string>;
  /** `--migrate-config`: the user's first-start answer. */
  readonly migrateConfig?: 'fresh' | 'native';
  /** `--remote-apps`: the user's first-start answer. */
  readonly remoteApps?: 'on' | 'off';
  /** `--codex`: the Codex to run instead of the installed one. */
  readonly codexPath?: string;
  /** `--require-supported-codex`. */
  readonly requireSupportedCodex?: boolean;
  /** `--log-format`. */
  readonly logFormat?: 'text' | 'json';
  /** `--port` (WebSocket only; default any free port). */
  readonly port?: number;
  /** `--allow-origin` (each; WebSocket only). */
  readonly allowOrigins?: ReadonlyArray<string>;
  /** The executor's environment; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `HOME` of the executor and its app-server (default: that of `env`). */
  readonly userHome?: string;
  /** The serve entry; default the installed `@wework/desktop-executor`'s `dist/serve.js`. */
  readonly servePath?: string;
  /** Each line the executor writes to stderr (its log), as it comes. */
  readonly onStderrLine?: (line: string) => void;
  /** How much of the log {@link ExecutorProcess.stderr} keeps (the newest; default 4 Mi characters). */
  readonly stderrMaxChars?: number;
  /** How long the executor may take to announce its WebSocket, and the client to connect (default 60 s). */
  readonly startTimeoutMs?: number;
  /** How long each step of stopping waits (default 5 s). */
  readonly stopStepMs?: number;
  /** The client's options (the transport is the process's). */
  readonly client?: Omit<HostClientOptions, 'connect'>;
  /** The WebSocket's bounds. */
  readonly webSocket?: NodeWebSocketOptions;
}

/** How the executor ended. */
export interface ExecutorExit {
  readonly code: number | null;
  readonly signal: string | null;
}

/** A running executor and the client connected to it. */
export interface ExecutorProcess {
  readonly pid: number;
  readonly client: HostClient;
  /** The WebSocket endpoint (port and launch token) when connected over WebSocket. */
  readonly endpoint: { readonly port: number; readonly token: string } | null;
  /** The newest part of the executor's log (bounded). */
  stderr(): string;
  /** Resolves when the process ended. */
  readonly exited: Promise<ExecutorExit>;
  /** Closes the client and stops the executor (stdin closed, then SIGTERM, then SIGKILL); resolves once it ended. */
  stop(): Promise<ExecutorExit>;
}

/** Why the executor could not be started and connected. */
export type SpawnError =
  | { readonly _tag: 'ServeEntryNotFound'; readonly message: string }
  | { readonly _tag: 'SpawnFailed' | 'StartTimedOut' | 'InvalidAnnouncement'; readonly message: string; readonly stderrTail: string }
  | { readonly _tag: 'ExitedBeforeReady'; readonly message: string; readonly exit: ExecutorExit; readonly stderrTail: string }
  | (ConnectError & { readonly stderrTail: string });

const Announcement = t.type({ port: t.number, token: t.string });

/** The serve entry of the installed `@wework/desktop-executor`, or `null` when it is not installed (or not built). */
export function defaultServePath(): string | null {
  try {
    const path = join(dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json')), 'dist', 'serve.js');
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** The serve flags of `options`. */
export function serveArguments(options: SpawnExecutorOptions): string[] {
  const args = [options.transport === 'stdio' ? '--stdio' : '--ws'];
  const add = (flag: string, value: string | undefined): void => void (value === undefined ? undefined : args.push(flag, value));
  add('--executor-home', options.executorHome);
  add('--workspace', options.workspace);
  for (const name of options.waitForPlugins ?? []) add('--wait-for-plugin', name);
  for (const dir of options.bundledPlugins ?? []) add('--bundled-plugin', dir);
  add('--migrate-config', options.migrateConfig);
  add('--remote-apps', options.remoteApps);
  add('--codex', options.codexPath);
  if (options.requireSupportedCodex === true) args.push('--require-supported-codex');
  add('--log-format', options.logFormat);
  if (options.transport === 'websocket') {
    add('--port', options.port === undefined ? undefined : String(options.port));
    for (const origin of options.allowOrigins ?? []) add('--allow-origin', origin);
  }
  return args;
}

/** Keeps the newest lines of a log within `maxChars`. */
function boundedLog(maxChars: number): { add(line: string): void; text(): string } {
  const lines: string[] = [];
  let size = 0;
  return {
    add: (line) => {
      const kept = line.length > maxChars ? line.slice(-maxChars) : line;
      lines.push(kept);
      size += kept.length + 1;
      while (size > maxChars && lines.length > 1) size -= (lines.shift() as string).length + 1;
    },
    text: () => lines.join('\n'),
  };
}

const waitForExit = (exited: Promise<ExecutorExit>, child: ChildProcessWithoutNullStreams, ms: number): Promise<boolean> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(true)
    : new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        void exited.then(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });

/**
 * Starts the executor and connects to it.
 * @example
 * ```ts
 * const started = await spawnExecutor({ transport: 'stdio', executorHome, workspace, userHome });
 * if (E.isLeft(started)) throw new Error(started.left.message);
 * const { client } = started.right;
 * await client.request('executor/info', {});
 * await started.right.stop();
 * ```
 */
export async function spawnExecutor(options: SpawnExecutorOptions): Promise<E.Either<SpawnError, ExecutorProcess>> {
  const servePath = options.servePath ?? defaultServePath();
  if (servePath === null) return E.left({ _tag: 'ServeEntryNotFound', message: 'the desktop executor is not installed or not built (@wework/desktop-executor dist/serve.js)' });
  const env = { ...(options.env ?? process.env), ...(options.userHome === undefined ? {} : { HOME: options.userHome }) };
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(process.execPath, [servePath, ...serveArguments(options)], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch {
    return E.left({ _tag: 'SpawnFailed', message: 'the executor could not be started', stderrTail: '' });
  }
  const log = boundedLog(options.stderrMaxChars ?? 4 * 1024 * 1024);
  const stderrLines = createLineSplitter({ maxLineBytes: 1024 * 1024 });
  const decoder = new TextDecoder();
  child.stderr.on('data', (chunk: Buffer) => {
    for (const frame of stderrLines.push(chunk)) {
      if (frame._tag !== 'Line') continue;
      const line = decoder.decode(frame.bytes);
      log.add(line);
      try {
        options.onStderrLine?.(line);
      } catch {
        // The callback is the host's; the log goes on.
      }
    }
  });
  child.stdin.on('error', () => undefined);
  const exited = new Promise<ExecutorExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const spawnFailed = new Promise<void>((resolve) => child.once('error', () => resolve()));
  const stepMs = options.stopStepMs ?? 5_000;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;

  const kill = async (client: HostClient | null): Promise<ExecutorExit> => {
    await client?.close();
    child.stdin.end();
    if (options.transport === 'stdio' && (await waitForExit(exited, child, stepMs))) return exited;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    if (await waitForExit(exited, child, stepMs)) return exited;
    child.kill('SIGKILL');
    await waitForExit(exited, child, stepMs);
    return { code: child.exitCode, signal: child.signalCode };
  };

  let endpoint: { port: number; token: string } | null = null;
  let client: HostClient;
  if (options.transport === 'stdio') {
    client = createHostClient({ reconnect: false, ...options.client, connect: stdioTransport(child.stdout, child.stdin) });
  } else {
    const announced = await announcement(child, exited, spawnFailed, startTimeoutMs);
    if (E.isLeft(announced)) {
      await kill(null);
      return E.left({ ...announced.left, stderrTail: log.text() });
    }
    endpoint = announced.right;
    // Whatever else the executor prints is read and dropped, so its stdout never fills.
    child.stdout.on('data', () => undefined);
    client = createHostClient({ connectTimeoutMs: startTimeoutMs, ...options.client, connect: nodeWebSocketTransport(endpoint.port, endpoint.token, options.webSocket) });
  }
  void exited.then(() => client.close());
  const started = await Promise.race([
    client.start(),
    exited.then((exit) => ({ exit })),
  ]);
  if ('exit' in started) {
    await kill(client);
    return E.left({ _tag: 'ExitedBeforeReady', message: `the executor exited (code ${started.exit.code}, signal ${started.exit.signal})`, exit: started.exit, stderrTail: log.text() });
  }
  if (E.isLeft(started)) {
    await kill(client);
    return E.left({ ...started.left, stderrTail: log.text() });
  }
  let stopping: Promise<ExecutorExit> | null = null;
  return E.right({
    pid: child.pid ?? -1,
    client,
    endpoint,
    stderr: () => log.text(),
    exited,
    stop: () => (stopping ??= kill(client)),
  });
}

/** Why the executor announced no WebSocket. */
type AnnouncementError =
  | { readonly _tag: 'InvalidAnnouncement' | 'StartTimedOut' | 'SpawnFailed'; readonly message: string }
  | { readonly _tag: 'ExitedBeforeReady'; readonly message: string; readonly exit: ExecutorExit };

/** The first stdout line of `--ws`: `{ port, token }`, within the timeout. */
function announcement(
  child: ChildProcessWithoutNullStreams,
  exited: Promise<ExecutorExit>,
  spawnFailed: Promise<void>,
  timeoutMs: number,
): Promise<E.Either<AnnouncementError, { port: number; token: string }>> {
  return new Promise((resolve) => {
    const lines = createLineSplitter({ maxLineBytes: 64 * 1024 });
    let done = false;
    const finish = (result: E.Either<AnnouncementError, { port: number; token: string }>): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      for (const frame of lines.push(chunk)) {
        if (frame._tag !== 'Line') return finish(E.left({ _tag: 'InvalidAnnouncement', message: 'the executor announced its WebSocket on a line over the bound' }));
        let json: unknown;
        try {
          json = JSON.parse(new TextDecoder().decode(frame.bytes));
        } catch {
          return finish(E.left({ _tag: 'InvalidAnnouncement', message: 'the executor’s first line is not JSON' }));
        }
        const decoded = Announcement.decode(json);
        return finish(E.isRight(decoded) ? E.right({ port: decoded.right.port, token: decoded.right.token }) : E.left({ _tag: 'InvalidAnnouncement', message: 'the executor’s first line is not { port, token }' }));
      }
    };
    const timer = setTimeout(() => finish(E.left({ _tag: 'StartTimedOut', message: `the executor did not listen within ${timeoutMs} ms` })), timeoutMs);
    child.stdout.on('data', onData);
    void exited.then((exit) => finish(E.left({ _tag: 'ExitedBeforeReady', message: `the executor exited before listening (code ${exit.code}, signal ${exit.signal})`, exit })));
    void spawnFailed.then(() => finish(E.left({ _tag: 'SpawnFailed', message: 'the executor could not be started' })));
  });
}

/**
 * Connects to an executor that is already running with `--ws`, on `port` with its launch `token`.
 * @example
 * ```ts
 * const connected = await connectExecutorWebSocket(43117, token);
 * if (E.isRight(connected)) await connected.right.request('executor/info', {});
 * ```
 */
export async function connectExecutorWebSocket(
  port: number,
  token: string,
  options: Omit<HostClientOptions, 'connect'> & { readonly webSocket?: NodeWebSocketOptions } = {},
): Promise<E.Either<ConnectError, HostClient>> {
  const { webSocket, ...clientOptions } = options;
  const client = createHostClient({ ...clientOptions, connect: nodeWebSocketTransport(port, token, webSocket) });
  const started = await client.start();
  if (E.isLeft(started)) {
    await client.close();
    return started;
  }
  return E.right(client);
}
