/**
 * The threads of the tasks one app-server serves, as a state machine on top of {@link transition}: which
 * Codex thread each task runs on, when a task needs a new thread instead of resuming its old one, when
 * a thread loaded with older config overrides is reloaded, which app-server a thread and a turn belong
 * to, and whether a turn repeats the overrides its thread already took.
 *
 * Every function here is pure: (state, event, now) in, (state, commands) out. The host reports what it
 * did and saw — each with the app-server instance it used (a number that grows with every new process)
 * and the environment version of the config overrides it sent — and carries out the commands.
 *
 * Rules:
 * - **A thread with no rollout.** A thread started by a task (not forked) has no rollout until a turn of
 *   it completes or is interrupted. When its app-server is gone before any turn of it started, there is
 *   nothing to resume: the task's next send gets `StartThread` (`lost`) and the task takes the new thread.
 *   When a turn did start (and failed or died), Codex may have written a rollout: the resume is tried
 *   first, and only when Codex refuses it does a new thread take its place (`refused`). A resume on a
 *   later app-server that succeeds proves the rollout.
 * - **Environment versions.** Codex keeps a loaded thread's config overrides until it is unloaded. A send
 *   to a thread loaded with an older environment releases it first when it is idle (`Unsubscribe`
 *   `reload`, then `Resume` with the new overrides); a thread started on this app-server that never ran a
 *   turn is replaced by a new thread (`StartThread` `environment`, the old one released as `unused`).
 *   A running turn keeps the overrides it started with; a forked thread keeps what it was forked with
 *   until its first turn ended.
 * - **Turn overrides.** A turn whose overrides equal the ones its thread took through its previous turn on
 *   the same app-server, or through its resume on the same app-server (`Resumed` names the key of the
 *   overrides `thread/resume` carried), leaves them out (`RunTurn` `omit`: Codex re-derives the thread's
 *   settings on every override, even an unchanged one). Starting, forking or renewing the thread, a resume
 *   that names no key, a turn that failed to start, and a new app-server make the next turn send them.
 * - **App-server instances.** An event naming a later instance than any seen means the app-server was
 *   replaced: every thread is released with it (`AppServerRestarted`; `AppServerReplaced` tells the host).
 *   An earlier instance (a call that began before the restart) changes nothing.
 */
import type { LifecycleConfig } from './LifecycleConfig.js';
import type { LifecycleCommand } from './LifecycleCommand.js';
import { LifecycleEvent, type ThreadId, type Tick, type Unsubscribed } from './LifecycleEvent.js';
import { initialState, threadStatus, transition, type LifecycleState } from './ThreadLifecycle.js';

/** A task id of the host. */
export type TaskId = string;

/** What the machine reads of a host's task record; the rest of the record is kept as it is. */
export interface TaskLike {
  readonly taskId: TaskId;
  readonly threadId: ThreadId;
  readonly archived: boolean;
}

/** What the machine knows of one thread besides its subscription. */
export interface ThreadFacts {
  /** The environment version the thread was last started, resumed or forked with. */
  readonly environment?: number;
  /** Started by a task and no turn of it completed or was interrupted: the app-server it was started on. */
  readonly noRolloutOn?: number;
  /** A turn of such a thread started (it failed or died): a rollout may exist, so its resume is tried first. */
  readonly turnTried?: true;
  /** The overrides the thread took through its last turn on this app-server (the host's comparable key). */
  readonly turnOverrides?: string;
}

/** The tasks and threads of one executor. Immutable. */
export interface TaskThreadsState<T extends TaskLike = TaskLike> {
  readonly lifecycle: LifecycleState;
  /** The latest app-server instance seen; `null` before the first. */
  readonly appServer: number | null;
  readonly tasks: ReadonlyMap<TaskId, T>;
  readonly threads: ReadonlyMap<ThreadId, ThreadFacts>;
}

/** Why a task gets a new thread in place of its own: see the module's rules. */
export type RenewReason = 'lost' | 'refused' | 'environment';

