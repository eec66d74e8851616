/**
 * The subscription lifecycle of the local conversations served by one app-server, as a state machine.
 *
 * Every function here is pure: (state, event, now) in, (state, commands) out. There is no clock and no
 * timer: the state says when its next deadline is ({@link nextDeadline}); the host arms one timer for it
 * and reports a `Tick` when it fires. Every transition first releases the idle threads whose deadline
 * has passed by `now`, so a late timer never keeps a thread longer than the timeout.
 *
 * A thread is in one of these states (a thread the state does not hold is `Unloaded`):
 * - `Started`: started or forked and has had no turn yet; subscribed, never released by time or cap;
 * - `Starting`: a follow-up was reported and its turn has not started yet;
 * - `Running`: a turn is running; never released (an archive waits for the turn to end);
 * - `Idle`: subscribed, no turn; released at its deadline, or earlier by the idle cap or an archive;
 * - `Unsubscribing`: `thread/unsubscribe` was asked for and not yet acknowledged.
 *
 * The commands of an event about a `Started` thread name it only to release it (`unused`): nothing else
 * of it is under way, so a host that orders its commands need not put those behind other threads'.
 */
import type { LifecycleConfig } from './LifecycleConfig.js';
import { DEFAULT_LIFECYCLE_CONFIG } from './LifecycleConfig.js';
import { LifecycleCommand, type UnsubscribeReason } from './LifecycleCommand.js';
import type { LifecycleEvent, ThreadId } from './LifecycleEvent.js';

/**
 * A new thread with no turn yet (`ThreadStarted`). Subscribed and never released by time or cap; a
 * follow-up needs no resume; archived now, it is only released (`unused`).
 */
export interface Started {
  readonly _tag: 'Started';
  readonly generation: number;
}

/** A follow-up was reported; its turn has not started. Subscribed, never released by time or cap. */
export interface Starting {
  readonly _tag: 'Starting';
  /** The activation this state belongs to (see {@link LifecycleState.generation}). */
  readonly generation: number;
}

/** A turn is running. Subscribed and never released. */
export interface Running {
  readonly _tag: 'Running';
  readonly generation: number;
  /** The task was archived while the turn ran: unsubscribe as soon as it ends. */
  readonly archiveWhenDone: boolean;
  /** That archive was in Codex too: archive the thread once the unsubscribe is acknowledged. */
  readonly archiveInCodex?: true;
}

/** Subscribed with no turn, waiting for a follow-up or its deadline. */
export interface Idle {
  readonly _tag: 'Idle';
  /** The idle period this state belongs to; a follow-up ends it, so its deadline can never fire. */
  readonly generation: number;
  /** When the thread became idle (its last activity). */
  readonly idleSince: number;
  /** `idleSince + idleTimeoutMs`: at or after this time the thread is unsubscribed. */
  readonly deadline: number;
}

/** `thread/unsubscribe` was asked for; the record is dropped when the app-server acknowledges it. */
export interface Unsubscribing {
  readonly _tag: 'Unsubscribing';
  readonly reason: UnsubscribeReason;
  /**
   * Archive the thread in Codex (`ArchiveThread`) when the app-server acknowledges the unsubscribe. Such a
   * record outlives an app-server restart: the host still reports the answer of the unsubscribe it sent.
   */
  readonly archiveThread?: true;
}

/** What the lifecycle knows of one thread. */
export type ThreadRecord = Started | Starting | Running | Idle | Unsubscribing;

/** A thread's state, `Unloaded` for one the lifecycle does not hold (never seen, released and acknowledged, or restarted). */
export type ThreadStatus = ThreadRecord['_tag'] | 'Unloaded';

/** The lifecycle of one app-server's threads. Immutable. */
export interface LifecycleState {
  readonly config: LifecycleConfig;
  /** The latest time seen, `null` before the first event. Time never runs backwards in here. */
  readonly clock: number | null;
  /**
   * The last generation handed out. Every activation (turn started, follow-up) and every idle period
   * gets a fresh, larger one, so idle threads are ordered by when they became idle, even at equal times.
   */
  readonly generation: number;
  /** The threads the lifecycle holds. */
  readonly threads: ReadonlyMap<ThreadId, ThreadRecord>;
}

/** One transition's result: the next state and the commands to send, in order. */
export type Transition = readonly [LifecycleState, ReadonlyArray<LifecycleCommand>];

/**
 * The state of an app-server with no thread yet.
 * @example
 * const state = initialState(); // 30 minutes, four idle threads
 */
export function initialState(config: LifecycleConfig = DEFAULT_LIFECYCLE_CONFIG): LifecycleState {
  return { config, clock: null, generation: 0, threads: new Map() };
}

