/**
 * Laws of the event stream: a host that resumes from any cursor the log still covers receives every
 * event it missed exactly once and in order (no gap, no duplicate); a reset comes exactly when an event
 * after the cursor left the bounded buffer; a connection already live from `until` gets only the earlier
 * ones; a host that drops what comes after a gap and subscribes again — through drops, reconnects and
 * events arriving before its subscribe is answered — ends with every event once and in order; the host's
 * dedupe and the shared subscription's counting.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import {
  acceptEvent,
  appendEvent,
  emptyEventLog,
  emptySubscription,
  EventsSubscribe,
  lastSeq,
  replayForSubscriber,
  subscribe,
  unsubscribe,
  type EventLog,
  type SharedSubscription,
} from '../src/index.js';
import { advanceCursor, replayAfter, type SequencedEvent } from '../src/Events.js';

const bounds = fc.record({ maxEvents: fc.integer({ min: 1, max: 20 }), maxChars: fc.integer({ min: 0, max: 2_000 }) });
const notification = fc.record({ method: fc.constantFrom('transcript/item', 'card/dismissed', 'runtime/status'), params: fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 40 }), { maxKeys: 3 }) });

function build(b: { maxEvents: number; maxChars: number }, notifications: ReadonlyArray<{ method: string; params: Record<string, unknown> }>): { log: EventLog; all: SequencedEvent[] } {
  let log = emptyEventLog(b);
  const all: SequencedEvent[] = [];
  for (const n of notifications) {
    const [next, event] = appendEvent(log, n.method, n.params);
    log = next;
    all.push(event);
  }
  return { log, all };
}

describe('EventLog', () => {
  it('numbers events 1, 2, 3, ... and puts the seq at the top level of the params', () => {
    fc.assert(
      fc.property(bounds, fc.array(notification, { maxLength: 60 }), (b, ns) => {
        const { log, all } = build(b, ns);
        expect(all.map((e) => e.seq)).toEqual(ns.map((_n, i) => i + 1));
        for (const [i, e] of all.entries()) expect(e.params).toEqual({ ...ns[i]?.params, seq: i + 1 });
        expect(lastSeq(log)).toBe(ns.length);
      }),
    );
  });

  it('stays within its bounds (the newest event is always kept) and keeps a contiguous tail', () => {
    fc.assert(
      fc.property(bounds, fc.array(notification, { maxLength: 60 }), (b, ns) => {
        const { log, all } = build(b, ns);
        expect(log.events.length).toBeLessThanOrEqual(b.maxEvents);
        if (log.events.length > 1) expect(log.chars).toBeLessThanOrEqual(b.maxChars);
        expect(log.chars).toBe(log.events.reduce((sum, e) => sum + e.size, 0));
        expect(log.events).toEqual(all.slice(all.length - log.events.length));
        if (ns.length > 0) expect(log.events.at(-1)?.seq).toBe(ns.length);
      }),
    );
  });

  it('replays after a cursor every missed event once, in order, or resets exactly when one left the buffer', () => {
    fc.assert(
      fc.property(bounds, fc.array(notification, { maxLength: 60 }), fc.nat(70), (b, ns, after) => {
        const { log, all } = build(b, ns);
        const replay = replayAfter(log, after);
        const oldest = log.events[0]?.seq ?? log.nextSeq;
        const shouldReset = after > ns.length || (after < ns.length && after + 1 < oldest);
        expect(replay._tag === 'Reset').toBe(shouldReset);
        if (replay._tag === 'Replay') {
          expect(replay.events).toEqual(all.filter((e) => e.seq > after));
          // The host's cursor walks through them with no gap and no duplicate.
          let cursor = after;
          for (const e of replay.events) {
            expect(acceptEvent(cursor, e.seq)).toBe('next');
            cursor = e.seq;
          }
          expect(cursor).toBe(lastSeq(log));
        }
      }),
    );
  });

  it('a connection live from `until` gets only the events before it: together no gap and no duplicate', () => {
    fc.assert(
      fc.property(bounds, fc.array(notification, { minLength: 1, maxLength: 60 }), fc.nat(60), fc.nat(60), (b, ns, a, u) => {
        const { log, all } = build(b, ns);
        const after = Math.min(a, ns.length);
        const until = Math.min(u, ns.length) + 1;
        const replay = replayAfter(log, after, until);
        if (replay._tag === 'Reset') {
          expect(after + 1).toBeLessThan(log.events[0]?.seq ?? log.nextSeq);
          return;
        }
        const live = all.filter((e) => e.seq >= until);
        const seen = [...replay.events, ...live].map((e) => e.seq).filter((seq) => seq > after);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.sort((x, y) => x - y)).toEqual(all.filter((e) => e.seq > after).map((e) => e.seq));
      }),
    );
  });

  it('leaves a log as it was when it is appended to, even twice (each append its own log)', () => {
    fc.assert(
      fc.property(bounds, fc.array(notification, { maxLength: 40 }), notification, notification, fc.array(notification, { maxLength: 20 }), (b, ns, x, y, more) => {
        const { log, all } = build(b, ns);
        const before = [...log.events];
        const [withX, eventX] = appendEvent(log, x.method, x.params);
        const [withY, eventY] = appendEvent(log, y.method, y.params);
        let longer = withX;
        for (const n of more) longer = appendEvent(longer, n.method, n.params)[0];
        expect(log.events).toEqual(before);
        expect(eventX.seq).toBe(eventY.seq);
        expect(withY.events).toEqual(build(b, [...ns, y]).log.events);
        expect(withY.events.at(-1)).toBe(eventY);
        expect(withX.events).toEqual(build(b, [...ns, x]).log.events);
        expect(withX.events.at(-1)).toBe(eventX);
        expect(longer.events).toEqual(build(b, [...ns, x, ...more]).log.events);
        expect(lastSeq(longer)).toBe(all.length + 1 + more.length);
      }),
    );
  });

  it('resets a cursor that is not a sequence number of this log', () => {
    const [log] = appendEvent(emptyEventLog(), 'card/dismissed', { cardId: 'c' });
    expect(replayAfter(log, 2)).toEqual({ _tag: 'Reset' });
    expect(replayAfter(log, -1)).toEqual({ _tag: 'Reset' });
    expect(replayAfter(log, 0.5)).toEqual({ _tag: 'Reset' });
    expect(replayAfter(log, 1)).toEqual({ _tag: 'Replay', events: [] });
  });
});

describe('acceptEvent', () => {
  it('takes the next, drops what was seen, and names a gap', () => {
    fc.assert(
      fc.property(fc.nat(1_000), fc.nat(1_000), (cursor, seq) => {
        const verdict = acceptEvent(cursor, seq);
        expect(verdict).toBe(seq === cursor + 1 ? 'next' : seq <= cursor ? 'duplicate' : 'gap');
      }),
    );
  });

  it('through a reconnect that delivers some events twice, a host keeps each event once and in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.nat(40), fc.nat(40), (total, dropAt, overlap) => {
        const drop = Math.min(dropAt, total);
        const resumeFrom = Math.max(0, drop - overlap);
        const delivered = [...Array.from({ length: drop }, (_v, i) => i + 1), ...Array.from({ length: total - resumeFrom }, (_v, i) => resumeFrom + i + 1)];
        let cursor = 0;
        const kept: number[] = [];
        for (const seq of delivered) {
          const verdict = acceptEvent(cursor, seq);
          expect(verdict).not.toBe('gap');
          if (verdict === 'next') {
            kept.push(seq);
            cursor = seq;
          }
        }
        expect(kept).toEqual(Array.from({ length: total }, (_v, i) => i + 1));
      }),
    );
  });
});

/** One step of a host and an executor over one connection at a time (see the property below). */
type Step = 'event' | 'deliver' | 'serve' | 'drop' | 'reconnect';