/** Events the host reports; `appServer` is the instance the call went to, `environment` the version it carried. */
export type TaskEvent<T extends TaskLike = TaskLike> =
  | { readonly _tag: 'AppServerSeen'; readonly appServer: number }
  | { readonly _tag: 'TaskStarted'; readonly task: T; readonly appServer: number; readonly environment: number }
  | { readonly _tag: 'TaskForked'; readonly task: T; readonly appServer: number; readonly environment: number }
  | { readonly _tag: 'TaskOpened'; readonly task: T }
  | { readonly _tag: 'TaskChanged'; readonly task: T }
  | { readonly _tag: 'TaskArchived'; readonly taskId: TaskId }
  | { readonly _tag: 'SendRequested'; readonly taskId: TaskId; readonly appServer: number; readonly environment: number }
  | { readonly _tag: 'ThreadRenewed'; readonly taskId: TaskId; readonly threadId: ThreadId; readonly why: RenewReason; readonly appServer: number; readonly environment: number }
  | { readonly _tag: 'Resumed'; readonly threadId: ThreadId; readonly appServer: number; readonly environment: number; readonly overrides?: string }
  | { readonly _tag: 'ResumeFailed'; readonly threadId: ThreadId; readonly appServer: number; readonly refused: boolean }
  | { readonly _tag: 'TurnStarting'; readonly threadId: ThreadId; readonly appServer: number; readonly overrides: string }
  | { readonly _tag: 'TurnEnded'; readonly threadId: ThreadId; readonly started: boolean; readonly rollout: boolean }
  | Unsubscribed
  | Tick;

/** Commands for the host, besides the lifecycle's (`Unsubscribe`, `Resume`, `ArchiveThread`, each in its thread's queue). */
export type TaskCommand =
  | LifecycleCommand
  /** Start a new thread for the task (`thread/start`), then report `ThreadRenewed`. */
  | { readonly _tag: 'StartThread'; readonly taskId: TaskId; readonly replacing: ThreadId; readonly why: RenewReason }
  /** Once the thread's queued commands ran, the send may start its turn: report `TurnStarting`. */
  | { readonly _tag: 'StartTurn'; readonly taskId: TaskId; readonly threadId: ThreadId }
  /** Send `turn/start`, with the overrides or without them. */
  | { readonly _tag: 'RunTurn'; readonly threadId: ThreadId; readonly overrides: 'send' | 'omit' }
  /** The resume failed and nothing takes its place: the send ends with the resume's error. */
  | { readonly _tag: 'SendFailed'; readonly threadId: ThreadId }
  /** A later app-server instance was seen: every thread was released with the old one. */
  | { readonly _tag: 'AppServerReplaced'; readonly appServer: number };

/** One step's result. */
export type TaskTransition<T extends TaskLike> = readonly [TaskThreadsState<T>, ReadonlyArray<TaskCommand>];

/**
 * Constructors of {@link TaskEvent}s.
 * @example
 * taskStep(state, TaskEvent.sendRequested('task-1', 2, 0), now);
 */
export const TaskEvent = {
  appServerSeen: (appServer: number) => ({ _tag: 'AppServerSeen', appServer }) as const,
  taskStarted: <T extends TaskLike>(task: T, appServer: number, environment: number) => ({ _tag: 'TaskStarted', task, appServer, environment }) as const,
  taskForked: <T extends TaskLike>(task: T, appServer: number, environment: number) => ({ _tag: 'TaskForked', task, appServer, environment }) as const,
  taskOpened: <T extends TaskLike>(task: T) => ({ _tag: 'TaskOpened', task }) as const,
  taskChanged: <T extends TaskLike>(task: T) => ({ _tag: 'TaskChanged', task }) as const,
  taskArchived: (taskId: TaskId) => ({ _tag: 'TaskArchived', taskId }) as const,
  sendRequested: (taskId: TaskId, appServer: number, environment: number) => ({ _tag: 'SendRequested', taskId, appServer, environment }) as const,
  threadRenewed: (taskId: TaskId, threadId: ThreadId, why: RenewReason, appServer: number, environment: number) => ({ _tag: 'ThreadRenewed', taskId, threadId, why, appServer, environment }) as const,
  resumed: (threadId: ThreadId, appServer: number, environment: number, overrides?: string) =>
    ({ _tag: 'Resumed', threadId, appServer, environment, ...(overrides === undefined ? {} : { overrides }) }) as const,
  resumeFailed: (threadId: ThreadId, appServer: number, refused: boolean) => ({ _tag: 'ResumeFailed', threadId, appServer, refused }) as const,
  turnStarting: (threadId: ThreadId, appServer: number, overrides: string) => ({ _tag: 'TurnStarting', threadId, appServer, overrides }) as const,
  turnEnded: (threadId: ThreadId, started: boolean, rollout: boolean) => ({ _tag: 'TurnEnded', threadId, started, rollout }) as const,
  unsubscribed: LifecycleEvent.unsubscribed,
  tick: LifecycleEvent.tick,
};

/**
 * No task yet.
 * @example
 * let state = initialTaskThreads<TaskRecord>();
 */
export function initialTaskThreads<T extends TaskLike = TaskLike>(config?: LifecycleConfig): TaskThreadsState<T> {
  return { lifecycle: initialState(config), appServer: null, tasks: new Map(), threads: new Map() };
}

/** The task whose thread `threadId` is. */
export function taskOfThread<T extends TaskLike>(state: TaskThreadsState<T>, threadId: ThreadId): T | undefined {
  for (const task of state.tasks.values()) if (task.threadId === threadId) return task;
  return undefined;
}

