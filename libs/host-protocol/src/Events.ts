/**
 * The replayable event stream: every notification the executor sends to its hosts carries a `seq`
 * (1, 2, 3, ... for the executor's lifetime, top level in the params), and the executor keeps the
 * latest ones in a bounded {@link EventLog} so that a host that lost its connection asks
 * `events/subscribe { after: <last seq it saw> }` and receives exactly what it missed — or
 * `{ reset: true }` when its cursor fell out of the buffer and it must reload its state.
 *
 * The same module serves the host: {@link acceptEvent} drops what a host already saw (duplicates) and
 * notices a gap, and {@link SharedSubscription} lets one connection serve every subscriber of a window
 * (the last unsubscribe ends it).
 *
 * Every function is pure: a log (or cursor, or subscription) and an input in, the next one and an
 * outcome out. Nothing here reads a clock or touches a connection.
 */
import * as t from 'io-ts';
import { constrainedNumber } from './Constrained.js';
import { requestDescriptor } from './Descriptor.js';

/** How many events the executor keeps for replay at most. */
export const EVENT_LOG_MAX_EVENTS = 1024;
/** How many characters of JSON params the executor keeps for replay at most (about 8 MiB). */
export const EVENT_LOG_MAX_CHARS = 8 * 1024 * 1024;

/** The bounds of an {@link EventLog}: at most `maxEvents` events and `maxChars` characters of JSON params (the newest event is kept even when it alone is larger). */
export interface EventLogBounds {
  readonly maxEvents: number;
  readonly maxChars: number;
}

/** One event of the stream: a notification and its sequence number. */
export interface SequencedEvent {
  readonly seq: number;
  readonly method: string;
  /** The notification's params, `seq` included. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The length of the params' JSON, counted against `maxChars`. */
  readonly size: number;
}

/** The executor's event log: the next sequence number and the newest events, oldest first. */
export interface EventLog {
  readonly bounds: EventLogBounds;
  /** The `seq` the next event gets; the last one sent is `nextSeq - 1` (0: none yet). */
  readonly nextSeq: number;
  readonly events: ReadonlyArray<SequencedEvent>;
  /** The sum of the kept events' `size`. */
  readonly chars: number;
}

/**
 * Where a log's events are kept: `buffer[start]` to `buffer[end - 1]`. A log and the logs appended from
 * it share one buffer, and an append pushes onto it when nothing was pushed past the log's end (which
 * no earlier log sees), so appending costs the same whatever the log holds; an append to a log that
 * was already appended to copies its events first. The buffer is copied down once the dropped events
 * before `start` outnumber the kept ones, so it holds at most twice the kept events.
 */
interface Stored {
  readonly buffer: SequencedEvent[];
  readonly start: number;
  readonly end: number;
}

const storedOf = new WeakMap<EventLog, Stored>();

const makeLog = (bounds: EventLogBounds, nextSeq: number, chars: number, stored: Stored): EventLog => {
  let events: ReadonlyArray<SequencedEvent> | undefined;
  const log: EventLog = {
    bounds,
    nextSeq,
    get events() {
      return (events ??= stored.buffer.slice(stored.start, stored.end));
    },
    chars,
  };
  storedOf.set(log, stored);
  return log;
};

/** The events of `log` where they are kept (a log not made here: its `events`). */
const storedEvents = (log: EventLog): Stored => storedOf.get(log) ?? { buffer: [...log.events], start: 0, end: log.events.length };

/**
 * An empty log; the first event gets `seq` 1.
 * @example
 * ```ts
 * const log = emptyEventLog();
 * const [next, event] = appendEvent(log, 'transcript/turnStarted', { taskId: 't', threadId: 'th', turnId: 'u' });
 * // event.params.seq === 1; replayAfter(next, 0) is { _tag: 'Replay', events: [event] }
 * ```
 */
