/**
 * The hosts connected to the executor (one over stdio; any number over WebSocket): transcript
 * notifications go to every host, a card goes to the host that sent the task's last message (else the
 * most recent one; the owner is kept by task, so it holds when the task's thread is replaced), and its answer comes back, as
 * it came, as the response of `card/show`: the sessions only send and receive; the card router decodes and
 * checks the answer and decides whether the card is shown again. Everything sent is wire JSON: decoded protocol values may hold bigints, which `JSON.stringify` cannot write.
 *
 * The event stream (docs/host-protocol.md, "Event stream and reconnects"): every notification gets the
 * next `seq` of one `EventLog` (`@wework/host-protocol`) and goes to every connection that receives the
 * stream — each one from the moment it connects, until `events/unsubscribe`; `events/subscribe { after }`
 * replays what the connection missed before it opened, or, for a cursor inside its own live stream (a host
 * that saw a gap there), every event after the cursor. A card whose connection closed before it answered
 * waits (bounded) for the next connection that subscribes or asks `cards/pending`, and is shown there again.
 */
import { CancellationTokenSource, type MessageConnection } from 'vscode-jsonrpc/node';
import { toWireJson } from '@wework/codex-protocol';
import {
  appendEvent,
  CardDismissedNotification,
  CardShow,
  emptyEventLog,
  lastSeq,
  replayForSubscriber,
  type EventLog,
  type EventLogBounds,
  type HostCard,
  type HostReply,
  type PendingCard,
} from '@wework/host-protocol';
import type { Log, Timers } from '@wework/ports';
import { nodeTimers } from '@wework/ports/node';
import type { ExecutorHost } from '../cards/ExecutorHost.js';

/** One connected host. */
export interface HostSession {
  readonly id: number;
  readonly connection: MessageConnection;
}

/** The connected hosts, and the executor's {@link ExecutorHost} over them. */
export interface HostSessions extends ExecutorHost {
  add(connection: MessageConnection): HostSession;
  remove(session: HostSession): void;
  /** The host that sent a thread's last message receives its cards (those of its task, whatever thread it moves to). */
  claimThread(threadId: string, session: HostSession): void;
  /** The host that sent a task's last message receives its cards. */
  claimTask(taskId: string, session: HostSession): void;
  /** Sends a notification, with the next `seq`, to every host that receives the event stream. */
  broadcast(method: string, params: object): void;
  count(): number;
  /**
   * `events/subscribe`: the session receives the stream; with `after`, first what it missed (or a reset;
   * see `replayForSubscriber`). Cards waiting for a host are shown to it again.
   */
  subscribe(session: HostSession, after: number | undefined): { readonly reset: boolean; readonly seq: number };
  /** `events/unsubscribe`: the session receives no more notifications. */
  unsubscribe(session: HostSession): void;
  /** `cards/pending`: the cards still waiting for an answer; those waiting for a host are shown to the session again. */
  pendingCards(session: HostSession): ReadonlyArray<PendingCard>;
}

/** How long a card whose host connection closed waits for a host to come back before it is cancelled. */
export const CARD_RECONNECT_WAIT_MS = 5 * 60_000;

/** Options of {@link hostSessions}. */
export interface HostSessionsOptions {
  /** The replay buffer's bounds; default `EVENT_LOG_MAX_EVENTS` and `EVENT_LOG_MAX_CHARS`. */
  readonly eventLog?: EventLogBounds;
  /** How long a card waits for a host to come back; default {@link CARD_RECONNECT_WAIT_MS}. */
  readonly reconnectWaitMs?: number;
  readonly timers?: Timers;
}

/** A card waiting for an answer, and who to call when a host comes back for it (set while its host is gone). */
interface ShownCard {
  readonly card: HostCard;
  comeBack: ((session: HostSession) => void) | null;
}

/**
 * Cards and notifications over the connected hosts. `taskOf` names the task of a thread (when known),
 * so a card finds the host that sent its task's message even after the task's thread was replaced.
 */
