/**
 * The browser's connection to the executor: `@wework/host-client` over the page's WebSocket with the
 * launch token as its subprotocol. The client does the protocol (framing, request ids, decoding by
 * method, the event cursor, a gap answered by subscribing again, the bounded reconnect backoff, the
 * resume with `events/subscribe { after }` and `cards/pending`); this module hands what it tells to the
 * app as the page's callbacks, and turns its error values into the page's {@link RequestError}.
 *
 * Bounds: at most {@link MAX_PENDING} requests in flight (the executor's per-connection bound; one more
 * is refused at once rather than queued, so a click never waits behind others), and reconnects back off
 * from 250 ms to 5 s.
 */
import * as E from 'fp-ts/lib/Either.js';
import { browserWebSocketTransport, createHostClient, describeHostClientError, type HostClient as ProtocolClient, type HostClientError, type HostEvent } from '@wework/host-client';
import { HOST_LIMITS, type HostCard, type HostMethod, type HostParamsOf, type HostReply, type HostResultOf } from '@wework/host-protocol';

/** Requests in flight on the connection at most (the executor answers more with -32011). */
export const MAX_PENDING = HOST_LIMITS.maxRequestsPerConnection;

/** A request that did not succeed: the executor's error reply, or a local reason. */
export type RequestError =
  /** The executor answered an error (`code` is the wire code). */
  | { readonly _tag: 'Rejected'; readonly code: number; readonly message: string }
  /** There was no connection, it dropped before the answer, or no answer came in time. */
  | { readonly _tag: 'Disconnected'; readonly message: string }
  /** {@link MAX_PENDING} requests are already in flight. */
  | { readonly _tag: 'Busy'; readonly message: string }
  /** The executor's result does not fit the protocol. */
  | { readonly _tag: 'Misfit'; readonly message: string };

/** What the client tells the app. */
export interface HostClientEvents {
  readonly onState: (state: 'connecting' | 'open' | 'reconnecting' | 'closed') => void;
  readonly onEvent: (event: HostEvent) => void;
  /** A card to show; `respond` answers it once (later calls do nothing; after a drop or a dismissal it does nothing). */
  readonly onCard: (card: HostCard, respond: (reply: HostReply) => void) => void;
  /** After (re)connecting: `reset` when the executor no longer had what this page missed (reload the state). */
  readonly onResumed: (reset: boolean) => void;
  /** After (re)connecting: the ids of the cards still waiting (a card shown before and not among them was settled meanwhile). */
  readonly onPending: (cardIds: ReadonlyArray<string>) => void;
  /** Something from the executor that did not fit the protocol (where, never the value). */
  readonly onViolation?: (message: string) => void;
}

/** The page's shape of a failed request. */
function requestError(error: HostClientError): RequestError {
  switch (error._tag) {
    case 'ExecutorError':
      return { _tag: 'Rejected', code: error.code, message: error.message };
    case 'InvalidRequest':
      return { _tag: 'Rejected', code: -32602, message: error.message };
    case 'InvalidResult':
      return { _tag: 'Misfit', message: describeHostClientError(error) };
    case 'Busy':
      return { _tag: 'Busy', message: error.message };
    case 'Disconnected':
    case 'TimedOut':
    case 'Aborted':
      return { _tag: 'Disconnected', message: error.message };
  }
}

/** A connection to the executor that reconnects by itself until {@link HostClient.close}. */
export class HostClient {
  private readonly client: ProtocolClient;

  constructor(url: string, token: string, events: HostClientEvents) {
    this.client = createHostClient({ connect: browserWebSocketTransport(url, token), maxRequestsInFlight: MAX_PENDING, maxQueued: 0 });
    this.client.onStateChange((state) => {
      if (state === 'open' || state === 'connecting' || state === 'reconnecting' || state === 'closed') events.onState(state);
    });
    this.client.onEvent((event) => events.onEvent(event));
    this.client.onResumed((resumed) => events.onResumed(resumed.reset));
    this.client.onPendingCards((cards) => events.onPending(cards.map((card) => card.cardId)));
    this.client.onViolation((violation) => events.onViolation?.(violation.message));
    this.client.onCard(
      (card, { signal }) =>
        new Promise<HostReply>((resolve) => {
          events.onCard(card, (reply) => {
            if (!signal.aborted) resolve(reply);
          });
        }),
    );
  }

  /** Opens the connection. */
  start(): void {
    void this.client.start();
  }

  /** Closes the connection for good; requests in flight are answered with a local error. */
  close(): void {
    void this.client.close();
  }

  /** The last `seq` taken from the event stream. */
  lastSeq(): number {
    return this.client.lastSeq();
  }

  /** Drops the connection as a network failure would (it is opened again with the cursor). For tests and the "reconnect" control. */
  drop(): void {
    void this.client.drop();
  }

  /** Sends a request of the protocol; resolves with its decoded result or an error, never rejects. */
  async request<M extends HostMethod>(method: M, params: HostParamsOf<M>): Promise<E.Either<RequestError, HostResultOf<M>>> {
    return E.mapLeft(requestError)(await this.client.request(method, params));
  }
}
