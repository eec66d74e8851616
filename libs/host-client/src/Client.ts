/**
 * The host's client of the desktop executor: JSON-RPC 2.0 over a {@link TransportFactory}, requests
 * typed by method (params encoded and results decoded with the method's codecs of
 * `@wework/host-protocol`), errors as values, a bounded number of requests in flight (the executor's
 * per-connection bounds, each class apart) with a bounded queue behind it, a timeout per request and
 * `AbortSignal`s; `card/show` answered by one handler; the event stream with its cursor (duplicates
 * dropped, a gap answered by `events/subscribe { after }`), reconnects with a bounded exponential
 * backoff, each followed by `events/subscribe { after }` and `cards/pending`.
 *
 * Nothing the executor sends makes the client throw: what does not fit is answered (a card), or
 * reported as a {@link ProtocolViolation} and not delivered. Listeners that throw are ignored.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import {
  HOST_LIMITS,
  CardShow,
  CardsPending,
  describeDecodeErrors,
  decodeHostNotification,
  decodeHostResult,
  EventsSubscribe,
  HostErrorCode,
  HostErrorData,
  HostNotifications,
  HostRequests,
  redactHostMessage,
  Sequenced,
  emptySubscription,
  subscribe as addSubscription,
  unsubscribe as removeSubscription,
  type HostCard,
  type HostMethod,
  type HostNotificationMethod,
  type HostNotificationParamsOf,
  type HostParamsOf,
  type HostReply,
  type HostResultOf,
  type PendingCard,
  type RuntimeStatus,
  type SharedSubscription,
} from '@wework/host-protocol';
import { reconnectDelay } from './Backoff.js';
import { aborted, busy, disconnected, timedOut, type HostClientError, type WaitError } from './Errors.js';
import { HOST_CLIENT_DEFAULTS } from './ClientDefaults.js';
import { initialStream, subscribed, subscribeFailed, subscribing, takeEvent, type StreamState } from './Stream.js';
import type { ConnectError, HostTransport, TransportFactory } from './Transport.js';
import { connectError } from './Transport.js';
import { isRecord } from '@wework/decode-issues';

/** Where the connection is. */
export type ConnectionState =
  /** The first connection is being opened (and the stream resumed). */
  | 'connecting'
  /** Connected, the stream resumed. */
  | 'open'
  /** The connection dropped; it is being opened again after a backoff. */
  | 'reconnecting'
  /** The connection dropped and is not opened again by itself ({@link HostClient.reconnect} does). */
  | 'disconnected'
  /** {@link HostClient.close}d for good. */
  | 'closed';

/** Which way a message went. */
export type MessageDirection = 'toExecutor' | 'toHost';

/** What the executor sent that does not keep to the protocol. Never carries a value of the message. */
export interface ProtocolViolation {
  readonly _tag: 'ProtocolViolation';
  readonly kind:
    | 'NotJson'
    | 'NotJsonRpc'
    | 'TooLarge'
    | 'NotText'
    | 'InvalidNotification'
    | 'UnknownNotification'
    | 'InvalidCard'
    | 'UnknownRequest'
    | 'UnexpectedResponse'
    | 'ErrorWithoutId';
  /** The message's method when it is one the protocol knows, else `null`. */
  readonly method: string | null;
  /** Where and what (places and expected types), never values. */
  readonly message: string;
}

/** An anomaly of the event stream the client handled by itself. */
export type StreamNotice =
  /** A notification whose `seq` was taken before: dropped. */
  | { readonly _tag: 'Duplicate'; readonly seq: number; readonly method: string; readonly params: unknown }
  /** A notification past a gap: dropped; the missing ones are asked for again. */
  | { readonly _tag: 'Gap'; readonly seq: number; readonly cursor: number }
  /** The executor no longer had what was missed: the stream goes on from `seq` (reload the state). */
  | { readonly _tag: 'Reset'; readonly seq: number };

/** A decoded notification, by method. */
export type HostEvent = { [M in HostNotificationMethod]: { readonly method: M; readonly params: HostNotificationParamsOf<M> } }[HostNotificationMethod];

/** The answer of an `events/subscribe`: whether what was missed was gone (`reset`), and the last `seq` given out. */
export interface Resumed {
  readonly reset: boolean;
  readonly seq: number;
}

/** What a card handler gets besides the card. */
export interface CardContext {
  /** Fires when `card/dismissed` names the card, when the connection that showed it drops, or when the client closes; an answer after it is not sent. */
  readonly signal: AbortSignal;
}

/** Answers a card: the user's reply (answers by question id, or cancel / decline). A throw or rejection is answered as an error (the executor counts it as cancel). */
export type CardHandler = (card: HostCard, context: CardContext) => HostReply | Promise<HostReply>;

/** Options of one request. */
export interface RequestOptions {
  /** How long to wait for the answer, queueing included; default the client's (`requestTimeoutMs` or `longRunningTimeoutMs`). */
  readonly timeoutMs?: number;
  /** Aborts the wait: the request resolves `Aborted` (a request already sent is cancelled with `$/cancelRequest`; its answer is ignored). */
  readonly signal?: AbortSignal;
}

