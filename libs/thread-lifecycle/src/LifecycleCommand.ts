/**
 * What the thread lifecycle asks the host to send to the app-server, in order.
 *
 * Every value here is plain data; the constructors are pure.
 */
import type { ThreadId } from './LifecycleEvent.js';

/**
 * Why a thread is released:
 * - `idle`: no activity for the idle timeout;
 * - `cap`: one more thread became idle than the app-server keeps, and this was the oldest idle one;
 * - `archive`: its task was archived (at once, or when the turn that was running then ended);
 * - `unused`: its task was archived before the thread ran a turn (see `ThreadStarted`): nothing of it
 *   is on disk to keep or archive;
 * - `reload`: its config overrides changed (`Reload`); the next follow-up resumes it with the new ones.
 */
export type UnsubscribeReason = 'idle' | 'cap' | 'archive' | 'unused' | 'reload';

/** Send `thread/unsubscribe { threadId }`, then report its answer as `Unsubscribed`. */
export interface Unsubscribe {
  readonly _tag: 'Unsubscribe';
  readonly threadId: ThreadId;
  readonly reason: UnsubscribeReason;
}

/** Send `thread/resume { threadId, ... }` before the follow-up's `turn/start`: the thread is not subscribed. */
export interface Resume {
  readonly _tag: 'Resume';
  readonly threadId: ThreadId;
}

/**
 * Send `thread/archive { threadId }`: the task was archived in Codex too (`LifecycleEvent.archiveInCodex`)
 * and the thread is no longer subscribed — its unsubscribe was acknowledged, or it was released before.
 */
export interface ArchiveThread {
  readonly _tag: 'ArchiveThread';
  readonly threadId: ThreadId;
  /**
   * `true`: the thread was released before the archive (idle, cap, or an app-server restart), so nothing
   * was unsubscribed for it and this is the archive's only request. `false`: it follows the archive's own
   * unsubscribe, now acknowledged.
   */
  readonly releasedBefore: boolean;
}

/** A command for the host. */
export type LifecycleCommand = Unsubscribe | Resume | ArchiveThread;

/**
 * Constructors of {@link LifecycleCommand}s.
 * @example
 * LifecycleCommand.unsubscribe('thr_1', 'idle'); // { _tag: 'Unsubscribe', threadId: 'thr_1', reason: 'idle' }
 * LifecycleCommand.archiveThread('thr_1', true); // { _tag: 'ArchiveThread', threadId: 'thr_1', releasedBefore: true }
 */
export const LifecycleCommand = {
  unsubscribe: (threadId: ThreadId, reason: UnsubscribeReason): Unsubscribe => ({ _tag: 'Unsubscribe', threadId, reason }),
  resume: (threadId: ThreadId): Resume => ({ _tag: 'Resume', threadId }),
  archiveThread: (threadId: ThreadId, releasedBefore: boolean): ArchiveThread => ({ _tag: 'ArchiveThread', threadId, releasedBefore }),
} as const;
