/**
 * What the host tells the thread lifecycle: threads started, turns starting and ending, follow-up messages, archiving,
 * the app-server's acknowledgement of `thread/unsubscribe`, a restart of the app-server, and timer
 * ticks. The time of an event is passed beside it, never read from a clock.
 *
 * Every value here is plain data; the constructors are pure.
 */

/** A Codex thread id (`thread.id` of `thread/start`, `thread/resume`, `thread/fork`). */
export type ThreadId = string;

/**
 * A new thread was started or forked (`thread/start`, `thread/fork`) on the current app-server: it is
 * subscribed and has had no turn. Its first message needs no `thread/resume`, it is never released by
 * time or cap before its first turn, and archiving it before then only releases it (`unused`). A host
 * that does not report it gets the older reading: an unknown thread's first turn is its `TurnStarted`.
 */
export interface ThreadStarted {
  readonly _tag: 'ThreadStarted';
  readonly threadId: ThreadId;
}

/** A turn of the thread started (`turn/started`); a new thread's first turn is reported this way too. */
export interface TurnStarted {
  readonly _tag: 'TurnStarted';
  readonly threadId: ThreadId;
}

/** A turn of the thread ended (`turn/completed`, whatever its status), or a follow-up's `turn/start` failed. */
export interface TurnCompleted {
  readonly _tag: 'TurnCompleted';
  readonly threadId: ThreadId;
}

/** A new message to an existing thread, reported before its `turn/start` is sent. */
export interface FollowUp {
  readonly _tag: 'FollowUp';
  readonly threadId: ThreadId;
}

/** The task of the thread was archived. */
export interface Archive {
  readonly _tag: 'Archive';
  readonly threadId: ThreadId;
  /**
   * `true` (see {@link LifecycleEvent.archiveInCodex}): the thread is archived in Codex as well, and the
   * lifecycle says when with an `ArchiveThread` command. Absent: the lifecycle only releases the thread.
   */
  readonly inCodex?: true;
}

/** The app-server answered a `thread/unsubscribe` of the thread (any status: `unsubscribed`, `notSubscribed`, `notLoaded`). */
export interface Unsubscribed {
  readonly _tag: 'Unsubscribed';
  readonly threadId: ThreadId;
}

/**
 * The per-thread config overrides changed (what `thread/start` and `thread/resume` carry, e.g. the shell
 * environment): Codex keeps a loaded thread's overrides until it is unloaded, so an `Idle` thread is
 * released now (`reload`) and its next follow-up resumes it with the new ones. Other states are left as
 * they are: a `Running` or `Starting` thread is reported again once its turn ended, an unsubscribed one
 * is resumed with the new overrides anyway, and a `Started` one has no rollout to resume (the host starts
 * a new thread in its place).
 */
export interface Reload {
  readonly _tag: 'Reload';
  readonly threadId: ThreadId;
}

/** The app-server process was replaced: no thread is loaded or subscribed any more. */
export interface AppServerRestarted {
  readonly _tag: 'AppServerRestarted';
}

/** Only time passed (the host's one timer fired at `nextDeadline`). */
export interface Tick {
  readonly _tag: 'Tick';
}

/** Everything the lifecycle reacts to. */
export type LifecycleEvent = ThreadStarted | TurnStarted | TurnCompleted | FollowUp | Archive | Unsubscribed | Reload | AppServerRestarted | Tick;

/**
 * Constructors of {@link LifecycleEvent}s.
 * @example
 * transition(state, LifecycleEvent.followUp('thr_1'), now);
 */
export const LifecycleEvent = {
  threadStarted: (threadId: ThreadId): ThreadStarted => ({ _tag: 'ThreadStarted', threadId }),
  turnStarted: (threadId: ThreadId): TurnStarted => ({ _tag: 'TurnStarted', threadId }),
  turnCompleted: (threadId: ThreadId): TurnCompleted => ({ _tag: 'TurnCompleted', threadId }),
  followUp: (threadId: ThreadId): FollowUp => ({ _tag: 'FollowUp', threadId }),
  archive: (threadId: ThreadId): Archive => ({ _tag: 'Archive', threadId }),
  /**
   * The task was archived, in Codex too: a subscribed thread is released (`archive`) and, once its
   * unsubscribe is acknowledged (an app-server restart in between or not), archived (`ArchiveThread`);
   * a thread released before is archived at once; a thread that never ran a turn is only released (`unused`).
   */
  archiveInCodex: (threadId: ThreadId): Archive => ({ _tag: 'Archive', threadId, inCodex: true }),
  unsubscribed: (threadId: ThreadId): Unsubscribed => ({ _tag: 'Unsubscribed', threadId }),
  reload: (threadId: ThreadId): Reload => ({ _tag: 'Reload', threadId }),
  appServerRestarted: (): AppServerRestarted => ({ _tag: 'AppServerRestarted' }),
  tick: (): Tick => ({ _tag: 'Tick' }),
} as const;
