/**
 * `@wework/thread-lifecycle`: when a local Codex conversation keeps or releases its app-server
 * subscription.
 *
 * One app-server serves the local conversations. After a turn completes the thread stays subscribed;
 * `thread/unsubscribe` is due after 30 minutes without activity; a follow-up reactivates the thread
 * (with `thread/resume` first if it was released) and its old idle deadline never fires; at most four
 * idle threads stay subscribed, the oldest idle one released first; archiving unsubscribes at once (and,
 * asked to, says when to archive the thread in Codex); a thread with a running turn is never released; a
 * new thread with no turn yet needs no resume and is never released by time or cap.
 *
 * - {@link transition}: (state, event, now) → [state, commands]; {@link nextDeadline} says when the
 *   host's one timer should fire.
 * - {@link makeThreadLifecycle}: the same as an object holding the state.
 * - {@link taskStep}: the tasks on top of it — a task's new thread in place of one with no rollout, reloads
 *   for a new environment, the app-server a thread and a turn belong to, turn overrides left out when unchanged.
 * - {@link deliveryStep}: what becomes of a message sent while a turn runs (steered into it, queued for a
 *   turn of its own, refused past {@link MAX_WAITING_MESSAGES}, cancelled by a stop); {@link unsteerableReason}
 *   says why a message cannot join a running turn.
 *
 * Everything here is pure: no IO, no clock, no timers, no process.
 */
export {
  DEFAULT_LIFECYCLE_CONFIG,
  lifecycleConfig,
  type InvalidLifecycleConfig,
  type LifecycleConfig,
} from './LifecycleConfig.js';
export { LifecycleCommand, type ArchiveThread, type Unsubscribe } from './LifecycleCommand.js';
export { LifecycleEvent } from './LifecycleEvent.js';
export { makeThreadLifecycle, type ThreadLifecycle } from './LifecycleMachine.js';
export {
  deliveryStep,
  idleDelivery,
  unsteerableReason,
  type Delivered,
  type Delivery,
  type DeliveryCommand,
  type DeliveryEvent,
  type DeliveryRefusal,
  type DeliveryState,
  type UnsteerableReason,
} from './MessageDelivery.js';
export {
  TaskEvent,
  initialTaskThreads,
  isLifecycleCommand,
  taskOfThread,
  taskStep,
  type TaskCommand,
  type TaskThreadsState,
} from './TaskThreads.js';
export {
  idleThreads,
  initialState,
  nextDeadline,
  threadStatus,
  transition,
  type LifecycleState,
  type ThreadStatus,
} from './ThreadLifecycle.js';
