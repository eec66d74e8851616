/**
 * The browser's connection to the executor: JSON-RPC 2.0 over one WebSocket, authenticated with the
 * launch token as the WebSocket subprotocol (a browser cannot set headers). Requests are built and
 * their results decoded with `@wework/host-protocol`; every notification is checked against the event
 * cursor (`acceptEvent`: duplicates dropped, a gap answered by subscribing again) and decoded with its
 * codec; `card/show` is handed to the app with a one-shot responder. A dropped connection is opened
 * again with a bounded backoff and resumed with `events/subscribe { after: cursor }`, then
 * `cards/pending`, so the cards still waiting are shown again.
 *
 * Bounds: at most {@link MAX_PENDING} requests in flight (the executor's per-connection bound), frames
 * over {@link MAX_FRAME_CHARS} are dropped unread, and reconnects back off from 250 ms to 5 s.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  acceptEvent,
  CardShow,
  CardsPending,
  decodeHostNotification,
  decodeHostResult,
  EventsSubscribe,
  HostErrorCode,
  HostNotifications,
  hostRequest,
  HostRequests,
  type HostMethod,
  type HostNotificationMethod,
  type HostNotificationParamsOf,
  type HostParamsOf,
  type HostReply,
  type HostResultOf,
} from '@wework/host-protocol';

/** Requests in flight on the connection at most (the executor answers more with -32011). */
export const MAX_PENDING = 32;
/** The longest frame read (the executor's message bound, 8 MiB, in UTF-16 units as a bound on characters). */
export const MAX_FRAME_CHARS = 8 * 1024 * 1024;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;

/** A request that did not succeed: the executor's error reply, or a local reason. */
export type RequestError =
  /** The executor answered an error (`code` is the wire code). */
  | { readonly _tag: 'Rejected'; readonly code: number; readonly message: string }
  /** There was no connection, or it dropped before the answer. */
  | { readonly _tag: 'Disconnected'; readonly message: string }
  /** {@link MAX_PENDING} requests are already in flight. */
  | { readonly _tag: 'Busy'; readonly message: string }
  /** The executor's result does not fit the protocol. */
  | { readonly _tag: 'Misfit'; readonly message: string };

/** A decoded notification, by method. */
export type HostEvent = { [M in HostNotificationMethod]: { readonly method: M; readonly params: HostNotificationParamsOf<M> } }[HostNotificationMethod];

/** What the client tells the app. */
export interface HostClientEvents {
  readonly onState: (state: 'connecting' | 'open' | 'reconnecting' | 'closed') => void;
  readonly onEvent: (event: HostEvent) => void;
  /** A card to show; `respond` answers it once (later calls do nothing; after a drop it does nothing). */
  readonly onCard: (card: unknown, respond: (reply: HostReply) => void) => void;
  /** After (re)connecting: `reset` when the executor no longer had what this page missed (reload the state). */
  readonly onResumed: (reset: boolean) => void;
  /** After (re)connecting: the ids of the cards still waiting (a card shown before and not among them was settled meanwhile). */
  readonly onPending: (cardIds: ReadonlyArray<string>) => void;
  /** A notification whose params did not fit the protocol (its method and where, never the value). */
  readonly onViolation?: (message: string) => void;
}

interface Pending {
  readonly method: HostMethod;
  readonly resolve: (result: E.Either<RequestError, unknown>) => void;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A connection to the executor that reconnects by itself until {@link HostClient.close}. */
export class HostClient {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private cursor = 0;
  private attempts = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private resubscribing = false;
  /**
   * Whether the stream has no starting point yet: a new page (cursor 0) takes the stream from its
   * connection on, so its first event sets the cursor, and the answer to its first `events/subscribe`
   * (the last `seq` before it) does too. Without this every later event would look like a gap.
   */
  private unanchored = true;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly events: HostClientEvents,
  ) {}

  /** Opens the connection. */
  start(): void {
    this.open();
  }

