/**
 * The machinery behind `AppServerClient`: a vscode-jsonrpc connection over newline-delimited streams,
 * plus what vscode-jsonrpc leaves to its users: typed routing, pending requests that end with a typed
 * error when the peer goes away, and an event stream instead of log lines.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  CancellationSenderStrategy,
  CancellationTokenSource,
  ParameterStructures,
  ResponseError,
  createMessageConnection,
} from 'vscode-jsonrpc/node';
import type { CancellationToken, DataCallback, Logger, Message, MessageConnection, MessageReader, RequestMessage } from 'vscode-jsonrpc/node';
import type {
  AnyClientNotification,
  AnyClientRequest,
  AnyServerNotification,
  AnyServerRequest,
  ParamsOf,
  ResultOf,
} from '@wework/codex-protocol';
import { loggableLiteral, unknownParts } from '@wework/codex-protocol';
import type * as t from 'io-ts';
import { ClientError } from '../ClientError.js';
import type { ProcessExited, RequestAborted, TerminalError } from '../ClientError.js';
import type { ClientEvent, ServerRequestRejection } from '../ClientEvent.js';
import { JsonRpcMessage, WireErrorCode, type JsonRpcId } from '@wework/jsonrpc';
import { NewlineMessageReader, NewlineMessageWriter } from '@wework/jsonrpc/node';
import type { Timers } from '@wework/ports';
import { nodeTimers } from '@wework/ports/node';
import type {
  AppServerClientOptions,
  MessageDirection,
  NotificationStreamOptions,
  RawNotification,
  RequestErrorOf,
  RequestOptions,
  ServerRequestHandler,
} from '../ClientContract.js';
import { isEither, paramsShape, safeDecode, safeEncode } from './codecs.js';
import type { ParamsShape } from './codecs.js';
import { ListenerSet, errorMessage } from './ListenerSet.js';
import type { Disposable } from './ListenerSet.js';
import { MAX_DELAY_MS, withTimeout } from './Delay.js';
import { createNotificationQueue } from './NotificationQueue.js';

const DEFAULT_CLOSE_GRACE_MS = 1000;
const DEFAULT_NOTIFICATION_BUFFER = 1024;
/** The default timeout of a request to the app-server: 60 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** vscode-jsonrpc's local codes for a failed write and for requests dropped on dispose. */
const LOCAL_WRITE_ERROR = -32099;
const LOCAL_PENDING_REJECTED = -32097;

interface HandlerEntry {
  readonly descriptor: AnyServerRequest;
  readonly handler: ServerRequestHandler<AnyServerRequest>;
}

interface NotificationEntry {
  readonly descriptor: AnyServerNotification;
  readonly listener: (params: unknown) => void;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));


const sendArgs = (shape: ParamsShape): unknown[] => {
  switch (shape._tag) {
    case 'None':
      return [];
    case 'ByName':
      return [ParameterStructures.byName, shape.params];
    case 'ByPosition':
      return [ParameterStructures.byPosition, ...shape.params];
  }
};

/** One live connection; see `AppServerClient` for the contract of each method. */
export class Connection {
  readonly closed: Promise<TerminalError>;
  private terminal: TerminalError | undefined;
  private resolveClosed!: (error: TerminalError) => void;
  private readonly reader: NewlineMessageReader;
  private readonly writer: NewlineMessageWriter;
  private readonly rpc: MessageConnection;
  private readonly pending = new Map<number, (error: TerminalError) => void>();
  /** Ends each open notification stream (after what it buffered) when the client ends. */
  private readonly streamEnds = new Set<() => void>();
  private nextPendingKey = 0;
  private readonly requestIds = new WeakMap<CancellationToken, JsonRpcId | null>();
  private readonly handlers = new Map<string, HandlerEntry>();
  private readonly notificationListeners = new Map<string, Set<NotificationEntry>>();
  private readonly events = new ListenerSet<[ClientEvent]>();
  private readonly taps = new ListenerSet<[MessageDirection, JsonRpcMessage]>();
  private readonly anyNotifications = new ListenerSet<[RawNotification]>((error) =>
    this.emit({ _tag: 'ListenerFailed', method: '*', message: errorMessage(error) }),
  );
  private delivered = 0;
  private dispatched = 0;
  /** While a request is being handed to vscode-jsonrpc: the id it was written with. */
  private capturing = false;
  private capturedId: JsonRpcId | undefined;