export function hostSessions(log: Log, taskOf: (threadId: string) => string | undefined = () => undefined, options: HostSessionsOptions = {}): HostSessions {
  const sessions: HostSession[] = [];
  const timers = options.timers ?? nodeTimers;
  const reconnectWaitMs = options.reconnectWaitMs ?? CARD_RECONNECT_WAIT_MS;
  let events: EventLog = emptyEventLog(options.eventLog);
  /** By session: the first `seq` it receives live, or `null` after `events/unsubscribe`. */
  const liveFrom = new Map<HostSession, number | null>();
  /**
   * By open session: who waits for it to close (a card shown to it). A wait leaves the set when it is over,
   * so an answered card keeps nothing alive for as long as the session lives.
   */
  const closeWaiters = new Map<HostSession, Set<() => void>>();
  const shown = new Map<string, ShownCard>();
  /** Owners by task id (`task:`), or by thread id (`thread:`) for a thread of no known task. */
  const owners = new Map<string, HostSession>();
  const ownerKey = (threadId: string): string => {
    const taskId = taskOf(threadId);
    return taskId === undefined ? `thread:${threadId}` : `task:${taskId}`;
  };
  let nextId = 1;

  const broadcast = (method: string, params: object): void => {
    const [next, event] = appendEvent(events, method, toWireJson(params) as Record<string, unknown>);
    events = next;
    for (const session of sessions) if (liveFrom.get(session) !== null) void session.connection.sendNotification(method, event.params).catch(() => undefined);
  };

  /** Shows the cards waiting for a host to `session`. */
  const comeBackTo = (session: HostSession): void => {
    for (const entry of shown.values()) {
      const resume = entry.comeBack;
      if (resume === null) continue;
      entry.comeBack = null;
      resume(session);
    }
  };

  /** The host to show a card to: its task's owner, else the most recent host; `null` when none is connected. */
  const hostFor = (card: HostCard): HostSession | null => {
    const owner = owners.get(ownerKey(card.threadId));
    return owner !== undefined && sessions.includes(owner) ? owner : (sessions[sessions.length - 1] ?? null);
  };

  /** Waits for a host to come back for a card whose connection closed: another open one at once, else the next that subscribes; `null` after the wait or when `signal` aborts. */
  const awaitHost = async (entry: ShownCard, signal: AbortSignal): Promise<HostSession | null> => {
    const open = hostFor(entry.card);
    if (open !== null || signal.aborted) return open;
    log({ event: 'card waits for a host', fields: { cardId: entry.card.cardId, waitMs: reconnectWaitMs } });
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([
        new Promise<HostSession>((resolve) => (entry.comeBack = resolve)),
        timers.sleep(reconnectWaitMs, stop.signal).then(() => null),
      ]);
    } finally {
      entry.comeBack = null;
      stop.abort();
      signal.removeEventListener('abort', onAbort);
      // Settled while no host had it: a host that comes back learns it from the stream.
      if (signal.aborted) broadcast(CardDismissedNotification.method, { cardId: entry.card.cardId });
    }
  };

  const showCard = async (card: HostCard, signal: AbortSignal): Promise<unknown> => {
    const answer = await showOnce(card, signal);
    return answer._tag === 'Answered' ? answer.raw : answer.reply;
  };

  /**
   * Shows the card once: the host's raw result, or the reply that settles the card without it. When the
   * host's connection closes before it answers, the same card is shown again to the host that comes back.
   */
  const showOnce = async (card: HostCard, signal: AbortSignal): Promise<{ readonly _tag: 'Answered'; readonly raw: unknown } | { readonly _tag: 'Settled'; readonly reply: HostReply }> => {
    let session = hostFor(card);
    if (session === null) {
      log({ event: 'card cancelled: no host connected', fields: { cardId: card.cardId } });
      return { _tag: 'Settled', reply: { action: 'cancel' } };
    }
    const entry: ShownCard = { card, comeBack: null };
    shown.set(card.cardId, entry);
    try {
      for (;;) {
        if (signal.aborted) return { _tag: 'Settled', reply: { action: 'cancel' } };
        const outcome = await showTo(session, card, signal);
        if (outcome._tag !== 'Closed') return outcome;
        log({ event: 'card host disconnected', fields: { cardId: card.cardId, session: session.id } });
        const next = await awaitHost(entry, signal);
        if (next === null) {
          if (!signal.aborted) log({ event: 'card cancelled: no host came back', fields: { cardId: card.cardId } });
          return { _tag: 'Settled', reply: { action: 'cancel' } };
        }
        session = next;
      }
    } finally {
      shown.delete(card.cardId);
    }
  };

  /** One `card/show` to one host: its raw result, a settling reply, or `Closed` when its connection closed first. */
  const showTo = async (
    session: HostSession,
    card: HostCard,
    signal: AbortSignal,
  ): Promise<{ readonly _tag: 'Answered'; readonly raw: unknown } | { readonly _tag: 'Settled'; readonly reply: HostReply } | { readonly _tag: 'Closed' }> => {
    const waiters = closeWaiters.get(session);
    if (waiters === undefined) return { _tag: 'Closed' };
    let onClose = (): void => undefined;
    const closed = new Promise<{ readonly _tag: 'Closed' }>((resolve) => (onClose = () => resolve({ _tag: 'Closed' })));
    waiters.add(onClose);
    const cancel = new CancellationTokenSource();
    // A card settled meanwhile is over for the executor at once: a host need not answer a dismissed card. Until
    // it answers the cancelled request (-32800, as host-client does), the connection keeps that request's id.
    let onAbort = (): void => undefined;
    const dismissed = new Promise<{ readonly _tag: 'Settled'; readonly reply: HostReply }>((resolve) => {
      onAbort = () => {
        cancel.cancel();
        broadcast(CardDismissedNotification.method, { cardId: card.cardId });
        resolve({ _tag: 'Settled', reply: { action: 'cancel' } });
      };
    });
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = session.connection.sendRequest(CardShow.method, toWireJson({ card }), cancel.token).then((raw: unknown) => ({ _tag: 'Answered' as const, raw }));
      return await Promise.race([answer, closed, dismissed]);
    } catch (error) {
      if (!sessions.includes(session)) return { _tag: 'Closed' };
      log({ event: 'card answer failed', fields: { cardId: card.cardId, error: error instanceof Error ? error.message : String(error) } });
      return { _tag: 'Settled', reply: { action: 'cancel' } };
    } finally {
      waiters.delete(onClose);
      signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  };

  return {
    showCard,
    add: (connection) => {
      const session = { id: nextId++, connection };
      sessions.push(session);
      liveFrom.set(session, events.nextSeq);
      closeWaiters.set(session, new Set());
      return session;
    },
    remove: (session) => {
      const index = sessions.indexOf(session);
      if (index >= 0) sessions.splice(index, 1);
      for (const [key, owner] of owners) if (owner === session) owners.delete(key);
      liveFrom.delete(session);
      const waiters = closeWaiters.get(session);
      closeWaiters.delete(session);
      for (const closed of waiters ?? []) closed();
    },
    claimThread: (threadId, session) => void owners.set(ownerKey(threadId), session),
    claimTask: (taskId, session) => void owners.set(`task:${taskId}`, session),
    broadcast,
    count: () => sessions.length,
    subscribe: (session, after) => {
      // Before the connection's start: what it missed then. At or past it: the host saw a gap in this
      // connection's own stream (events that arrived before its subscribe was answered), so all after it.
      const live = liveFrom.get(session) ?? null;
      const replay = after === undefined ? { _tag: 'Replay' as const, events: [] } : replayForSubscriber(events, after, live);
      if (replay._tag === 'Replay') for (const event of replay.events) void session.connection.sendNotification(event.method, event.params).catch(() => undefined);
      if (sessions.includes(session)) liveFrom.set(session, live ?? events.nextSeq);
      log({ event: 'host subscribed', fields: { session: session.id, reset: replay._tag === 'Reset', replayed: replay._tag === 'Replay' ? replay.events.length : 0 } });
      const seq = lastSeq(events);
      comeBackTo(session);
      return { reset: replay._tag === 'Reset', seq };
    },
    unsubscribe: (session) => {
      if (sessions.includes(session)) liveFrom.set(session, null);
    },
    pendingCards: (session) => {
      const pending = [...shown.values()].map(({ card }) => ({ cardId: card.cardId, origin: card.origin, threadId: card.threadId }));
      comeBackTo(session);
      return pending;
    },
  };
}
