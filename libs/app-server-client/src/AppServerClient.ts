/**
 * A typed JSON-RPC client for `codex app-server` over any pair of byte streams. Requests, notifications
 * and server requests are described by `@wework/codex-protocol` descriptors: params are encoded and
 * results decoded with their io-ts codecs, and every failure is a `ClientError` value.
 */
import type { Readable, Writable } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import type {
  AnyClientNotification,
  AnyClientRequest,
  AnyServerNotification,
  AnyServerRequest,
  ParamsOf,
  ResultOf,
} from '@wework/codex-protocol';
import { Initialize, Initialized } from '@wework/codex-protocol';
import type { JsonRpcId, JsonRpcMessage } from './JsonRpcMessage.js';
import type { ClientError, ProcessExited, TerminalError } from './ClientError.js';
import type { ClientEvent } from './ClientEvent.js';
import type { Disposable } from './internal/ListenerSet.js';
import { Connection } from './internal/Connection.js';

export type { Disposable } from './internal/ListenerSet.js';

/** Which way a message travelled: `incoming` from the app-server, `outgoing` to it. */
export type MessageDirection = 'incoming' | 'outgoing';

/** A notification as it arrived, before any decoding. */
export interface RawNotification {
  readonly method: string;
  readonly params: unknown;
}

/** What a server request handler learns about the request besides its params. */
export interface ServerRequestContext {
  /** The request id; the app-server's `serverRequest/resolved` notification refers to it. */
  readonly id: JsonRpcId | null;
  readonly method: string;
}

