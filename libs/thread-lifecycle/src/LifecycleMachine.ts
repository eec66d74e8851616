/**
 * A small stateful wrapper around {@link transition} for hosts that prefer an object to threading the
 * state through by hand. It holds the current state and nothing else: still no clock and no timer; every
 * method takes `now` from the host and returns the commands to send, in order.
 */
import type { LifecycleConfig } from './LifecycleConfig.js';
import { DEFAULT_LIFECYCLE_CONFIG } from './LifecycleConfig.js';
import type { LifecycleCommand } from './LifecycleCommand.js';
import { LifecycleEvent, type ThreadId } from './LifecycleEvent.js';
import {
  idleThreads,
  initialState,
  nextDeadline,
  threadStatus,
  transition,
  type LifecycleState,
  type ThreadStatus,
} from './ThreadLifecycle.js';

/** The lifecycle of one app-server's threads, as an object. See {@link transition} for the rules. */
export interface ThreadLifecycle {
  /** The current state (immutable; replaced by every call). */
  readonly state: LifecycleState;
  /** Applies any event at `now`. */
  dispatch(event: LifecycleEvent, now: number): ReadonlyArray<LifecycleCommand>;
  /** A new thread `threadId` was started or forked (subscribed, no turn yet). */
  threadStarted(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** A turn of `threadId` started. */
  turnStarted(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** A turn of `threadId` ended (or a follow-up's `turn/start` failed). */
  turnCompleted(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** A new message to `threadId`; send the returned commands (maybe `Resume`) before its `turn/start`. */
  followUp(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** The task of `threadId` was archived. */
  archive(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** The task of `threadId` was archived in Codex too: the commands include `ArchiveThread` when it is due. */
  archiveInCodex(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** The app-server answered `thread/unsubscribe` of `threadId`. */
  unsubscribed(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** The thread's config overrides changed: an idle thread is released now, so its next follow-up resumes it with the new ones. */
  reload(threadId: ThreadId, now: number): ReadonlyArray<LifecycleCommand>;
  /** The app-server process was replaced. */
  appServerRestarted(now: number): ReadonlyArray<LifecycleCommand>;
  /** The host's timer fired. */
  tick(now: number): ReadonlyArray<LifecycleCommand>;
  /** When to fire the host's timer next, or `null` for no timer. */
  nextDeadline(): number | null;
  /** A thread's state. */
  status(threadId: ThreadId): ThreadStatus;
  /** The idle threads, oldest first. */
  idleThreads(): ReadonlyArray<ThreadId>;
}

/**
 * A {@link ThreadLifecycle} with no thread yet and `start`'s configuration (default: 30 minutes, four
 * idle threads), or continuing from a {@link LifecycleState}.
 * @example
 * const lifecycle = makeThreadLifecycle();
 * lifecycle.turnStarted('thr_1', 0);
 * lifecycle.turnCompleted('thr_1', 5_000);
 * lifecycle.nextDeadline();            // 1_805_000
 * lifecycle.tick(1_805_000);           // [{ _tag: 'Unsubscribe', threadId: 'thr_1', reason: 'idle' }]
 * lifecycle.followUp('thr_1', 1_900_000); // [{ _tag: 'Resume', threadId: 'thr_1' }]
 */
export function makeThreadLifecycle(start: LifecycleConfig | LifecycleState = DEFAULT_LIFECYCLE_CONFIG): ThreadLifecycle {
  let current = 'threads' in start ? start : initialState(start);
  const dispatch = (event: LifecycleEvent, now: number): ReadonlyArray<LifecycleCommand> => {
    const [next, commands] = transition(current, event, now);
    current = next;
    return commands;
  };
  return {
    get state() {
      return current;
    },
    dispatch,
    threadStarted: (threadId, now) => dispatch(LifecycleEvent.threadStarted(threadId), now),
    turnStarted: (threadId, now) => dispatch(LifecycleEvent.turnStarted(threadId), now),
    turnCompleted: (threadId, now) => dispatch(LifecycleEvent.turnCompleted(threadId), now),
    followUp: (threadId, now) => dispatch(LifecycleEvent.followUp(threadId), now),
    archive: (threadId, now) => dispatch(LifecycleEvent.archive(threadId), now),
    archiveInCodex: (threadId, now) => dispatch(LifecycleEvent.archiveInCodex(threadId), now),
    unsubscribed: (threadId, now) => dispatch(LifecycleEvent.unsubscribed(threadId), now),
    reload: (threadId, now) => dispatch(LifecycleEvent.reload(threadId), now),
    appServerRestarted: (now) => dispatch(LifecycleEvent.appServerRestarted(), now),
    tick: (now) => dispatch(LifecycleEvent.tick(), now),
    nextDeadline: () => nextDeadline(current),
    status: (threadId) => threadStatus(current, threadId),
    idleThreads: () => idleThreads(current),
  };
}
