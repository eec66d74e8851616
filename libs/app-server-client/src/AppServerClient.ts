/**
 * A typed JSON-RPC client for `codex app-server` over any pair of byte streams. Requests, notifications
 * and server requests are described by `@wework/codex-protocol` descriptors: params are encoded and
 * results decoded with their io-ts codecs, and every failure is a `ClientError` value.
 */
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
import type { JsonRpcMessage } from '@wework/jsonrpc';
import type { Timers } from '@wework/ports';
import type { ClientError, TerminalError } from './ClientError.js';
import type { ClientEvent } from './ClientEvent.js';
import type {
  AppServerClientOptions,
  MessageDirection,
  NotificationStreamOptions,
  RawNotification,
  RequestErrorOf,
  RequestOptions,
  ServerRequestHandler,
} from './ClientContract.js';
import type { Disposable } from './internal/ListenerSet.js';
import { Connection } from './internal/Connection.js';
import { PACKAGE_VERSION } from './generated/packageVersion.js';


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

/** The `clientInfo` sent by default; `version` is this package's (written from its package.json by the build). */
export const DEFAULT_CLIENT_INFO: ClientInfo = {
  name: 'wework_app_server_client',
  title: 'Wework app-server client',
  version: PACKAGE_VERSION,
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
  /**
   * Sends a request; resolves with its decoded result or a `ClientError`. Never rejects. With a
   * `signal`, aborting it sends `$/cancelRequest` and resolves `Left(RequestAborted)` at once.
   *
   * @example
   * ```ts
   * const controller = new AbortController();
   * const models = client.request(ModelList, { includeHidden: false }, { signal: controller.signal });
   * controller.abort(); // resolves Left({ _tag: 'RequestAborted', method: 'model/list' })
   * ```
   */
  request<D extends AnyClientRequest, O extends RequestOptions = Record<never, never>>(
    descriptor: D,
    params: ParamsOf<D>,
    options?: O,
  ): Promise<E.Either<RequestErrorOf<O>, ResultOf<D>>>;
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
  /**
   * The notifications of one method, decoded as by {@link AppServerClient.on} (or, without a
   * descriptor, every notification undecoded, as by `onAnyNotification`), as an async iterable that
   * starts at the call and ends when the client ends (after what it had buffered), when `signal`
   * aborts, or when the loop breaks. A slow consumer never holds more than `bufferSize` (default 1024)
   * notifications: past that the oldest is dropped and a `NotificationsDropped` event raised, so a
   * consumer that must see every notification keeps up or uses `on`.
   *
   * @example
   * ```ts
   * for await (const delta of client.notifications(ItemAgentMessageDelta, { signal })) process.stdout.write(delta.delta);
   * ```
   */
  notifications<D extends AnyServerNotification>(descriptor: D, options?: NotificationStreamOptions): AsyncIterable<ParamsOf<D>>;
  notifications(options?: NotificationStreamOptions): AsyncIterable<RawNotification>;
  /** Subscribes to transport errors and to events about rejected or undeliverable messages. */
  onEvent(listener: (event: ClientEvent) => void): Disposable;
  /** A wire tap: every message, both ways, as decoded from or written to the stream. */
  onMessage(listener: (direction: MessageDirection, message: JsonRpcMessage) => void): Disposable;
  /** Resolves once the client has ended, with the reason. */
  readonly closed: Promise<TerminalError>;
  /** The reason the client ended, or undefined while it is open. */
  readonly terminalError: TerminalError | undefined;
  /** The clock and sleeps the client was created with (`AppServerClientOptions.timers`); `runTurn` and `trackMcpStartup` wait with them. */
  readonly timers: Timers;
  /** Ends the client: pending requests resolve `Left(Disposed)`. The streams are left open. */
  dispose(): void;
  /** `dispose()`, for `await using client = createAppServerClient(...)`. */
  [Symbol.asyncDispose](): Promise<void>;
}

const isDescriptor = (value: unknown): value is AnyServerNotification =>
  typeof value === 'object' && value !== null && 'method' in value && 'params' in value;

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
    request: (descriptor, params, options) => connection.request(descriptor, params, options),
    notify: (descriptor, params) => connection.notify(descriptor, params),
    onServerRequest: (descriptor, handler) => connection.onServerRequest(descriptor, handler),
    on: (descriptor, listener) => connection.onNotification(descriptor, listener),
    onAnyNotification: (listener) => connection.onAnyNotification(listener),
    notifications: ((first?: AnyServerNotification | NotificationStreamOptions, second?: NotificationStreamOptions): AsyncIterable<unknown> =>
      isDescriptor(first)
        ? connection.notifications<unknown>((deliver) => connection.onNotification(first, deliver), () => first.method, second)
        : connection.notifications<RawNotification>((deliver) => connection.onAnyNotification(deliver), (raw) => raw.method, first)) as AppServerClient['notifications'],
    onEvent: (listener) => connection.onEvent(listener),
    onMessage: (listener) => connection.onMessage(listener),
    closed: connection.closed,
    timers: connection.timers,
    get terminalError() {
      return connection.terminalError;
    },
    dispose: () => connection.dispose(),
    [Symbol.asyncDispose]: () => {
      connection.dispose();
      return Promise.resolve();
    },
  };
}
