/**
 * The event stream over the host sessions: every notification carries the next `seq`; a connection that
 * reconnects and subscribes after its last `seq` gets what it missed before it opened, once and in order
 * (what arrived live since is not repeated), and a host that dropped live events after a gap (while it
 * reconnected, or mid-connection) gets them when it subscribes again; a cursor out of the buffer resets; an unsubscribed
 * connection gets nothing; and a card whose connection closed is shown again, same card, to the host that
 * comes back — or cancelled (and dismissed in the stream) when none does.
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { acceptEvent, plainHostQuestion, type HostCard } from '@wework/host-protocol';
import type { Timers } from '@wework/ports';
import { hostSessions } from '../src/host/HostSessions.js';

/** A connection that records notifications and `card/show`s; `answer` (when set) answers a card, else it never answers. */
function fakeConnection(answer?: unknown) {
  const shown: HostCard[] = [];
  const notified: Array<{ method: string; params: Record<string, unknown> }> = [];
  const connection = {
    sendRequest: (_method: string, params: { card: HostCard }) => {
      shown.push(params.card);
      return answer === undefined ? new Promise(() => undefined) : Promise.resolve(answer);
    },
    sendNotification: (method: string, params: Record<string, unknown>) => {
      notified.push({ method, params: JSON.parse(JSON.stringify(params)) as Record<string, unknown> });
      return Promise.resolve();
    },
  } as unknown as MessageConnection;
  return { connection, shown, notified, seqs: () => notified.map((n) => n.params['seq']) };
}

const card: HostCard = {
  cardId: 'item/commandExecution/requestApproval#0',
  origin: 'requestUserInput',
  kind: 'input',
  threadId: 't',
  turnId: 'u',
  serverName: null,
  message: null,
  questions: [plainHostQuestion({ id: 'decision', header: 'Run?', question: 'Run it?', isOther: false, isSecret: false, options: [{ label: 'Yes', description: '' }] }, 'singleChoice')],
  submitOnSelect: true,
};
const yes = { answers: { decision: { answers: ['Yes'] } } };
const log = () => undefined;