/** The error a server request handler answers with. `code` defaults to `-32603` (internal error). */
export interface ReplyError {
  readonly code?: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * Answers one kind of server request: `Right(result)` becomes the reply's result (encoded with the
 * descriptor's result codec), `Left(error)` an error reply. A handler that throws or rejects gets an
 * internal-error reply, never an unhandled rejection.
 */
export type ServerRequestHandler<D extends AnyServerRequest> = (
  params: ParamsOf<D>,
  context: ServerRequestContext,
) => E.Either<ReplyError, ResultOf<D>> | Promise<E.Either<ReplyError, ResultOf<D>>>;

/** Options of {@link createAppServerClient}. */
export interface AppServerClientOptions {
  /** Bytes from the app-server (a child process' stdout). */
  readonly input: Readable;
  /** Bytes to the app-server (a child process' stdin). */
  readonly output: Writable;
  /** Longest accepted line in bytes; longer lines are skipped with a `LineTooLong` event. Default 32 MiB. */
  readonly maxLineBytes?: number;
  /**
   * Resolves when the app-server process has exited. When given, pending requests resolve with this
   * `ProcessExited` rather than `ConnectionClosed` (the client waits up to `closeGraceMs` for it once the
   * input ends, and for the input to end once the process exited).
   */
  readonly peerExit?: Promise<ProcessExited>;
  /** How long to wait for the second of "input ended" and "process exited". Default 1000 ms. */
  readonly closeGraceMs?: number;
  /**
   * How long a request may wait for its reply before it resolves `Left(RequestTimedOut)` (and a
   * `RequestAbandoned` event is raised). Default `DEFAULT_REQUEST_TIMEOUT_MS` (60 s).
   */
  readonly requestTimeoutMs?: number;
  /** Per-method timeouts that override `requestTimeoutMs`, e.g. `{ 'thread/resume': 120_000 }`. */
  readonly requestTimeouts?: Readonly<Record<string, number>>;
}

/** The default timeout of a request to the app-server: 60 s. */
export { DEFAULT_REQUEST_TIMEOUT_MS } from './internal/Connection.js';

/** The client's identity, sent in `initialize`. */
export type ClientInfo = ParamsOf<typeof Initialize>['clientInfo'];
/** The capabilities sent in `initialize`. */
export type InitializeCapabilities = ParamsOf<typeof Initialize>['capabilities'];
/** The app-server's answer to `initialize`. */
export type InitializeResult = ResultOf<typeof Initialize>;

/** Options of {@link AppServerClient.initialize}. */
export interface InitializeOptions {
  /** Defaults to {@link DEFAULT_CLIENT_INFO}. */
  readonly clientInfo?: ClientInfo;
  /** Defaults to {@link DEFAULT_CAPABILITIES} (`experimentalApi: true`); `null` sends none. */
  readonly capabilities?: InitializeCapabilities;
}

/** The `clientInfo` sent by default. */
export const DEFAULT_CLIENT_INFO: ClientInfo = {
  name: 'wework_app_server_client',
  title: 'Wework app-server client',
  version: '0.1.0',
};

/** The capabilities sent by default: the experimental API, which `thread/start.permissions` and granular approval need. */
export const DEFAULT_CAPABILITIES: InitializeCapabilities = { experimentalApi: true, requestAttestation: false };

/** A typed client of one app-server connection. */
export interface AppServerClient {
  /**
   * Sends `initialize` (with `clientInfo` and `capabilities: { experimentalApi: true }` unless given),
   * then the `initialized` notification.
   */
  initialize(options?: InitializeOptions): Promise<E.Either<ClientError, InitializeResult>>;
  /** Sends a request; resolves with its decoded result or a `ClientError`. Never rejects. */
  request<D extends AnyClientRequest>(descriptor: D, params: ParamsOf<D>): Promise<E.Either<ClientError, ResultOf<D>>>;
  /** Sends a notification; resolves once written. Never rejects. */
  notify<D extends AnyClientNotification>(descriptor: D, params: ParamsOf<D>): Promise<E.Either<ClientError, void>>;
  /**
   * Answers server requests of one method. Params are decoded first: invalid params get a `-32602`
   * reply and a `ServerRequestRejected` event; a method without a handler gets `-32601`. The latest
   * handler of a method wins; disposing it removes it.
   */
  onServerRequest<D extends AnyServerRequest>(descriptor: D, handler: ServerRequestHandler<D>): Disposable;
  /**
   * Subscribes to one notification, decoded with the descriptor. Params that do not decode skip the
   * listener and raise an `InvalidNotification` event.
   */
  on<D extends AnyServerNotification>(descriptor: D, listener: (params: ParamsOf<D>) => void): Disposable;
  /** Subscribes to every notification, known or not, undecoded. */
  onAnyNotification(listener: (notification: RawNotification) => void): Disposable;
  /** Subscribes to transport errors and to events about rejected or undeliverable messages. */
  onEvent(listener: (event: ClientEvent) => void): Disposable;
  /** A wire tap: every message, both ways, as decoded from or written to the stream. */
  onMessage(listener: (direction: MessageDirection, message: JsonRpcMessage) => void): Disposable;
  /** Resolves once the client has ended, with the reason. */
  readonly closed: Promise<TerminalError>;
  /** The reason the client ended, or undefined while it is open. */
  readonly terminalError: TerminalError | undefined;
  /** Ends the client: pending requests resolve `Left(Disposed)`. The streams are left open. */
  dispose(): void;
}

/**
 * Creates a client over a pair of streams and starts reading. Works in-process (over `PassThrough`
 * streams) as well as over a child process' stdio (see `spawnAppServer` in `./node`).
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process';
 * import * as E from 'fp-ts/lib/Either.js';
 * import { ModelList } from '@wework/codex-protocol';
 * import { createAppServerClient } from '@wework/app-server-client';
 *
 * const child = spawn('codex', ['app-server'], { stdio: ['pipe', 'pipe', 'inherit'] });
 * const client = createAppServerClient({ input: child.stdout, output: child.stdin });
 * const init = await client.initialize();
 * if (E.isRight(init)) {
 *   const models = await client.request(ModelList, { includeHidden: false });
 * }
 * client.dispose();
 * ```
 */
export function createAppServerClient(options: AppServerClientOptions): AppServerClient {
  const connection = new Connection(options);
  return {
    initialize: async (init = {}) => {
      const params: ParamsOf<typeof Initialize> = {
        clientInfo: init.clientInfo ?? DEFAULT_CLIENT_INFO,
        capabilities: init.capabilities === undefined ? DEFAULT_CAPABILITIES : init.capabilities,
      };
      const result = await connection.request(Initialize, params);
      if (E.isLeft(result)) return result;
      const sent = await connection.notify(Initialized, undefined);
      return E.isLeft(sent) ? sent : result;
    },
    request: (descriptor, params) => connection.request(descriptor, params),
    notify: (descriptor, params) => connection.notify(descriptor, params),
    onServerRequest: (descriptor, handler) => connection.onServerRequest(descriptor, handler),
    on: (descriptor, listener) => connection.onNotification(descriptor, listener),
    onAnyNotification: (listener) => connection.onAnyNotification(listener),
    onEvent: (listener) => connection.onEvent(listener),
    onMessage: (listener) => connection.onMessage(listener),
    closed: connection.closed,
    get terminalError() {
      return connection.terminalError;
    },
    dispose: () => connection.dispose(),
  };
}