/** Whether a command is one of the lifecycle's, carried out in its thread's queue. */
export const isLifecycleCommand = (command: TaskCommand): command is LifecycleCommand =>
  command._tag === 'Unsubscribe' || command._tag === 'Resume' || command._tag === 'ArchiveThread';

/** A step under way: private, mutable copies. */
class Step<T extends TaskLike> {
  lifecycle: LifecycleState;
  appServer: number | null;
  readonly tasks: Map<TaskId, T>;
  readonly threads: Map<ThreadId, ThreadFacts>;
  readonly commands: TaskCommand[] = [];

  constructor(
    state: TaskThreadsState<T>,
    readonly now: number,
  ) {
    this.lifecycle = state.lifecycle;
    this.appServer = state.appServer;
    this.tasks = new Map(state.tasks);
    this.threads = new Map(state.threads);
  }

  feed(event: LifecycleEvent): void {
    const [lifecycle, commands] = transition(this.lifecycle, event, this.now);
    this.lifecycle = lifecycle;
    this.commands.push(...commands);
  }

  facts(threadId: ThreadId): ThreadFacts {
    return this.threads.get(threadId) ?? {};
  }

  change(threadId: ThreadId, change: (facts: ThreadFacts) => ThreadFacts): void {
    this.threads.set(threadId, change(this.facts(threadId)));
  }

  /** A later instance replaced the app-server: every thread is released with it, and no thread took overrides on the new one. */
  see(appServer: number): void {
    if (this.appServer !== null && appServer <= this.appServer) return;
    const replaced = this.appServer !== null;
    this.appServer = appServer;
    if (!replaced) return;
    this.feed(LifecycleEvent.appServerRestarted());
    for (const [id, facts] of this.threads) if (facts.turnOverrides !== undefined) this.threads.set(id, without(facts, 'turnOverrides'));
    this.commands.push({ _tag: 'AppServerReplaced', appServer });
  }

  /** Whether the thread started on an app-server other than `appServer` and has no rollout proved. */
  restarted(threadId: ThreadId, appServer: number): boolean {
    const { noRolloutOn } = this.facts(threadId);
    return noRolloutOn !== undefined && noRolloutOn !== appServer;
  }

  /** The send after any renewal: reload a stale thread, report the follow-up, and let the turn start. */
  proceed(task: T, appServer: number, environment: number): void {
    const { threadId } = task;
    const facts = this.facts(threadId);
    const stale = facts.environment !== undefined && facts.environment !== environment;
    const status = threadStatus(this.lifecycle, threadId);
    if (stale && status === 'Idle') this.feed(LifecycleEvent.reload(threadId));
    else if (stale && status === 'Started' && facts.noRolloutOn === appServer) {
      this.commands.push({ _tag: 'StartThread', taskId: task.taskId, replacing: threadId, why: 'environment' });
      return;
    }
    this.feed(LifecycleEvent.followUp(threadId));
    this.commands.push({ _tag: 'StartTurn', taskId: task.taskId, threadId });
  }

  done(): TaskTransition<T> {
    return [{ lifecycle: this.lifecycle, appServer: this.appServer, tasks: this.tasks, threads: this.threads }, this.commands];
  }
}

const without = (facts: ThreadFacts, ...keys: ReadonlyArray<keyof ThreadFacts>): ThreadFacts =>
  Object.fromEntries(Object.entries(facts).filter(([key]) => !keys.includes(key as keyof ThreadFacts))) as ThreadFacts;

/**
 * The next state and the commands for `event` at `now`. Total: an event naming an unknown task or
 * thread changes nothing but the lifecycle's deadlines.
 *
 * A send: `SendRequested` → `StartThread` (then `ThreadRenewed`) or the thread's lifecycle commands and
 * `StartTurn`; a failed `Resume` among them → `ResumeFailed` → `StartThread` (`refused`) or `SendFailed`;
 * `StartTurn` → `TurnStarting` → `RunTurn`; the turn's end → `TurnEnded`.
 * @example
 * let [state, commands] = taskStep(initialTaskThreads(), TaskEvent.taskStarted({ taskId: 't', threadId: 'thr_1', archived: false }, 1, 0), 0);
 * [state, commands] = taskStep(state, TaskEvent.appServerSeen(2), 10); // [AppServerReplaced]
 * [state, commands] = taskStep(state, TaskEvent.sendRequested('t', 2, 0), 10);
 * // commands: [{ _tag: 'StartThread', taskId: 't', replacing: 'thr_1', why: 'lost' }]
 */