/** Time that never passes by itself: `elapse()` ends every sleep and fires every deadline not cancelled. */
function manualTimers(): Timers & { elapse(): void } {
  const sleepers: Array<() => void> = [];
  return {
    now: () => 0,
    sleep: (_ms, signal) =>
      new Promise<void>((resolve) => {
        sleepers.push(resolve);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
    after: (_ms, fire) => {
      sleepers.push(fire);
      return () => {
        const at = sleepers.indexOf(fire);
        if (at !== -1) sleepers.splice(at, 1);
      };
    },
    elapse: () => sleepers.splice(0).forEach((wake) => wake()),
  };
}

/**
 * A host as the web host is one: it keeps an event whose `seq` is the next, drops a repeat, and answers
 * a gap by dropping the event and subscribing again after its cursor (one such subscribe at a time).
 */
function modelHost(sessions: ReturnType<typeof hostSessions>, cursor: number) {
  const kept: number[] = [];
  let resubscribing = false;
  const at: { session?: ReturnType<ReturnType<typeof hostSessions>['add']> } = {};
  const connection = {
    sendRequest: () => new Promise(() => undefined),
    sendNotification: (_method: string, params: Record<string, unknown>) => {
      const seq = params['seq'] as number;
      const verdict = acceptEvent(cursor, seq);
      if (verdict === 'next') {
        cursor = seq;
        kept.push(seq);
      } else if (verdict === 'gap' && !resubscribing) {
        resubscribing = true;
        queueMicrotask(() => {
          if (at.session !== undefined) sessions.subscribe(at.session, cursor);
          resubscribing = false;
        });
      }
      return Promise.resolve();
    },
  } as unknown as MessageConnection;
  const session = sessions.add(connection);
  at.session = session;
  return { session, kept };
}

const turnStarted = (n: number) => ({ taskId: 'task', threadId: 't', turnId: `u${n}` });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the event stream', () => {
  it('numbers every notification; a reconnect with the cursor gets what it missed once, in order', () => {
    const sessions = hostSessions(log);
    const first = fakeConnection();
    const firstSession = sessions.add(first.connection);
    for (let n = 1; n <= 3; n += 1) sessions.broadcast('transcript/turnStarted', turnStarted(n));
    expect(first.seqs()).toEqual([1, 2, 3]);
    sessions.remove(firstSession);
    for (let n = 4; n <= 6; n += 1) sessions.broadcast('transcript/turnStarted', turnStarted(n));
    const second = fakeConnection();
    const secondSession = sessions.add(second.connection);
    sessions.broadcast('transcript/turnStarted', turnStarted(7));
    expect(sessions.subscribe(secondSession, 3)).toEqual({ reset: false, seq: 7 });
    sessions.broadcast('transcript/turnStarted', turnStarted(8));
    // 7 arrived live before the replay of 4..6: together every seq after the cursor, once.
    expect(second.seqs()).toEqual([7, 4, 5, 6, 8]);
    expect(second.notified.find((n) => n.params['seq'] === 5)).toEqual({ method: 'transcript/turnStarted', params: { ...turnStarted(5), seq: 5 } });
  });

  it('a host that reconnects while events keep coming (it drops them as gaps until its replay) ends with every event once, in order', async () => {
    const sessions = hostSessions(log);
    const first = sessions.add(fakeConnection().connection);
    for (let n = 1; n <= 3; n += 1) sessions.broadcast('transcript/turnStarted', turnStarted(n));
    sessions.remove(first);
    for (let n = 4; n <= 6; n += 1) sessions.broadcast('transcript/turnStarted', turnStarted(n));
    const host = modelHost(sessions, 3);
    // 7 arrives on the new connection before the host's own subscribe: a gap to the host, which drops it.
    sessions.broadcast('transcript/turnStarted', turnStarted(7));
    expect(sessions.subscribe(host.session, 3)).toEqual({ reset: false, seq: 7 });
    await flush();
    for (let n = 8; n <= 9; n += 1) sessions.broadcast('transcript/turnStarted', turnStarted(n));
    await flush();
    expect(host.kept).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it('a gap in the middle of a live connection is filled by subscribing again after the cursor', async () => {
    const sessions = hostSessions(log);
    const host = modelHost(sessions, 0);
    sessions.broadcast('transcript/turnStarted', turnStarted(1));
    // Lost on the way (seq 2 never reaches this host): the host sees 3 as a gap.
    sessions.unsubscribe(host.session);
    sessions.broadcast('transcript/turnStarted', turnStarted(2));
    expect(sessions.subscribe(host.session, undefined)).toEqual({ reset: false, seq: 2 });
    sessions.broadcast('transcript/turnStarted', turnStarted(3));
    await flush();
    sessions.broadcast('transcript/turnStarted', turnStarted(4));
    await flush();
    expect(host.kept).toEqual([1, 2, 3, 4]);
  });

  it('a cursor older than the buffer, or ahead of the log, resets and replays nothing', () => {
    const sessions = hostSessions(log, undefined, { eventLog: { maxEvents: 2, maxChars: 1_000_000 } });
    for (let n = 1; n <= 5; n += 1) sessions.broadcast('transcript/turnStarted', turnStarted(n));
    const host = fakeConnection();
    const session = sessions.add(host.connection);
    expect(sessions.subscribe(session, 2)).toEqual({ reset: true, seq: 5 });
    expect(sessions.subscribe(session, 9)).toEqual({ reset: true, seq: 5 });
    expect(host.notified).toEqual([]);
    expect(sessions.subscribe(session, 3)).toEqual({ reset: false, seq: 5 });
    expect(host.seqs()).toEqual([4, 5]);
  });

  it('an unsubscribed connection gets nothing until it subscribes again', () => {
    const sessions = hostSessions(log);
    const host = fakeConnection();
    const session = sessions.add(host.connection);
    sessions.broadcast('transcript/turnStarted', turnStarted(1));
    sessions.unsubscribe(session);
    sessions.broadcast('transcript/turnStarted', turnStarted(2));
    expect(host.seqs()).toEqual([1]);
    expect(sessions.subscribe(session, 1)).toEqual({ reset: false, seq: 2 });
    sessions.broadcast('transcript/turnStarted', turnStarted(3));
    expect(host.seqs()).toEqual([1, 2, 3]);
  });
});

describe('cards across a dropped connection', () => {
  it('a card waiting when its host dropped is shown again, same card, to the host that subscribes, and its answer counts', async () => {
    const sessions = hostSessions(log, undefined, { timers: manualTimers() });
    const dropped = fakeConnection();
    const droppedSession = sessions.add(dropped.connection);
    const answer = sessions.showCard(card, new AbortController().signal);
    await flush();
    expect(dropped.shown).toHaveLength(1);
    sessions.remove(droppedSession);
    await flush();
    const back = fakeConnection(yes);
    const backSession = sessions.add(back.connection);
    expect(sessions.pendingCards(backSession)).toEqual([{ cardId: card.cardId, origin: 'requestUserInput', threadId: 't' }]);
    expect(await answer).toEqual(yes);
    expect(back.shown).toEqual([card]);
    expect(sessions.pendingCards(backSession)).toEqual([]);
  });

  it('a card whose host does not come back is cancelled after the wait and dismissed in the stream', async () => {
    const timers = manualTimers();
    const sessions = hostSessions(log, undefined, { timers });
    const dropped = sessions.add(fakeConnection().connection);
    const answer = sessions.showCard(card, new AbortController().signal);
    await flush();
    sessions.remove(dropped);
    await flush();
    timers.elapse();
    expect(await answer).toEqual({ action: 'cancel' });
    const later = fakeConnection();
    expect(sessions.subscribe(sessions.add(later.connection), 0)).toEqual({ reset: false, seq: 0 });
    expect(later.shown).toEqual([]);
  });

  it('a card settled while it waits for a host is cancelled and announced with card/dismissed to the host that comes back', async () => {
    const sessions = hostSessions(log, undefined, { timers: manualTimers() });
    const dropped = sessions.add(fakeConnection().connection);
    const controller = new AbortController();
    const answer = sessions.showCard(card, controller.signal);
    await flush();
    sessions.remove(dropped);
    await flush();
    controller.abort();
    expect(await answer).toEqual({ action: 'cancel' });
    const back = fakeConnection(yes);
    expect(sessions.subscribe(sessions.add(back.connection), 0)).toEqual({ reset: false, seq: 1 });
    expect(back.notified).toEqual([{ method: 'card/dismissed', params: { cardId: card.cardId, seq: 1 } }]);
    expect(back.shown).toEqual([]);
  });

  it('with another host still connected, the card moves to it at once', async () => {
    const sessions = hostSessions(log);
    const other = fakeConnection(yes);
    sessions.add(other.connection);
    const dropped = sessions.add(fakeConnection().connection);
    const answer = sessions.showCard(card, new AbortController().signal);
    await flush();
    sessions.remove(dropped);
    expect(await answer).toEqual(yes);
    expect(other.shown).toHaveLength(1);
  });
});