/**
 * Runs `steps` over a host that keeps what `acceptEvent` calls next, drops the rest, and answers a gap
 * by subscribing again after its cursor (one such request at a time), as the web host does; the
 * executor answers `events/subscribe` with `replay`. Answers the seqs the host kept and the last seq.
 */
function runHost(steps: ReadonlyArray<Step>, replay: (log: EventLog, after: number, liveFrom: number | null) => ReturnType<typeof replayAfter>): { kept: number[]; last: number } {
  let log = emptyEventLog({ maxEvents: 1_000, maxChars: 1_000_000 });
  /** What travels to the host, in order: events, and the answers of its subscribes. */
  let inbox: Array<{ seq: number } | { answered: true }> = [];
  /** The host's subscribes the executor has not handled yet, by their cursor. */
  let requests: number[] = [];
  let liveFrom: number | null = 1;
  let cursor = 0;
  let resubscribing = false;
  const kept: number[] = [];
  const send = (seq: number): void => void (liveFrom !== null && inbox.push({ seq }));
  const step = (what: Step): void => {
    if (what === 'event') {
      const [next, event] = appendEvent(log, 'transcript/item', {});
      log = next;
      send(event.seq);
    } else if (what === 'deliver') {
      const message = inbox.shift();
      if (message === undefined) return;
      if ('answered' in message) {
        resubscribing = false;
        return;
      }
      const verdict = acceptEvent(cursor, message.seq);
      if (verdict === 'next') {
        cursor = message.seq;
        kept.push(message.seq);
      } else if (verdict === 'gap' && !resubscribing) {
        resubscribing = true;
        requests.push(cursor);
      }
    } else if (what === 'serve') {
      const after = requests.shift();
      if (after === undefined || liveFrom === null) return;
      const replayed = replay(log, after, liveFrom);
      if (replayed._tag === 'Replay') for (const event of replayed.events) inbox.push({ seq: event.seq });
      inbox.push({ answered: true });
    } else if (what === 'drop') {
      // What was on the way is lost with the connection, and so are the host's requests.
      liveFrom = null;
      inbox = [];
      requests = [];
      resubscribing = false;
    } else if (liveFrom === null) {
      // A new connection: live from the next event on; the host subscribes after its cursor.
      liveFrom = log.nextSeq;
      resubscribing = true;
      requests.push(cursor);
    }
  };
  for (const what of steps) step(what);
  if (liveFrom === null) step('reconnect');
  // Everything on the way arrives and is answered; one more event shows a gap left at the end.
  const drain = (): void => {
    while (inbox.length > 0 || requests.length > 0) {
      step('deliver');
      step('serve');
    }
  };
  drain();
  step('event');
  drain();
  return { kept, last: lastSeq(log) };
}