  /** Closes the connection for good; requests in flight are answered with a local error. */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.socket?.close();
    this.failPending('the page closed its connection');
    this.events.onState('closed');
  }

  /** The last `seq` taken from the event stream. */
  lastSeq(): number {
    return this.cursor;
  }

  /** Drops the connection as a network failure would (it is opened again with the cursor). For tests and the "reconnect" control. */
  drop(): void {
    this.socket?.close(4000, 'dropped');
  }

  /** Sends a request of the protocol; resolves with its decoded result or an error, never rejects. */
  request<M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<E.Either<RequestError, HostResultOf<M>>> {
    const socket = this.socket;
    if (socket === null || socket.readyState !== WebSocket.OPEN) return Promise.resolve(E.left({ _tag: 'Disconnected', message: 'not connected to the executor' }));
    if (this.pending.size >= MAX_PENDING) return Promise.resolve(E.left({ _tag: 'Busy', message: 'too many requests in flight; try again' }));
    const id = this.nextId++;
    const descriptor = HostRequests[method];
    const message = hostRequest(descriptor as never, id, params as never);
    return new Promise((resolve) => {
      this.pending.set(id, { method, resolve: resolve as Pending['resolve'] });
      socket.send(JSON.stringify(message));
    });
  }

  private open(): void {
    this.events.onState(this.attempts === 0 ? 'connecting' : 'reconnecting');
    const socket = new WebSocket(this.url, [this.token]);
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      void this.resume();
    };
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string' || event.data.length > MAX_FRAME_CHARS) return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (isRecord(message)) this.receive(socket, message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failPending('the connection to the executor dropped');
      if (this.closed) return;
      this.events.onState('reconnecting');
      const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempts);
      this.attempts += 1;
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** After an open: the missed events (or a reset), then the cards still waiting. */
  private async resume(): Promise<void> {
    const fresh = this.cursor === 0;
    const subscribed = await this.request(EventsSubscribe.method, fresh ? {} : { after: this.cursor });
    if (E.isLeft(subscribed)) return;
    // A reset, or a new page's start: the stream goes on after the answered `seq` (never behind an event already taken).
    if (subscribed.right.reset || fresh) this.cursor = Math.max(fresh ? this.cursor : 0, subscribed.right.seq);
    this.unanchored = false;
    this.events.onState('open');
    this.events.onResumed(subscribed.right.reset);
    const pending = await this.request(CardsPending.method, {});
    if (E.isRight(pending)) this.events.onPending(pending.right.cards.map((card) => card.cardId));
  }

  private failPending(message: string): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.resolve(E.left({ _tag: 'Disconnected', message }));
  }

  private receive(socket: WebSocket, message: Record<string, unknown>): void {
    const { id, method } = message;
    if (typeof method === 'string' && (typeof id === 'number' || typeof id === 'string')) return this.serverRequest(socket, id, method, message['params']);
    if (typeof method === 'string') return this.notification(method, message['params']);
    if (typeof id !== 'number') return;
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    const error = message['error'];
    if (isRecord(error)) {
      pending.resolve(E.left({ _tag: 'Rejected', code: typeof error['code'] === 'number' ? error['code'] : HostErrorCode.InternalError, message: typeof error['message'] === 'string' ? error['message'] : 'the executor answered an error' }));
      return;
    }
    const decoded = decodeHostResult(HostRequests[pending.method], message['result']);
    pending.resolve(E.isRight(decoded) ? decoded : E.left({ _tag: 'Misfit', message: `the executor's answer does not fit the protocol: ${decoded.left.message}` }));
  }

  private serverRequest(socket: WebSocket, id: number | string, method: string, params: unknown): void {
    if (method !== CardShow.method) {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: HostErrorCode.MethodNotFound, message: 'this host answers card/show only' } }));
      return;
    }
    let answered = false;
    const respond = (reply: HostReply): void => {
      if (answered || socket.readyState !== WebSocket.OPEN) return;
      answered = true;
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, result: reply }));
    };
    this.events.onCard(isRecord(params) ? params['card'] : undefined, respond);
  }

  private notification(method: string, params: unknown): void {
    const seq = isRecord(params) ? params['seq'] : undefined;
    if (typeof seq === 'number' && this.unanchored && this.cursor === 0) {
      this.cursor = seq;
    } else if (typeof seq === 'number') {
      const verdict = acceptEvent(this.cursor, seq);
      if (verdict === 'duplicate') return;
      if (verdict === 'gap') {
        // Missed some: ask for them again (they arrive in order before the answer); this one comes again with them.
        if (this.resubscribing) return;
        this.resubscribing = true;
        void this.request(EventsSubscribe.method, { after: this.cursor }).then((r) => {
          this.resubscribing = false;
          if (E.isRight(r) && r.right.reset) {
            this.cursor = r.right.seq;
            this.events.onResumed(true);
          }
        });
        return;
      }
      this.cursor = seq;
    }
    if (!Object.hasOwn(HostNotifications, method)) return;
    const descriptor = HostNotifications[method as HostNotificationMethod];
    const decoded = decodeHostNotification(descriptor, params);
    if (E.isLeft(decoded)) {
      this.events.onViolation?.(`${method}: ${decoded.left.message}`);
      return;
    }
    this.events.onEvent({ method, params: decoded.right } as HostEvent);
  }
}
