/**
 * The shapes of an app-server process: the options of launching and of connecting, a launched
 * process no client talks to yet, and a spawned (connected, initialized) one. Types only, so the
 * modules that launch, connect and spawn depend on this one and not on each other.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type * as E from 'fp-ts/lib/Either.js';
import type { AppServerClient, ClientInfo, InitializeCapabilities, InitializeResult } from '../AppServerClient.js';
import type { MessageDirection } from '../ClientContract.js';
import type { JsonRpcMessage } from '@wework/jsonrpc';
import type { Timers } from '@wework/ports';
import type { ProcessExited } from '../ClientError.js';
import type { CodexHomeMissing, CodexNotFound, SpawnError, SpawnFailed } from './SpawnError.js';

/** Options of `launchAppServer`: everything about the process, nothing about the connection. */
export interface LaunchAppServerOptions {
  /** `CODEX_HOME` of the child; must be an existing directory. */
  readonly codexHome: string;
  /** `HOME` of the child (the app-server probes `$HOME/.agents/...`). */
  readonly home: string;
  /** The child's base environment (for example `process.env`); CODEX_HOME, HOME and PATH are set on top. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Working directory of the child. */
  readonly cwd: string;
  /** Program to run instead of the `codex` resolved from `@openai/codex` (runs with `args` only). */
  readonly command?: string;
  /**
   * A Codex the host ships, instead of the installed `@openai/codex`: its native binary, or an npm wrapper
   * script (`….js`, run with this Node). Ignored when `command` is given. Check its version with
   * `checkCodexVersion(initializeResult.userAgent)`.
   */
  readonly codexPath?: string;
  /** Arguments to `codex`. Default `['app-server']`. */
  readonly args?: readonly string[];
  /** How many trailing bytes of stderr to keep. Default 64 KiB. */
  readonly stderrLimitBytes?: number;
  /** How long SIGTERM gets before SIGKILL on dispose. Default 2000 ms. */
  readonly shutdownGraceMs?: number;
  /** Receives stderr as it arrives (for live diagnostics). */
  readonly onStderr?: (text: string) => void;
  /** The clock and sleeps of the process's waits (its shutdown, stderr's drain). Default `nodeTimers` of `@wework/ports/node`. */
  readonly timers?: Timers;
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
  /** The clock and sleeps of the handshake's waits and of the client (see `AppServerClientOptions.timers`). Default `nodeTimers` of `@wework/ports/node`. */
  readonly timers?: Timers;
}

/** Why `launchAppServer` could not start the process. */
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
  /** `dispose()`, for `await using launched = ...`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of `spawnAppServer`: those of the process and those of the connection. */
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
  /** `dispose()`, for `await using server = await ...` (unwrapped from its `Either`). */
  [Symbol.asyncDispose](): Promise<void>;
}