export const emptyEventLog = (bounds: EventLogBounds = { maxEvents: EVENT_LOG_MAX_EVENTS, maxChars: EVENT_LOG_MAX_CHARS }): EventLog =>
  makeLog({ maxEvents: Math.max(1, bounds.maxEvents), maxChars: Math.max(0, bounds.maxChars) }, 1, 0, { buffer: [], start: 0, end: 0 });

/** The last `seq` given out (0 before the first event). */
export const lastSeq = (log: EventLog): number => log.nextSeq - 1;

/**
 * Appends a notification: it gets the next `seq` (added to its params at the top level, replacing any
 * `seq` they had), and the oldest events leave the log while it is over its bounds.
 */
export function appendEvent(log: EventLog, method: string, params: Readonly<Record<string, unknown>>): readonly [EventLog, SequencedEvent] {
  const seq = log.nextSeq;
  const withSeq = { ...params, seq };
  const event: SequencedEvent = { seq, method, params: withSeq, size: JSON.stringify(withSeq).length };
  const kept = storedEvents(log);
  // Pushing onto a buffer that holds events past this log's end would overwrite what another log sees.
  let buffer = kept.buffer.length === kept.end ? kept.buffer : kept.buffer.slice(kept.start, kept.end);
  let start = buffer === kept.buffer ? kept.start : 0;
  buffer.push(event);
  let chars = log.chars + event.size;
  while (buffer.length - start > 1 && (buffer.length - start > log.bounds.maxEvents || chars > log.bounds.maxChars)) {
    chars -= buffer[start]?.size ?? 0;
    start += 1;
  }
  if (start > buffer.length - start) {
    buffer = buffer.slice(start);
    start = 0;
  }
  return [makeLog(log.bounds, seq + 1, chars, { buffer, start, end: buffer.length }), event];
}

/** What a cursor gets: the events after it, in order, or a reset (what it missed is no longer kept). */
export type Replay = { readonly _tag: 'Replay'; readonly events: ReadonlyArray<SequencedEvent> } | { readonly _tag: 'Reset' };

/**
 * The events a host with cursor `after` (the last `seq` it saw) missed, oldest first: those with
 * `after < seq < until` (`until` defaults to the next `seq`; a connection that already receives events
 * live from `until` on needs only those before). A reset when one of them left the buffer, or when the
 * cursor is ahead of the log (a cursor of an earlier executor run).
 */
export function replayAfter(log: EventLog, after: number, until: number = log.nextSeq): Replay {
  if (!Number.isSafeInteger(after) || after < 0 || after > lastSeq(log)) return { _tag: 'Reset' };
  const end = Math.min(until, log.nextSeq);
  if (after + 1 >= end) return { _tag: 'Replay', events: [] };
  const oldest = log.events[0]?.seq ?? log.nextSeq;
  if (after + 1 < oldest) return { _tag: 'Reset' };
  return { _tag: 'Replay', events: log.events.filter((event) => event.seq > after && event.seq < end) };
}

/**
 * What `events/subscribe { after }` replays to a connection that has received the stream live from
 * `liveFrom` on (the first `seq` sent to it live; `null` when it does not receive the stream).
 *
 * - A cursor before the connection's start (a host that reconnected): the events before `liveFrom`,
 *   since the later ones arrived live — each event once.
 * - A cursor at or past it: the host saw a gap in this connection's own stream and dropped what came
 *   after it (events that arrived during its reconnect, before its first subscribe was answered, say),
 *   so every event after the cursor again; a host drops those it kept by `seq` ({@link acceptEvent}).
 * - Not receiving the stream: every event after the cursor.
 *
 * @example
 * ```ts
 * replayForSubscriber(log, 3, 7); // the events 4..6 (7 and later arrived live)
 * replayForSubscriber(log, 6, 7); // the events 7..last again: the host lost some of its live stream
 * ```
 */
export const replayForSubscriber = (log: EventLog, after: number, liveFrom: number | null): Replay =>
  replayAfter(log, after, liveFrom === null || after >= liveFrom - 1 ? log.nextSeq : liveFrom);

/** What a host makes of an event's `seq`, given the last one it saw. */
export type Acceptance = 'next' | 'duplicate' | 'gap';