export function taskStep<T extends TaskLike>(state: TaskThreadsState<T>, event: TaskEvent<T>, now: number): TaskTransition<T> {
  const step = new Step(state, now);
  if ('appServer' in event) step.see(event.appServer);
  switch (event._tag) {
    case 'AppServerSeen':
      break;
    case 'Tick':
    case 'Unsubscribed':
      step.feed(event);
      break;
    case 'TaskStarted':
    case 'TaskForked': {
      const { task, environment, appServer } = event;
      step.tasks.set(task.taskId, task);
      step.threads.set(task.threadId, event._tag === 'TaskStarted' ? { environment, noRolloutOn: appServer } : { environment });
      step.feed(LifecycleEvent.threadStarted(task.threadId));
      break;
    }
    case 'TaskOpened':
      if (!step.tasks.has(event.task.taskId)) step.tasks.set(event.task.taskId, event.task);
      break;
    case 'TaskChanged': {
      const known = step.tasks.get(event.task.taskId);
      if (known !== undefined) step.tasks.set(known.taskId, { ...event.task, threadId: known.threadId, archived: known.archived });
      break;
    }
    case 'TaskArchived': {
      const task = step.tasks.get(event.taskId);
      if (task === undefined || task.archived) break;
      step.tasks.set(task.taskId, { ...task, archived: true });
      step.feed(LifecycleEvent.archiveInCodex(task.threadId));
      break;
    }
    case 'SendRequested': {
      const task = step.tasks.get(event.taskId);
      if (task === undefined || task.archived) break;
      const facts = step.facts(task.threadId);
      if (step.restarted(task.threadId, event.appServer) && facts.turnTried !== true) {
        step.commands.push({ _tag: 'StartThread', taskId: task.taskId, replacing: task.threadId, why: 'lost' });
      } else step.proceed(task, event.appServer, event.environment);
      break;
    }
    case 'ThreadRenewed': {
      const task = step.tasks.get(event.taskId);
      if (task === undefined) break;
      const renewed: T = { ...task, threadId: event.threadId };
      step.tasks.set(task.taskId, renewed);
      step.threads.delete(task.threadId);
      step.threads.set(event.threadId, { environment: event.environment, noRolloutOn: event.appServer });
      step.feed(LifecycleEvent.threadStarted(event.threadId));
      if (event.why === 'environment') step.feed(LifecycleEvent.archive(task.threadId));
      step.proceed(renewed, event.appServer, event.environment);
      break;
    }
    case 'Resumed': {
      const restarted = step.restarted(event.threadId, event.appServer);
      // Resumed on a later app-server: the thread has a rollout after all.
      // A resume that carried the turn's overrides (`overrides`, the host's key of them) leaves the thread holding them on this app-server.
      const took = event.overrides !== undefined && event.appServer === step.appServer ? { turnOverrides: event.overrides } : {};
      step.change(event.threadId, (facts) => ({ ...without(facts, 'turnOverrides', ...(restarted ? (['noRolloutOn', 'turnTried'] as const) : [])), environment: event.environment, ...took }));
      break;
    }
    case 'ResumeFailed': {
      const { threadId } = event;
      step.change(threadId, (facts) => without(facts, 'turnOverrides'));
      step.feed(LifecycleEvent.turnCompleted(threadId));
      const task = taskOfThread(step, threadId);
      // Only Codex refusing the resume of a thread from an earlier app-server says there is nothing to resume.
      if (task !== undefined && event.refused && step.restarted(threadId, event.appServer)) step.commands.push({ _tag: 'StartThread', taskId: task.taskId, replacing: threadId, why: 'refused' });
      else step.commands.push({ _tag: 'SendFailed', threadId });
      break;
    }
    case 'TurnStarting': {
      const { threadId, overrides } = event;
      const facts = step.facts(threadId);
      const omit = facts.turnOverrides === overrides && event.appServer === step.appServer;
      step.threads.set(threadId, {
        ...without(facts, 'turnOverrides'),
        ...(facts.noRolloutOn === undefined ? {} : { turnTried: true as const }),
        ...(event.appServer === step.appServer ? { turnOverrides: overrides } : {}),
      });
      step.feed(LifecycleEvent.turnStarted(threadId));
      step.commands.push({ _tag: 'RunTurn', threadId, overrides: omit ? 'omit' : 'send' });
      break;
    }
    case 'TurnEnded': {
      const { threadId } = event;
      const drop: Array<keyof ThreadFacts> = [...(event.started ? [] : (['turnOverrides'] as const)), ...(event.rollout ? (['noRolloutOn', 'turnTried'] as const) : [])];
      if (step.threads.has(threadId) && drop.length > 0) step.change(threadId, (facts) => without(facts, ...drop));
      step.feed(LifecycleEvent.turnCompleted(threadId));
      break;
    }
  }
  return step.done();
}