/** Reconnect policy: the bounds of the backoff, and how many attempts in a row (default: no end). */
export interface ReconnectOptions {
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly maxAttempts?: number;
}

/** Options of {@link createHostClient}. */
export interface HostClientOptions {
  /** Opens a connection (again, to reconnect). */
  readonly connect: TransportFactory;
  /** Requests in flight at once (not long-running ones); default the executor's per-connection bound, 32. */
  readonly maxRequestsInFlight?: number;
  /** Long-running requests (`message/send`, `auth/recover`, `supervision/inspect`) in flight at once; default the executor's, 64. */
  readonly maxLongRunningInFlight?: number;
  /** Requests waiting for a slot, both classes together (default 1,024); 0 answers `Busy` as soon as the slots are taken. */
  readonly maxQueued?: number;
  /** Default timeout of a request (10 minutes). */
  readonly requestTimeoutMs?: number;
  /** Default timeout of a long-running request (25 hours). */
  readonly longRunningTimeoutMs?: number;
  /** How long one connection attempt may take (30 s). */
  readonly connectTimeoutMs?: number;
  /** Reconnect by itself after a drop (default yes, 250 ms doubling to 5 s); `false`: only {@link HostClient.reconnect}. */
  readonly reconnect?: ReconnectOptions | false;
  /** Send `events/subscribe` and `cards/pending` on the first connection too (default `true`); after a reconnect they are always sent. */
  readonly resumeOnConnect?: boolean;
  /** The cursor to resume from (a window's kept cursor); default 0: the stream starts at the first event. */
  readonly cursor?: number;
  /** Cards being answered at once (default 64). */
  readonly maxCardsInFlight?: number;
  /** Notification waits at once (default 1,024). */
  readonly maxWaiters?: number;
  /** Sees every message both ways (parsed), a request's credentials redacted (`redactHostMessage`): for transcripts and logs. */
  readonly tap?: (direction: MessageDirection, message: unknown) => void;
}

/** A connection to the executor that speaks the host protocol. */
export interface HostClient {
  /** Opens the first connection (and resumes the stream); resolves once open, or with why not (then, with reconnects on, it keeps trying). */
  start(): Promise<E.Either<ConnectError, void>>;
  /**
   * Sends a request of the protocol; resolves with its result decoded with the method's result codec, or
   * an error value; never rejects.
   */
  request<M extends HostMethod>(method: M, params: HostParamsOf<M>, options?: RequestOptions): Promise<E.Either<HostClientError, HostResultOf<M>>>;
  /** Sets the one card handler (replacing the previous one); the disposer removes it. Without a handler a card is answered `-32601`. */
  onCard(handler: CardHandler): () => void;
  /** Listens to the notifications of `method`, decoded; the disposer stops it. */
  onNotification<M extends HostNotificationMethod>(method: M, listener: (params: HostNotificationParamsOf<M>) => void): () => void;
  /** Listens to every notification, decoded. */
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** Resolves with the next notification of `method` whose params satisfy `match`, or why not (`TimedOut` after `timeoutMs`, default 60 s). */
  nextNotification<M extends HostNotificationMethod>(
    method: M,
    match?: (params: HostNotificationParamsOf<M>) => boolean,
    options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<E.Either<WaitError, HostNotificationParamsOf<M>>>;
  /** The latest `runtime/status` (from the stream or an `executor/info` result); `null` before any. */
  runtimeStatus(): RuntimeStatus | null;
  /** Listens to every new runtime status. */
  onRuntimeStatus(listener: (status: RuntimeStatus) => void): () => void;
  /** The connection's state. */
  state(): ConnectionState;
  /** Listens to changes of the connection's state. */
  onStateChange(listener: (state: ConnectionState) => void): () => void;
  /** Listens to every resume (`events/subscribe` answered after a connect, or a reset after a gap). */
  onResumed(listener: (resumed: Resumed) => void): () => void;
  /** Listens to the answers of `cards/pending` after each resume (the cards still waiting). */
  onPendingCards(listener: (cards: ReadonlyArray<PendingCard>) => void): () => void;
  /** Listens to what the executor sent against the protocol. */
  onViolation(listener: (violation: ProtocolViolation) => void): () => void;
  /** Listens to the duplicates, gaps and resets of the stream. */
  onStreamNotice(listener: (notice: StreamNotice) => void): () => void;
  /** The last `seq` taken from the event stream (0: none). */
  lastSeq(): number;
  /** Adds a subscriber of the window's one event stream; the first one sends `events/subscribe { after: cursor }`. */
  addSubscriber(subscriber: string): Promise<E.Either<HostClientError, void>>;
  /** Removes a subscriber; the last one sends `events/unsubscribe` (the cursor is kept). */
  removeSubscriber(subscriber: string): Promise<E.Either<HostClientError, void>>;
  /** Drops the connection as a network failure would (with reconnects on, it is opened again); resolves once it closed. */
  drop(): Promise<void>;
  /**
   * Opens a new connection now (closing the current one) and resumes: `events/subscribe { after }`
   * (default the cursor), then `cards/pending`; resolves with the subscribe's answer.
   */
  reconnect(options?: { readonly after?: number }): Promise<E.Either<HostClientError | ConnectError, Resumed>>;
  /** Closes for good: requests in flight and waits resolve `Disconnected`, card handlers are aborted. */
  close(): Promise<void>;
}

/**
 * JSON-RPC's code for a request its sender cancelled (LSP's `RequestCancelled`): a host's answer to a
 * cancelled card. Written here, not taken from `@wework/jsonrpc`, whose main entry must stay out of the
 * browser bundle of this client.
 */
const REQUEST_CANCELLED = -32800;
const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
const own = <T extends object>(table: T, key: string): key is Extract<keyof T, string> => Object.prototype.hasOwnProperty.call(table, key);

/** One listener set; a listener that throws does not stop the others. */
class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();
  add(listener: (value: T) => void): () => void {
    const wrapped = (value: T): void => listener(value);
    this.set.add(wrapped);
    return () => void this.set.delete(wrapped);
  }
  emit(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch {
        // A listener's own failure is the host's; the client carries on.
      }
    }
  }
  clear(): void {
    this.set.clear();
  }
}