/**
 * A host's check of an arriving event against its cursor (the last `seq` it saw, 0 for none): `next`
 * (exactly the one after: take it and move the cursor), `duplicate` (already seen: drop it), `gap`
 * (some were missed: subscribe again with the cursor, or reload).
 */
export const acceptEvent = (cursor: number, seq: number): Acceptance => (seq === cursor + 1 ? 'next' : seq <= cursor ? 'duplicate' : 'gap');

/** The subscribers of a window sharing one event connection, and the cursor that connection resumes from. */
export interface SharedSubscription {
  readonly subscribers: ReadonlyArray<string>;
  /** The last `seq` seen on the shared connection (0: none). */
  readonly cursor: number;
}

/** What the window does after a subscribe or an unsubscribe: open the one connection (first subscriber), close it (last one gone), or nothing. */
export type SubscriptionAction = 'open' | 'close' | 'none';

/** No subscribers yet; the first subscribe opens the connection (resuming after `cursor`). */
export const emptySubscription = (cursor = 0): SharedSubscription => ({ subscribers: [], cursor });

/** Adds a subscriber; the first one opens the shared connection. Subscribing twice is one subscription. */
export function subscribe(state: SharedSubscription, subscriber: string): readonly [SharedSubscription, SubscriptionAction] {
  if (state.subscribers.includes(subscriber)) return [state, 'none'];
  return [{ ...state, subscribers: [...state.subscribers, subscriber] }, state.subscribers.length === 0 ? 'open' : 'none'];
}

/** Removes a subscriber; the last one closes the shared connection (the cursor is kept for the next open). */
export function unsubscribe(state: SharedSubscription, subscriber: string): readonly [SharedSubscription, SubscriptionAction] {
  if (!state.subscribers.includes(subscriber)) return [state, 'none'];
  const subscribers = state.subscribers.filter((s) => s !== subscriber);
  return [{ ...state, subscribers }, subscribers.length === 0 ? 'close' : 'none'];
}

/** Moves the shared cursor past an event that arrived in order (duplicates and gaps leave it). */
export const advanceCursor = (state: SharedSubscription, seq: number): SharedSubscription => (acceptEvent(state.cursor, seq) === 'next' ? { ...state, cursor: seq } : state);

const Seq = constrainedNumber({ integer: true, minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, 'Seq');

/** The `seq` every notification of the executor carries, at the top level of its params. */
export const Sequenced = t.type({ seq: Seq }, 'Sequenced');
/** See the codec {@link Sequenced}. */
export type Sequenced = t.TypeOf<typeof Sequenced>;

/**
 * `events/subscribe`: this connection receives the event stream; with `after`, first the events after
 * that `seq` (as notifications, in order, before the result) — or `reset: true` when they are no longer
 * kept. `seq` is the last one given out when the subscription took effect.
 */
export const EventsSubscribe = requestDescriptor('events/subscribe', t.partial({ after: Seq }), t.type({ reset: t.boolean, seq: t.number }));
/** `events/unsubscribe`: this connection stops receiving notifications (requests and cards go on). */
export const EventsUnsubscribe = requestDescriptor('events/unsubscribe', t.type({}), t.type({}));
/** A card still waiting for the host's answer: which card, of which thread (the card itself comes with `card/show`). */
export const PendingCard = t.type(
  {
    cardId: t.string,
    origin: t.keyof({ mcpElicitation: null, requestUserInput: null, commandApproval: null, fileChangeApproval: null, permissionsApproval: null }),
    threadId: t.string,
  },
  'PendingCard',
);
/** See the codec {@link PendingCard}. */
export type PendingCard = t.TypeOf<typeof PendingCard>;

/** `cards/pending`: the cards still waiting for an answer; those whose host connection closed are shown to this connection again with `card/show` (same `cardId`). */
export const CardsPending = requestDescriptor('cards/pending', t.type({}), t.type({ cards: t.readonlyArray(PendingCard) }));