/** The time a transition runs at: `now`, unless it is earlier than the last time seen or not finite. */
const effectiveTime = (clock: number | null, now: number): number =>
  clock === null ? (Number.isFinite(now) ? now : 0) : Number.isFinite(now) && now > clock ? now : clock;

/** A transition under way: a private, mutable copy of the state that becomes the next state. */
class Draft {
  readonly threads: Map<ThreadId, ThreadRecord>;
  readonly commands: LifecycleCommand[] = [];
  generation: number;

  constructor(
    readonly config: LifecycleConfig,
    readonly now: number,
    state: LifecycleState,
  ) {
    this.threads = new Map(state.threads);
    this.generation = state.generation;
  }

  nextGeneration(): number {
    this.generation += 1;
    return this.generation;
  }

  release(threadId: ThreadId, reason: UnsubscribeReason, archiveThread = false): void {
    this.threads.set(threadId, archiveThread ? { _tag: 'Unsubscribing', reason, archiveThread: true } : { _tag: 'Unsubscribing', reason });
    this.commands.push(LifecycleCommand.unsubscribe(threadId, reason));
  }

  /** Idle threads, oldest (first idle) first. */
  idle(): Array<[ThreadId, Idle]> {
    const idle: Array<[ThreadId, Idle]> = [];
    for (const [id, record] of this.threads) if (record._tag === 'Idle') idle.push([id, record]);
    return idle.sort(([, a], [, b]) => a.generation - b.generation);
  }

  /** Releases every idle thread whose deadline has come, earliest deadline first. */
  expireDue(): void {
    const due = this.idle()
      .filter(([, record]) => record.deadline <= this.now)
      .sort(([, a], [, b]) => a.deadline - b.deadline || a.generation - b.generation);
    for (const [id] of due) this.release(id, 'idle');
  }

  /** Releases the oldest idle threads while there are more than the cap. */
  enforceCap(): void {
    const idle = this.idle();
    for (const [id] of idle.slice(0, Math.max(0, idle.length - this.config.maxIdleThreads))) this.release(id, 'cap');
  }

  done(): Transition {
    return [{ config: this.config, clock: this.now, generation: this.generation, threads: this.threads }, this.commands];
  }
}

/**
 * The next state and the commands for the host, for `event` at time `now` (milliseconds on the
 * host's clock). Total: an event that does not fit the thread's state (a stray `TurnCompleted`, an
 * acknowledgement of an unsubscribe that was overtaken by a resume) changes nothing.
 *
 * - `ThreadStarted`: the thread is `Started` (subscribed, no turn yet).
 * - `TurnStarted`: the thread is `Running` (a thread unknown until now was just started, so subscribed).
 * - `TurnCompleted`: the thread keeps its subscription and becomes `Idle` until `now + idleTimeoutMs`;
 *   if that makes more idle threads than `maxIdleThreads`, the oldest idle one is unsubscribed (`cap`).
 *   A thread archived while its turn ran is unsubscribed now (`archive`).
 * - `FollowUp`: the thread is `Starting`, its idle deadline gone. A thread that is not subscribed
 *   (`Unsubscribing` or `Unloaded`) gets `Resume` first. A `Started` thread stays `Started`.
 * - `Archive`: a `Starting` or `Idle` thread is unsubscribed at once; a `Running` one when its turn ends;
 *   a `Started` one at once for `unused`. With `inCodex`, an `Unloaded` thread gets `ArchiveThread` at
 *   once (`releasedBefore`), and one unsubscribed for `archive` gets it when the unsubscribe is
 *   acknowledged (a thread whose unsubscribe for `idle` or `cap` is already under way is left as it is).
 * - `Unsubscribed`: an `Unsubscribing` thread is dropped (`Unloaded`); first, when it was released for an
 *   archive in Codex, `ArchiveThread` (before any release that fell due).
 * - `Reload`: an `Idle` thread is unsubscribed now (`reload`), so its next `FollowUp` gets `Resume`; any
 *   other state is left as it is.
 * - `AppServerRestarted`: every thread is `Unloaded`, except one whose unsubscribe for an archive in Codex
 *   is under way: it stays `Unsubscribing` and is archived once that unsubscribe is answered. No command
 *   (the old process is gone).
 * - `Tick`: only the deadlines.
 *
 * Before the event, every idle thread whose deadline is at or before `now` is unsubscribed (`idle`).
 * @example
 * let [state, commands] = transition(initialState(), LifecycleEvent.turnStarted('thr_1'), 0);
 * [state, commands] = transition(state, LifecycleEvent.turnCompleted('thr_1'), 1_000);
 * nextDeadline(state); // 1_801_000
 * [state, commands] = transition(state, LifecycleEvent.tick(), 1_801_000);
 * // commands: [{ _tag: 'Unsubscribe', threadId: 'thr_1', reason: 'idle' }]
 */