  /** The clock and sleeps of the client's waits. */
  readonly timers: Timers;

  constructor(private readonly options: AppServerClientOptions) {
    this.timers = options.timers ?? nodeTimers;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.reader = new NewlineMessageReader(options.input, options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes });
    this.writer = new NewlineMessageWriter(options.output);
    this.reader.onFramingError((error) => this.emit(error));
    this.reader.onMessage((message) => {
      this.delivered += 1;
      this.taps.emit('incoming', message);
    });
    this.writer.onWritten((message) => {
      if (this.capturing && 'id' in message && 'method' in message) {
        const id = (message as { readonly id?: unknown }).id;
        if (typeof id === 'number' || typeof id === 'string') this.capturedId = id;
      }
      this.tapOutgoing(message);
    });
    this.rpc = createMessageConnection(this.inOrderReader(), this.writer, this.logger(), {
      cancellationStrategy: {
        receiver: {
          kind: 'request',
          createCancellationTokenSource: (request: RequestMessage) => {
            const source = new CancellationTokenSource();
            this.requestIds.set(source.token, request.id);
            return source;
          },
        },
        sender: CancellationSenderStrategy.Message,
      },
      messageStrategy: {
        handleMessage: (message, next) => {
          this.dispatched += 1;
          return next(message);
        },
      },
    });
    this.rpc.onError(([error]) => this.emit(ClientError.transportError(error.message)));
    this.rpc.onRequest((method, params, token) => this.handleServerRequest(method, params, token));
    this.rpc.onNotification((method, params) => this.handleNotification(method, params));
    this.watchEnd();
    this.rpc.listen();
  }

  /**
   * The reader as vscode-jsonrpc sees it, except that a notification arriving while vscode-jsonrpc has
   * nothing queued goes to the listeners at once: vscode-jsonrpc would hand it over on a later turn of
   * the event loop (one turn per message, each through a chain of promises), and nothing it still holds
   * could come first. Anything arriving while it holds a message is queued behind it, so the order of
   * the wire is kept; its own `$/` notifications always go to it.
   */
  private inOrderReader(): MessageReader {
    const reader = this.reader;
    return {
      onError: reader.onError,
      onClose: reader.onClose,
      onPartialMessage: reader.onPartialMessage,
      dispose: () => reader.dispose(),
      listen: (callback: DataCallback) =>
        reader.listen((message) => {
          const notification = message as { readonly method?: unknown; readonly id?: unknown; readonly params?: unknown };
          // `delivered` already counts this message.
          const atOnce =
            this.dispatched === this.delivered - 1 &&
            this.terminal === undefined &&
            typeof notification.method === 'string' &&
            notification.id === undefined &&
            !notification.method.startsWith('$/');
          if (!atOnce) return callback(message);
          this.dispatched += 1;
          this.handleNotification(notification.method as string, notification.params);
        }),
    };
  }

  get terminalError(): TerminalError | undefined {
    return this.terminal;
  }

  async request<D extends AnyClientRequest, O extends RequestOptions = Record<never, never>>(
    descriptor: D,
    params: ParamsOf<D>,
    options?: O,
  ): Promise<E.Either<RequestErrorOf<O>, ResultOf<D>>> {
    return this.send(descriptor, params, options?.signal) as Promise<E.Either<RequestErrorOf<O>, ResultOf<D>>>;
  }

  private async send<D extends AnyClientRequest>(descriptor: D, params: ParamsOf<D>, signal: AbortSignal | undefined): Promise<E.Either<ClientError | RequestAborted, ResultOf<D>>> {
    const method = descriptor.method;
    if (this.terminal !== undefined) return E.left(this.terminal);
    const shape = this.encodeParams(method, descriptor.params, params);
    if (E.isLeft(shape)) return shape;
    if (signal?.aborted === true) return E.left(ClientError.requestAborted(method));
    return new Promise((resolve) => {
      const key = this.nextPendingKey++;
      let settled = false;
      let settle = (result: E.Either<ClientError | RequestAborted, ResultOf<D>>): void => {
        if (settled) return;
        settled = true;
        this.pending.delete(key);
        resolve(result);
      };
      this.pending.set(key, (error) => settle(E.left(error)));
      const cancellation = signal === undefined ? undefined : new CancellationTokenSource();
      let sent: Promise<unknown>;
      // vscode-jsonrpc writes the request synchronously inside sendRequest: the writer tap sees its id.
      this.capturedId = undefined;
      this.capturing = true;
      try {
        const args = sendArgs(shape.right);
        sent = cancellation === undefined ? this.rpc.sendRequest(method, ...args) : this.rpc.sendRequest(method, ...args, cancellation.token);
      } catch {
        settle(E.left(this.terminal ?? ClientError.connectionClosed()));
        return;
      } finally {
        this.capturing = false;
      }
      const id = this.capturedId;
      const timeoutMs = this.timeoutOf(method);
      const cancelTimeout = this.timers.after(timeoutMs, () => {
        if (settled) return;
        settle(E.left(ClientError.requestTimedOut(method, timeoutMs)));
        if (id !== undefined) this.emit({ _tag: 'RequestAbandoned', method, id, timeoutMs });
      });
      // vscode-jsonrpc sends `$/cancelRequest` when the token is cancelled; the reply, if any, is ignored.
      const onAbort = (): void => {
        if (settled) return;
        cancellation?.cancel();
        settle(E.left(ClientError.requestAborted(method)));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settleOnce = settle;
      settle = (result) => {
        cancelTimeout();
        signal?.removeEventListener('abort', onAbort);
        settleOnce(result);
        cancellation?.dispose();
      };
      sent.then(
        (raw) => {
          const decoded = safeDecode(descriptor.result as AnyClientRequest['result'], raw);
          if (E.isRight(decoded)) this.reportUnknown(method, 'result', descriptor.result, decoded.right);
          settle(E.isRight(decoded) ? E.right(decoded.right as ResultOf<D>) : E.left(ClientError.decodeFailed(method, decoded.left)));
        },
        (error: unknown) => settle(E.left(this.sendError(method, error))),
      );
    });
  }

  async notify<D extends AnyClientNotification>(descriptor: D, params: ParamsOf<D>): Promise<E.Either<ClientError, void>> {
    const method = descriptor.method;
    if (this.terminal !== undefined) return E.left(this.terminal);
    const shape = this.encodeParams(method, descriptor.params, params);
    if (E.isLeft(shape)) return shape;
    try {
      await this.rpc.sendNotification(method, ...sendArgs(shape.right));
      return E.right(undefined);
    } catch (error) {
      return E.left(this.sendError(method, error));
    }
  }

  onServerRequest<D extends AnyServerRequest>(descriptor: D, handler: ServerRequestHandler<D>): Disposable {
    const entry: HandlerEntry = { descriptor, handler: handler as ServerRequestHandler<AnyServerRequest> };
    this.handlers.set(descriptor.method, entry);
    return {
      dispose: () => {
        if (this.handlers.get(descriptor.method) === entry) this.handlers.delete(descriptor.method);
      },
    };
  }

  onNotification<D extends AnyServerNotification>(descriptor: D, listener: (params: ParamsOf<D>) => void): Disposable {
    const entry: NotificationEntry = { descriptor, listener: listener as (params: unknown) => void };
    let entries = this.notificationListeners.get(descriptor.method);
    if (entries === undefined) {
      entries = new Set();
      this.notificationListeners.set(descriptor.method, entries);
    }
    entries.add(entry);
    return {
      dispose: () => {
        const current = this.notificationListeners.get(descriptor.method);
        current?.delete(entry);
        if (current?.size === 0) this.notificationListeners.delete(descriptor.method);
      },
    };
  }

  onAnyNotification(listener: (notification: RawNotification) => void): Disposable {
    return this.anyNotifications.add(listener);
  }

  /** The notifications of one method (decoded), or all of them (raw), as a bounded async iterable. */
  notifications<A>(subscribe: (deliver: (item: A) => void) => Disposable, methodOf: (item: A) => string, options: NotificationStreamOptions = {}): AsyncIterable<A> {
    const bufferSize = options.bufferSize ?? DEFAULT_NOTIFICATION_BUFFER;
    const { signal } = options;
    const subscriptions: Disposable[] = [];
    const onAbort = (): void => queue.abort();
    const onClose = (): void => queue.end();
    const queue = createNotificationQueue<A>(
      bufferSize,
      (dropped) => this.emit({ _tag: 'NotificationsDropped', method: methodOf(dropped), bufferSize }),
      () => {
        for (const subscription of subscriptions.splice(0)) subscription.dispose();
        signal?.removeEventListener('abort', onAbort);
        this.streamEnds.delete(onClose);
      },
    );
    if (this.terminal !== undefined || signal?.aborted === true) {
      queue.end();
      return queue;
    }
    subscriptions.push(subscribe((item) => queue.push(item)));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.streamEnds.add(onClose);
    return queue;
  }

  onEvent(listener: (event: ClientEvent) => void): Disposable {
    return this.events.add(listener);
  }

  onMessage(listener: (direction: MessageDirection, message: JsonRpcMessage) => void): Disposable {
    return this.taps.add(listener);
  }

  dispose(): void {
    if (this.terminal !== undefined && this.terminal._tag === 'Disposed') return;
    this.terminate(ClientError.disposed());
  }

  private terminate(reason: TerminalError): void {
    if (this.terminal !== undefined) {
      if (reason._tag === 'Disposed') this.rpc.dispose();
      return;
    }
    this.terminal = reason;
    for (const reject of [...this.pending.values()]) reject(reason);
    this.pending.clear();
    this.emit(reason);
    for (const end of [...this.streamEnds]) end();
    this.resolveClosed(reason);
    this.rpc.dispose();
  }

  /** Ends the client once the input has ended and (when known) the process has exited. */
  private watchEnd(): void {
    const grace = this.options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    const inputEnded = new Promise<void>((resolve) => this.reader.onClose(() => resolve()));
    const exit = this.options.peerExit;
    const afterInput = async (): Promise<void> => {
      await inputEnded;
      await this.drain();
      const exited = exit === undefined ? undefined : await withTimeout(this.timers, exit, grace);
      this.terminate(exited ?? ClientError.connectionClosed());
    };
    const afterExit = async (exited: ProcessExited): Promise<void> => {
      await withTimeout(this.timers, inputEnded, grace);
      await this.drain();
      this.terminate(exited);
    };
    void afterInput();
    if (exit !== undefined) void exit.then(afterExit, () => undefined);
  }

  /** Waits until vscode-jsonrpc has dispatched every message the reader delivered, then one more turn. */
  private async drain(): Promise<void> {
    for (let turns = 0; this.dispatched < this.delivered && this.terminal === undefined && turns < 10_000; turns++) {
      await nextTurn();
    }
    await nextTurn();
  }

  private encodeParams(method: string, codec: AnyClientRequest['params'], params: unknown): E.Either<ClientError, ParamsShape> {
    const encoded = safeEncode(codec, params);
    if (E.isLeft(encoded)) return E.left(ClientError.encodeFailed(method, encoded.left));
    const shape = paramsShape(encoded.right);
    return E.isLeft(shape) ? E.left(ClientError.encodeFailed(method, shape.left)) : shape;
  }

  private timeoutOf(method: string): number {
    const override = this.options.requestTimeouts?.[method];
    const chosen = override ?? this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    return Number.isFinite(chosen) && chosen > 0 ? Math.min(chosen, MAX_DELAY_MS) : DEFAULT_REQUEST_TIMEOUT_MS;
  }

  private sendError(method: string, error: unknown): ClientError {
    if (this.terminal !== undefined) return this.terminal;
    if (error instanceof ResponseError) {
      if (error.code === LOCAL_WRITE_ERROR) return ClientError.transportError(error.message);
      if (error.code === LOCAL_PENDING_REJECTED) return ClientError.disposed();
      if (error.code === WireErrorCode.Overloaded) return ClientError.overloaded(method, error.message);
      return ClientError.requestFailed(method, error.code, error.message, error.data);
    }
    return ClientError.transportError(errorMessage(error));
  }

  private async handleServerRequest(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    const id = this.requestIds.get(token) ?? null;
    const reject = (reason: ServerRequestRejection, code: number, message: string, detail: string = message, data?: unknown): ResponseError<unknown> => {
      this.emit({ _tag: 'ServerRequestRejected', method, id, reason, code, message: detail });
      return new ResponseError(code, message, data);
    };
    const entry = this.handlers.get(method);
    if (entry === undefined) return reject('NoHandler', WireErrorCode.MethodNotFound, `Unhandled method ${method}`);
    const decoded = safeDecode(entry.descriptor.params, params);
    if (E.isLeft(decoded)) return reject('InvalidParams', WireErrorCode.InvalidParams, `Invalid params for ${method}: ${decoded.left}`);
    this.reportUnknown(method, 'params', entry.descriptor.params, decoded.right);
    let reply: unknown;
    try {
      reply = await entry.handler(decoded.right, { id, method });
    } catch (error) {
      return reject('HandlerThrew', WireErrorCode.InternalError, `Request handler for ${method} failed`, errorMessage(error));
    }
    if (!isEither(reply)) {
      return reject('InvalidResult', WireErrorCode.InternalError, `Request handler for ${method} failed`, 'the handler did not return an Either');
    }
    if (E.isLeft(reply)) {
      const error = reply.left as { code?: unknown; message?: unknown; data?: unknown };
      const code = typeof error.code === 'number' ? error.code : WireErrorCode.InternalError;
      const message = typeof error.message === 'string' ? error.message : `Request handler for ${method} failed`;
      return reject('HandlerFailed', code, message, message, error.data);
    }
    if (!entry.descriptor.result.is(reply.right)) {
      return reject('InvalidResult', WireErrorCode.InternalError, `Request handler for ${method} failed`, 'the result does not match the result codec');
    }
    const encoded = safeEncode(entry.descriptor.result, reply.right);
    if (E.isLeft(encoded)) return reject('InvalidResult', WireErrorCode.InternalError, `Request handler for ${method} failed`, encoded.left);
    return encoded.right;
  }

  private handleNotification(method: string, params: unknown): void {
    this.anyNotifications.emit({ method, params });
    const entries = this.notificationListeners.get(method);
    if (entries === undefined) return;
    const decodedBy = new Map<AnyServerNotification, E.Either<string, unknown>>();
    for (const entry of [...entries]) {
      let decoded = decodedBy.get(entry.descriptor);
      if (decoded === undefined) {
        decoded = safeDecode(entry.descriptor.params, params);
        decodedBy.set(entry.descriptor, decoded);
        if (E.isLeft(decoded)) this.emit({ _tag: 'InvalidNotification', method, message: decoded.left });
        else this.reportUnknown(method, 'params', entry.descriptor.params, decoded.right);
      }
      if (E.isLeft(decoded)) continue;
      try {
        entry.listener(decoded.right);
      } catch (error) {
        this.emit({ _tag: 'ListenerFailed', method, message: errorMessage(error) });
      }
    }
  }

  private tapOutgoing(message: Message): void {
    if (this.taps.size === 0) return;
    const decoded = JsonRpcMessage.decode(message);
    if (E.isRight(decoded)) this.taps.emit('outgoing', decoded.right);
  }

  /** Reports what a decoded message carries of a newer Codex (never its values). */
  private reportUnknown(method: string, side: 'params' | 'result', codec: t.Decoder<unknown, unknown>, value: unknown): void {
    const parts = unknownParts(codec, value);
    if (parts.length === 0) return;
    this.emit({ _tag: 'UnknownProtocolValues', method, side, parts: parts.map(({ kind, path, codec: name, literal }) => ({ kind, path, codec: name, literal: loggableLiteral(literal) })) });
  }

  private emit(event: ClientEvent): void {
    this.events.emit(event);
  }

  private logger(): Logger {
    const warn = (message: string): void => this.emit({ _tag: 'ProtocolWarning', message });
    return { error: warn, warn, info: () => undefined, log: () => undefined };
  }
}