describe('a host resuming through gaps', () => {
  const steps = fc.array(fc.constantFrom<Step>('event', 'event', 'event', 'deliver', 'deliver', 'deliver', 'serve', 'drop', 'reconnect'), { maxLength: 80 });

  it('ends with every event once and in order, whatever the drops, reconnects and events before a subscribe is answered', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { kept, last } = runHost(s, replayForSubscriber);
        expect(kept).toEqual(Array.from({ length: last }, (_v, i) => i + 1));
      }),
      { numRuns: 500 },
    );
  });

  it('a replay that stopped at the connection’s start would leave such a host stuck behind a gap', () => {
    // 2 is sent while the host is away; 3 arrives live on the new connection before its subscribe is
    // answered, so the host drops it as a gap. The replay up to the connection's start brings 2 only.
    const steps: Step[] = ['event', 'deliver', 'drop', 'event', 'reconnect', 'event', 'deliver', 'serve', 'deliver', 'deliver'];
    const stopped = runHost(steps, (log, after, liveFrom) => replayAfter(log, after, liveFrom ?? log.nextSeq));
    expect(stopped).toEqual({ kept: [1, 2], last: 4 });
    expect(runHost(steps, replayForSubscriber)).toEqual({ kept: [1, 2, 3, 4], last: 4 });
  });
});

describe('SharedSubscription', () => {
  it('opens on the first subscriber and closes on the last unsubscribe, whatever the order', () => {
    const op = fc.record({ add: fc.boolean(), who: fc.constantFrom('a', 'b', 'c', 'd') });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let state: SharedSubscription = emptySubscription(7);
        let open = false;
        for (const { add, who } of ops) {
          const before = state.subscribers.length;
          const [next, action] = add ? subscribe(state, who) : unsubscribe(state, who);
          state = next;
          if (action === 'open') {
            expect(open).toBe(false);
            open = true;
          }
          if (action === 'close') {
            expect(open).toBe(true);
            open = false;
          }
          expect(open).toBe(state.subscribers.length > 0);
          expect(new Set(state.subscribers).size).toBe(state.subscribers.length);
          expect(Math.abs(state.subscribers.length - before)).toBeLessThanOrEqual(1);
        }
        expect(state.cursor).toBe(7);
      }),
    );
  });

  it('moves its cursor only on the next event', () => {
    const state = emptySubscription(3);
    expect(advanceCursor(state, 4).cursor).toBe(4);
    expect(advanceCursor(state, 3).cursor).toBe(3);
    expect(advanceCursor(state, 6).cursor).toBe(3);
  });
});

describe('events/subscribe', () => {
  it('takes a non-negative integer cursor, or none', () => {
    expect(E.isRight(EventsSubscribe.params.decode({}))).toBe(true);
    expect(E.isRight(EventsSubscribe.params.decode({ after: 12 }))).toBe(true);
    expect(E.isLeft(EventsSubscribe.params.decode({ after: -1 }))).toBe(true);
    expect(E.isLeft(EventsSubscribe.params.decode({ after: 1.5 }))).toBe(true);
    expect(E.isLeft(EventsSubscribe.params.decode({ after: '3' }))).toBe(true);
  });
});