export function transition(state: LifecycleState, event: LifecycleEvent, now: number): Transition {
  const draft = new Draft(state.config, effectiveTime(state.clock, now), state);
  if (event._tag === 'AppServerRestarted') {
    // An archive in Codex whose unsubscribe is under way keeps its record: the host still sends (or has
    // sent) that unsubscribe and reports its answer, and the thread is archived after it all the same.
    for (const [id, record] of draft.threads) if (record._tag !== 'Unsubscribing' || record.archiveThread !== true) draft.threads.delete(id);
    return draft.done();
  }
  draft.expireDue();
  if (event._tag === 'Tick') return draft.done();

  const { threadId } = event;
  const record = draft.threads.get(threadId);
  switch (event._tag) {
    case 'ThreadStarted':
      draft.threads.set(threadId, { _tag: 'Started', generation: draft.nextGeneration() });
      break;
    case 'TurnStarted':
      if (record?._tag !== 'Running') {
        draft.threads.set(threadId, { _tag: 'Running', generation: draft.nextGeneration(), archiveWhenDone: false });
      }
      break;
    case 'TurnCompleted':
      if (record?._tag === 'Running' && record.archiveWhenDone) {
        draft.release(threadId, 'archive', record.archiveInCodex === true);
      } else if (record?._tag === 'Running' || record?._tag === 'Starting') {
        const idleSince = draft.now;
        draft.threads.set(threadId, { _tag: 'Idle', generation: draft.nextGeneration(), idleSince, deadline: idleSince + draft.config.idleTimeoutMs });
        draft.enforceCap();
      }
      break;
    case 'FollowUp':
      if (record === undefined || record._tag === 'Unsubscribing') {
        draft.commands.push(LifecycleCommand.resume(threadId));
        draft.threads.set(threadId, { _tag: 'Starting', generation: draft.nextGeneration() });
      } else if (record._tag === 'Idle') {
        draft.threads.set(threadId, { _tag: 'Starting', generation: draft.nextGeneration() });
      } else if (record._tag === 'Running' && record.archiveWhenDone) {
        draft.threads.set(threadId, { _tag: 'Running', generation: record.generation, archiveWhenDone: false });
      }
      break;
    case 'Archive': {
      const inCodex = event.inCodex === true;
      if (record?._tag === 'Idle' || record?._tag === 'Starting') draft.release(threadId, 'archive', inCodex);
      else if (record?._tag === 'Started') draft.release(threadId, 'unused');
      else if (record?._tag === 'Running') {
        draft.threads.set(threadId, { _tag: 'Running', generation: record.generation, archiveWhenDone: true, ...(inCodex || record.archiveInCodex === true ? { archiveInCodex: true as const } : {}) });
      } else if (record === undefined && inCodex) draft.commands.push(LifecycleCommand.archiveThread(threadId, true));
      break;
    }
    case 'Reload':
      if (record?._tag === 'Idle') draft.release(threadId, 'reload');
      break;
    case 'Unsubscribed':
      if (record?._tag === 'Unsubscribing') {
        draft.threads.delete(threadId);
        if (record.archiveThread === true) draft.commands.unshift(LifecycleCommand.archiveThread(threadId, false));
      }
      break;
  }
  return draft.done();
}

/**
 * When the host's one timer should fire: the earliest idle deadline, or `null` when no thread is idle.
 * Arm a timer for it after every transition and report `Tick` at (or after) that time.
 * @example
 * const at = nextDeadline(state);
 * if (at !== null) timer = setTimeout(() => host.apply(LifecycleEvent.tick()), Math.max(0, at - Date.now()));
 */
export function nextDeadline(state: LifecycleState): number | null {
  let earliest: number | null = null;
  for (const record of state.threads.values()) {
    if (record._tag === 'Idle' && (earliest === null || record.deadline < earliest)) earliest = record.deadline;
  }
  return earliest;
}

/**
 * A thread's state; `Unloaded` for one the lifecycle does not hold.
 * @example
 * threadStatus(state, 'thr_1'); // 'Idle'
 */
export function threadStatus(state: LifecycleState, threadId: ThreadId): ThreadStatus {
  return state.threads.get(threadId)?._tag ?? 'Unloaded';
}

/**
 * The idle threads, oldest first: the first one is released when one more becomes idle than the cap.
 * @example
 * idleThreads(state); // ['thr_1', 'thr_3']
 */
export function idleThreads(state: LifecycleState): ReadonlyArray<ThreadId> {
  return [...state.threads]
    .flatMap(([id, record]) => (record._tag === 'Idle' ? [[id, record.generation] as const] : []))
    .sort(([, a], [, b]) => a - b)
    .map(([id]) => id);
}