/** An open connection and what belongs to it. */
interface Connection {
  readonly transport: HostTransport;
  closed: boolean;
  readonly closedListeners: Array<() => void>;
  /** Cards being answered on this connection, by request id (as text). */
  readonly cards: Map<string, { readonly id: number | string; readonly cardId: string; readonly controller: AbortController }>;
}

/** A request from its call to its answer. */
interface Entry {
  readonly id: number;
  readonly method: string;
  readonly longRunning: boolean;
  readonly message: Record<string, unknown>;
  readonly internal: boolean;
  /** Resolved (answered, timed out, aborted, failed): a later answer is ignored. */
  settled: boolean;
  connection: Connection | null;
  readonly finish: (result: E.Either<HostClientError, unknown>) => void;
}

type Answer = E.Either<HostClientError, unknown>;

/**
 * Creates a client over `options.connect`; {@link HostClient.start} opens it.
 * @example
 * ```ts
 * const client = createHostClient({ connect: browserWebSocketTransport('ws://127.0.0.1:43117/', token) });
 * client.onCard(async (card) => ({ action: 'cancel' }));
 * await client.start();
 * const tasks = await client.request('task/list', {}); // Either<HostClientError, { tasks }>
 * ```
 */
export function createHostClient(options: HostClientOptions): HostClient {
  const maxShort = positive(options.maxRequestsInFlight, HOST_LIMITS.maxRequestsPerConnection);
  const maxLong = positive(options.maxLongRunningInFlight, HOST_LIMITS.maxLongRunningPerConnection);
  const maxQueued = nonNegative(options.maxQueued, HOST_CLIENT_DEFAULTS.maxQueued);
  const requestTimeoutMs = positive(options.requestTimeoutMs, HOST_CLIENT_DEFAULTS.requestTimeoutMs);
  const longRunningTimeoutMs = positive(options.longRunningTimeoutMs, HOST_CLIENT_DEFAULTS.longRunningTimeoutMs);
  const connectTimeoutMs = positive(options.connectTimeoutMs, HOST_CLIENT_DEFAULTS.connectTimeoutMs);
  const maxCards = positive(options.maxCardsInFlight, HOST_CLIENT_DEFAULTS.maxCardsInFlight);
  const maxWaiters = positive(options.maxWaiters, HOST_CLIENT_DEFAULTS.maxWaiters);
  const reconnectPolicy =
    options.reconnect === false
      ? null
      : {
          minDelayMs: nonNegative(options.reconnect?.minDelayMs, HOST_CLIENT_DEFAULTS.reconnectMinDelayMs),
          maxDelayMs: nonNegative(options.reconnect?.maxDelayMs, HOST_CLIENT_DEFAULTS.reconnectMaxDelayMs),
          maxAttempts: options.reconnect?.maxAttempts ?? Number.POSITIVE_INFINITY,
        };
  const resumeOnConnect = options.resumeOnConnect ?? true;
  const tap = options.tap;

  let connection: Connection | null = null;
  let current: ConnectionState = 'connecting';
  let closed = false;
  let started = false;
  let nextId = 1;
  let attempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let attemptController: AbortController | null = null;
  let manual = false;
  let stream: StreamState = initialStream(options.cursor ?? 0);
  let subscription: SharedSubscription = emptySubscription();
  let cardHandler: CardHandler | null = null;
  let latestStatus: RuntimeStatus | null = null;

  const inFlight = new Map<number, Entry>();
  const queue: { short: Entry[]; long: Entry[] } = { short: [], long: [] };
  const waiters = new Set<(event: HostEvent) => void>();
  const waiterStops = new Set<() => void>();

  const states = new Listeners<ConnectionState>();
  const events = new Listeners<HostEvent>();
  const byMethod = new Map<string, Listeners<unknown>>();
  const statuses = new Listeners<RuntimeStatus>();
  const resumes = new Listeners<Resumed>();
  const pendings = new Listeners<ReadonlyArray<PendingCard>>();
  const violations = new Listeners<ProtocolViolation>();
  const notices = new Listeners<StreamNotice>();

  const setState = (next: ConnectionState): void => {
    if (current === next) return;
    current = next;
    states.emit(next);
  };
  const violation = (kind: ProtocolViolation['kind'], method: string | null, message: string): void =>
    violations.emit({ _tag: 'ProtocolViolation', kind, method, message });
  const observe = (direction: MessageDirection, message: unknown): void => {
    if (tap === undefined) return;
    try {
      tap(direction, direction === 'toExecutor' ? redactHostMessage(message) : message);
    } catch {
      // The tap is the host's; its failure does not change the conversation.
    }
  };
  /** Writes a message on `on`; `false` when it cannot be sent (closed, full, or not JSON). */
  const write = (on: Connection, message: Record<string, unknown>): boolean => {
    if (on.closed) return false;
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch {
      return false;
    }
    observe('toExecutor', message);
    return on.transport.send(text);
  };

  // ---- requests -------------------------------------------------------------------------------------

  const counts = (): { short: number; long: number } => {
    let short = 0;
    let long = 0;
    for (const entry of inFlight.values()) if (entry.longRunning) long += 1;
    else short += 1;
    return { short, long };
  };
  const queued = (): number => queue.short.length + queue.long.length;

  /** Sends what waits while a slot of its class is free. */
  const pump = (): void => {
    if (connection === null || connection.closed) return;
    const used = counts();
    while (queue.short.length > 0 && used.short < maxShort) {
      const entry = queue.short.shift() as Entry;
      if (dispatch(entry)) used.short += 1;
    }
    while (queue.long.length > 0 && used.long < maxLong) {
      const entry = queue.long.shift() as Entry;
      if (dispatch(entry)) used.long += 1;
    }
  };

  /** Sends one request on the current connection; `false` when it could not be written (it is answered `Disconnected`). */
  const dispatch = (entry: Entry): boolean => {
    const on = connection;
    if (on === null || on.closed) {
      entry.finish(E.left(disconnected('not connected to the executor')));
      return false;
    }
    entry.connection = on;
    inFlight.set(entry.id, entry);
    if (!write(on, entry.message)) {
      inFlight.delete(entry.id);
      entry.finish(E.left(disconnected('the connection to the executor cannot take more')));
      return false;
    }
    return true;
  };

  const unqueue = (entry: Entry): boolean => {
    for (const list of [queue.short, queue.long]) {
      const at = list.indexOf(entry);
      if (at >= 0) {
        list.splice(at, 1);
        return true;
      }
    }
    return false;
  };

  /** Gives up waiting for `entry`: out of the queue, or (sent) cancelled; its slot stays taken until the executor answers. */
  const abandon = (entry: Entry, reason: HostClientError): void => {
    if (entry.settled) return;
    if (!unqueue(entry) && entry.connection !== null && inFlight.get(entry.id) === entry) {
      write(entry.connection, { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: entry.id } });
    }
    entry.finish(E.left(reason));
  };

  /** The one path of every request: encode, bound, queue, time out, abort. */
  const call = (method: string, params: unknown, requestOptions: RequestOptions, internal: boolean): Promise<Answer> =>
    new Promise<Answer>((resolve) => {
      if (closed) return resolve(E.left(disconnected('the client is closed')));
      if (!own(HostRequests, method)) return resolve(E.left({ _tag: 'InvalidRequest', method: 'unknown', message: 'not a request of the host protocol' }));
      const signal = requestOptions.signal;
      if (signal?.aborted === true) return resolve(E.left(aborted(method)));
      if (connection === null || connection.closed) return resolve(E.left(disconnected('not connected to the executor')));
      const codec = HostRequests[method].params as t.Mixed;
      let message: Record<string, unknown>;
      try {
        // Params that do not fit the codec's type are sent as given: the executor is the judge (-32602, naming the field).
        const encoded: unknown = codec.is(params) ? codec.encode(params) : params;
        message = { jsonrpc: '2.0', id: nextId, method, params: encoded ?? {} };
        if (typeof JSON.stringify(message) !== 'string') throw new TypeError('not JSON');
      } catch {
        return resolve(E.left({ _tag: 'InvalidRequest', method, message: `the params of ${method} cannot be written as JSON` }));
      }
      const longRunning = HOST_LIMITS.longRunningMethods.includes(method);
      const timeoutMs = positive(requestOptions.timeoutMs, longRunning ? longRunningTimeoutMs : requestTimeoutMs);
      let timer: ReturnType<typeof setTimeout> | null = null;
      const onAbort = (): void => abandon(entry, aborted(method));
      const entry: Entry = {
        id: nextId,
        method,
        longRunning,
        message,
        internal,
        settled: false,
        connection: null,
        finish: (result) => {
          if (entry.settled) return;
          entry.settled = true;
          if (timer !== null) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
      };
      nextId += 1;
      const used = counts();
      const free = longRunning ? used.long < maxLong : used.short < maxShort;
      const waiting = (longRunning ? queue.long : queue.short).length > 0;
      if (free && !waiting) {
        if (!dispatch(entry)) return;
      } else if (queued() < maxQueued) {
        (longRunning ? queue.long : queue.short).push(entry);
      } else {
        return entry.finish(E.left(busy()));
      }
      timer = setTimeout(() => abandon(entry, timedOut(method, timeoutMs)), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  const request = <M extends HostMethod>(method: M, params: HostParamsOf<M>, requestOptions: RequestOptions = {}): Promise<E.Either<HostClientError, HostResultOf<M>>> =>
    call(method, params, requestOptions, false) as Promise<E.Either<HostClientError, HostResultOf<M>>>;

  /** The answer of a request: its result decoded with the method's codec, or the executor's error. */
  const answerOf = (entry: Entry, message: Record<string, unknown>): Answer => {
    const error = message['error'];
    if (error !== undefined) {
      if (!isRecord(error) || typeof error['code'] !== 'number' || typeof error['message'] !== 'string') {
        return E.left({ _tag: 'InvalidResult', method: entry.method, message: 'the error reply does not fit JSON-RPC (code and message)' });
      }
      const data = HostErrorData.decode(error['data']);
      return E.left({
        _tag: 'ExecutorError',
        code: error['code'],
        message: error['message'].slice(0, HOST_CLIENT_DEFAULTS.maxErrorMessageChars),
        data: E.isRight(data) ? (data.right.retryable === undefined ? { tag: data.right.tag } : { tag: data.right.tag, retryable: data.right.retryable }) : null,
      });
    }
    if (!('result' in message)) return E.left({ _tag: 'InvalidResult', method: entry.method, message: 'the response has neither result nor error' });
    const decoded = decodeHostResult(HostRequests[entry.method as HostMethod], message['result']);
    if (E.isLeft(decoded)) return E.left({ _tag: 'InvalidResult', method: entry.method, message: decoded.left.message });
    return E.right(decoded.right);
  };

  /** What the client learns from a result by itself: the runtime status, a reset of the stream. */
  const learn = (entry: Entry, answer: Answer): void => {
    if (E.isLeft(answer)) return;
    if (entry.method === 'executor/info') setStatus((answer.right as HostResultOf<'executor/info'>).runtime);
    if (entry.method === EventsSubscribe.method && !entry.internal) {
      const result = answer.right as Resumed;
      if (result.reset) {
        stream = subscribed(stream, result, false);
        notices.emit({ _tag: 'Reset', seq: result.seq });
      }
    }
  };

  const response = (message: Record<string, unknown>): void => {
    const id = message['id'];
    const entry = typeof id === 'number' ? inFlight.get(id) : undefined;
    if (entry === undefined || entry.connection !== connection) {
      if (id === null) violation('ErrorWithoutId', null, 'an error reply without an id (the executor could not read a message)');
      else violation('UnexpectedResponse', null, 'a response to no request in flight');
      return;
    }
    inFlight.delete(entry.id);
    if (!entry.settled) {
      const answer = answerOf(entry, message);
      learn(entry, answer);
      entry.finish(answer);
    }
    pump();
  };

  // ---- cards ----------------------------------------------------------------------------------------

  const replyError = (on: Connection, id: number | string, code: number, message: string, data?: HostErrorData): void =>
    void write(on, { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });

  const showCard = (on: Connection, id: number | string, params: unknown): void => {
    const decoded = CardShow.params.decode(params);
    if (E.isLeft(decoded)) {
      const described = describeDecodeErrors(decoded.left);
      violation('InvalidCard', CardShow.method, `card/show: ${described}`);
      return replyError(on, id, HostErrorCode.InvalidParams, `invalid params for card/show: ${described}`);
    }
    const handler = cardHandler;
    if (handler === null) return replyError(on, id, HostErrorCode.MethodNotFound, 'this host shows no cards');
    if (on.cards.size >= maxCards) return replyError(on, id, HostErrorCode.Overloaded, 'too many cards shown at once; retry later', { tag: 'Overloaded', retryable: true });
    const key = String(id);
    if (on.cards.has(key)) return replyError(on, id, HostErrorCode.InvalidRequest, 'a card with this request id is being answered', { tag: 'DuplicateRequestId' });
    const controller = new AbortController();
    const card = decoded.right.card;
    on.cards.set(key, { id, cardId: card.cardId, controller });
    const settle = (send: () => void): void => {
      if (on.cards.get(key)?.controller !== controller) return;
      on.cards.delete(key);
      if (controller.signal.aborted || on.closed) return;
      send();
    };
    const answer = (reply: HostReply): void =>
      settle(() => {
        if (reply === undefined || reply === null) return replyError(on, id, HostErrorCode.InternalError, 'the host gave no answer to the card');
        if (!write(on, { jsonrpc: '2.0', id, result: reply })) replyError(on, id, HostErrorCode.InternalError, 'the host could not answer the card');
      });
    const fail = (): void => settle(() => replyError(on, id, HostErrorCode.InternalError, 'the host could not answer the card'));
    let reply: HostReply | Promise<HostReply>;
    try {
      reply = handler(card, { signal: controller.signal });
    } catch {
      return fail();
    }
    if (isThenable(reply)) Promise.resolve(reply).then(answer, fail);
    else answer(reply);
  };

  /**
   * Ends a card the executor settled without the host: its handler's signal aborts, its answer is never
   * sent, and the request is answered -32800 (JSON-RPC's request-cancelled code) so the executor's side of
   * it is released. The executor cancels the request (`$/cancelRequest`) and sends `card/dismissed`;
   * whichever comes first ends the card.
   */
  const cancelCard = (on: Connection, key: string): void => {
    const shown = on.cards.get(key);
    if (shown === undefined) return;
    on.cards.delete(key);
    shown.controller.abort();
    if (!on.closed) replyError(on, shown.id, REQUEST_CANCELLED, 'the card was dismissed');
  };

  const dismissCard = (cardId: string): void => {
    const on = connection;
    if (on === null) return;
    for (const [key, shown] of [...on.cards]) if (shown.cardId === cardId) cancelCard(on, key);
  };

  /** `$/` notifications are JSON-RPC's own: `$/cancelRequest` of a card ends it; the others are ignored. */
  const jsonRpcNotification = (on: Connection, method: string, params: unknown): void => {
    if (method !== '$/cancelRequest' || !isRecord(params)) return;
    const { id } = params;
    if (typeof id === 'number' || typeof id === 'string') cancelCard(on, String(id));
  };

  // ---- notifications --------------------------------------------------------------------------------

  const setStatus = (status: RuntimeStatus): void => {
    latestStatus = status;
    statuses.emit(status);
  };

  const deliver = (event: HostEvent): void => {
    if (event.method === 'runtime/status') setStatus(event.params);
    if (event.method === 'card/dismissed') dismissCard(event.params.cardId);
    byMethod.get(event.method)?.emit(event.params);
    events.emit(event);
    for (const waiter of [...waiters]) waiter(event);
  };

  const notification = (method: string, params: unknown): void => {
    const known = own(HostNotifications, method);
    const sequenced = Sequenced.decode(params);
    if (E.isLeft(sequenced)) {
      violation('InvalidNotification', known ? method : null, `${known ? method : 'a notification'}: ${describeDecodeErrors(sequenced.left)}`);
      return;
    }
    const seq = sequenced.right.seq;
    const [next, step] = takeEvent(stream, seq);
    stream = next;
    if (step._tag === 'Duplicate') return notices.emit({ _tag: 'Duplicate', seq, method, params });
    if (step._tag === 'Gap') {
      notices.emit({ _tag: 'Gap', seq, cursor: stream.cursor });
      if (step.resubscribe) void resubscribe();
      return;
    }
    if (!known) return violation('UnknownNotification', null, 'a notification the protocol does not know');
    const descriptor = HostNotifications[method as HostNotificationMethod];
    const decoded = decodeHostNotification(descriptor, params);
    if (E.isLeft(decoded)) return violation('InvalidNotification', method, `${method}: ${decoded.left.message}`);
    deliver({ method, params: decoded.right } as HostEvent);
  };

  /** After a gap: ask for what is missing (it arrives in order before the answer). */
  const resubscribe = async (): Promise<void> => {
    const answer = await call(EventsSubscribe.method, { after: stream.cursor }, {}, true);
    if (E.isLeft(answer)) {
      stream = subscribeFailed(stream);
      return;
    }
    const result = answer.right as Resumed;
    stream = subscribed(stream, result, false);
    if (result.reset) {
      notices.emit({ _tag: 'Reset', seq: result.seq });
      resumes.emit({ reset: true, seq: result.seq });
    }
  };

  // ---- incoming -------------------------------------------------------------------------------------

  const receive = (on: Connection, text: string): void => {
    if (on !== connection || on.closed) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return violation('NotJson', null, 'a message that is not JSON');
    }
    // `jsonrpc` may be left out (as Codex's own framing does); when present it must be "2.0".
    if (!isRecord(message) || ('jsonrpc' in message && message['jsonrpc'] !== '2.0')) return violation('NotJsonRpc', null, 'a message that is not JSON-RPC 2.0');
    observe('toHost', message);
    const { id, method } = message;
    if (typeof method === 'string') {
      if (typeof id === 'number' || typeof id === 'string') {
        if (method === CardShow.method) return showCard(on, id, message['params']);
        violation('UnknownRequest', null, 'a request the protocol does not know');
        return replyError(on, id, HostErrorCode.MethodNotFound, 'this host answers card/show only');
      }
      if (id === undefined) return method.startsWith('$/') ? jsonRpcNotification(on, method, message['params']) : notification(method, message['params']);
      return violation('NotJsonRpc', null, 'a request whose id is neither a string nor a number');
    }
    if ('id' in message && ('result' in message || 'error' in message)) return response(message);
    violation('NotJsonRpc', null, 'a message that is no request, notification or response');
  };

  // ---- connections ----------------------------------------------------------------------------------

  /** The connection `on` ended: what was in flight on it fails, its cards are aborted, a reconnect is planned. */
  const ended = (on: Connection): void => {
    if (on.closed) return;
    on.closed = true;
    for (const shown of on.cards.values()) shown.controller.abort();
    on.cards.clear();
    if (connection === on) connection = null;
    for (const entry of [...inFlight.values()]) {
      if (entry.connection !== on) continue;
      inFlight.delete(entry.id);
      entry.finish(E.left(disconnected(closed ? 'the client is closed' : 'the connection to the executor dropped')));
    }
    for (const entry of [...queue.short, ...queue.long]) entry.finish(E.left(disconnected(closed ? 'the client is closed' : 'the connection to the executor dropped')));
    queue.short.length = 0;
    queue.long.length = 0;
    stream = subscribeFailed(stream);
    for (const listener of on.closedListeners.splice(0)) listener();
    if (closed || manual) return;
    if (reconnectPolicy === null) return setState('disconnected');
    setState('reconnecting');
    scheduleReconnect();
  };

  const scheduleReconnect = (): void => {
    if (reconnectPolicy === null || closed || reconnectTimer !== null) return;
    if (attempts >= reconnectPolicy.maxAttempts) return setState('disconnected');
    const delay = reconnectDelay(attempts, reconnectPolicy);
    attempts += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void open(undefined);
    }, delay);
  };

  /** Opens a connection and resumes; resolves with the subscribe's answer (or a plain success without one). */
  const open = (after: number | undefined, resume = true): Promise<E.Either<HostClientError | ConnectError, Resumed | null>> =>
    new Promise((resolve) => {
      if (closed) return resolve(E.left(connectError('Aborted', 'the client is closed')));
      attemptController?.abort();
      const controller = new AbortController();
      attemptController = controller;
      let settled = false;
      let opened: Connection | null = null;
      const fail = (error: ConnectError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (attemptController === controller) attemptController = null;
        resolve(E.left(error));
        if (closed || manual) return;
        if (reconnectPolicy === null) return setState('disconnected');
        setState(current === 'connecting' ? 'connecting' : 'reconnecting');
        scheduleReconnect();
      };
      const timer = setTimeout(() => {
        controller.abort();
        fail(connectError('TimedOut', `the connection did not open within ${connectTimeoutMs} ms`));
      }, connectTimeoutMs);
      try {
        options.connect(
          {
            onOpen: (transport) => {
              if (settled || controller.signal.aborted || closed) return transport.close();
              settled = true;
              clearTimeout(timer);
              if (attemptController === controller) attemptController = null;
              attempts = 0;
              const on: Connection = { transport, closed: false, closedListeners: [], cards: new Map() };
              opened = on;
              connection = on;
              if (!resume) {
                setState('open');
                return resolve(E.right(null));
              }
              void resumeOn(on, after).then(resolve);
            },
            onFailed: fail,
            onMessage: (text) => {
              if (opened !== null) receive(opened, text);
            },
            onClose: () => {
              if (opened !== null) ended(opened);
            },
            onRefused: (what) => violation(what, null, what === 'TooLarge' ? 'a message over the size bound was dropped unread' : 'a message that is not text was dropped'),
          },
          controller.signal,
        );
      } catch {
        fail(connectError('Failed', 'the connection could not be opened'));
      }
    });

  /** `events/subscribe { after }` then `cards/pending` on a new connection. */
  const resumeOn = async (on: Connection, after: number | undefined): Promise<E.Either<HostClientError, Resumed>> => {
    const fresh = after === undefined && stream.cursor === 0;
    stream = subscribing(stream);
    const answer = await call(EventsSubscribe.method, fresh ? {} : { after: after ?? stream.cursor }, {}, true);
    if (E.isLeft(answer)) {
      stream = subscribeFailed(stream);
      if (connection === on) setState('open');
      return answer;
    }
    const result = answer.right as Resumed;
    stream = subscribed(stream, result, fresh);
    if (result.reset) notices.emit({ _tag: 'Reset', seq: result.seq });
    if (connection === on) setState('open');
    resumes.emit(result);
    const pending = await call(CardsPending.method, {}, {}, true);
    if (E.isRight(pending)) pendings.emit((pending.right as HostResultOf<'cards/pending'>).cards);
    return E.right(result);
  };

  const closeConnection = (on: Connection): Promise<void> =>
    new Promise((resolve) => {
      if (on.closed) return resolve();
      on.closedListeners.push(resolve);
      try {
        on.transport.close();
      } catch {
        ended(on);
      }
    });

  const subscriptionRequest = async (method: 'events/subscribe' | 'events/unsubscribe'): Promise<E.Either<HostClientError, void>> => {
    const answer = method === 'events/subscribe' ? await request(method, { after: stream.cursor }) : await request(method, {});
    return E.isLeft(answer) ? answer : E.right(undefined);
  };

  return {
    start: async () => {
      if (started) return connection === null ? E.left(connectError('Failed', 'not connected')) : E.right(undefined);
      started = true;
      current = 'connecting';
      states.emit('connecting');
      const opened = await open(undefined, resumeOnConnect);
      if (E.isRight(opened)) return E.right(undefined);
      return opened.left._tag === 'ConnectError' ? E.left(opened.left) : E.right(undefined);
    },
    request,
    onCard: (handler) => {
      cardHandler = handler;
      return () => {
        if (cardHandler === handler) cardHandler = null;
      };
    },
    onNotification: (method, listener) => {
      const set = byMethod.get(method) ?? new Listeners<unknown>();
      byMethod.set(method, set);
      return set.add(listener as (params: unknown) => void);
    },
    onEvent: (listener) => events.add(listener),
    nextNotification: (method, match = () => true, waitOptions = {}) =>
      new Promise((resolve) => {
        if (closed) return resolve(E.left(disconnected('the client is closed')));
        if (waiters.size >= maxWaiters) return resolve(E.left(busy('too many notification waits at once')));
        if (waitOptions.signal?.aborted === true) return resolve(E.left(aborted(method)));
        const timeoutMs = positive(waitOptions.timeoutMs, 60_000);
        const stop = (result: E.Either<WaitError, HostNotificationParamsOf<typeof method>>): void => {
          waiters.delete(waiter);
          waiterStops.delete(closeWait);
          clearTimeout(timer);
          waitOptions.signal?.removeEventListener('abort', onAbort);
          resolve(result);
        };
        const waiter = (event: HostEvent): void => {
          if (event.method !== method) return;
          let matched = false;
          try {
            matched = match(event.params as HostNotificationParamsOf<typeof method>);
          } catch {
            matched = false;
          }
          if (matched) stop(E.right(event.params as HostNotificationParamsOf<typeof method>));
        };
        const onAbort = (): void => stop(E.left(aborted(method)));
        const closeWait = (): void => stop(E.left(disconnected('the client is closed')));
        const timer = setTimeout(() => stop(E.left({ _tag: 'TimedOut', method, timeoutMs, message: `no ${method} notification within ${timeoutMs} ms` })), timeoutMs);
        waiters.add(waiter);
        waiterStops.add(closeWait);
        waitOptions.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    runtimeStatus: () => latestStatus,
    onRuntimeStatus: (listener) => statuses.add(listener),
    state: () => current,
    onStateChange: (listener) => states.add(listener),
    onResumed: (listener) => resumes.add(listener),
    onPendingCards: (listener) => pendings.add(listener),
    onViolation: (listener) => violations.add(listener),
    onStreamNotice: (listener) => notices.add(listener),
    lastSeq: () => stream.cursor,
    addSubscriber: async (subscriber) => {
      const [next, action] = addSubscription(subscription, subscriber);
      subscription = next;
      return action === 'open' ? subscriptionRequest('events/subscribe') : E.right(undefined);
    },
    removeSubscriber: async (subscriber) => {
      const [next, action] = removeSubscription(subscription, subscriber);
      subscription = next;
      return action === 'close' ? subscriptionRequest('events/unsubscribe') : E.right(undefined);
    },
    drop: async () => {
      if (connection !== null) await closeConnection(connection);
    },
    reconnect: async (reconnectOptions = {}) => {
      if (closed) return E.left(disconnected('the client is closed'));
      if (reconnectTimer !== null) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      manual = true;
      try {
        if (connection !== null) await closeConnection(connection);
        if (current !== 'connecting') setState('reconnecting');
        const opened = await open(reconnectOptions.after);
        if (E.isLeft(opened)) {
          setState(reconnectPolicy === null ? 'disconnected' : 'reconnecting');
          return opened;
        }
        return E.right(opened.right ?? { reset: false, seq: stream.cursor });
      } finally {
        manual = false;
        if (connection === null && !closed && reconnectPolicy !== null) scheduleReconnect();
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      if (reconnectTimer !== null) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      attemptController?.abort();
      const on = connection;
      if (on !== null) await closeConnection(on);
      for (const entry of [...queue.short, ...queue.long, ...inFlight.values()]) entry.finish(E.left(disconnected('the client is closed')));
      queue.short.length = 0;
      queue.long.length = 0;
      inFlight.clear();
      for (const stop of [...waiterStops]) stop();
      setState('closed');
    },
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegative(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
}
