/**
 * `@wework/thread-lifecycle/testing`: fast-check arbitraries of timed event scripts and a fake-clock
 * driver that runs a script the way a host does (one timer armed at `nextDeadline`), so hosts can
 * property-test their own use; random task scripts for `taskStep` and a runner for them. Needs `fast-check` (an optional peer dependency).
 *
 * Every function here is pure: arbitraries describe values; fast-check supplies the randomness; the
 * driver's clock is a number it advances.
 */
import * as fc from 'fast-check';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_LIFECYCLE_CONFIG, type LifecycleConfig } from './LifecycleConfig.js';
import type { LifecycleCommand } from './LifecycleCommand.js';
import { LifecycleEvent, type ThreadId } from './LifecycleEvent.js';
import { initialState, nextDeadline, transition, type LifecycleState } from './ThreadLifecycle.js';
import { TaskEvent, initialTaskThreads, taskStep, type RenewReason, type TaskCommand, type TaskId, type TaskThreadsState } from './TaskThreads.js';

/** One event of a script and how long after the previous one it happens. */
export interface TimedEvent {
  readonly afterMs: number;
  readonly event: LifecycleEvent;
}

/**
 * Events beyond the default set that {@link lifecycleEventArbitrary} may draw. Off by default, so the
 * default scripts are those of a host that reports neither.
 */
export interface LifecycleEventOptions {
  /** Draw `ThreadStarted` (a host that reports new threads). */
  readonly threadStarted?: boolean;
  /** Draw `LifecycleEvent.archiveInCodex` besides the plain `Archive`. */
  readonly archiveInCodex?: boolean;
  /** Draw `Reload` (a host whose per-thread config overrides change). */
  readonly reload?: boolean;
}

/** Bounds of {@link timedEventsArbitrary}. */
export interface TimedEventsOptions {
  /** Which extra events to draw (default none). */
  readonly events?: LifecycleEventOptions;
  /** The thread ids events name (default six, more than the default idle cap). */
  readonly threadIds?: ReadonlyArray<ThreadId>;
  /** The idle timeout the gaps are drawn around (default 30 minutes). */
  readonly idleTimeoutMs?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
}

const DEFAULT_THREAD_IDS: ReadonlyArray<ThreadId> = ['thr_a', 'thr_b', 'thr_c', 'thr_d', 'thr_e', 'thr_f'];

/**
 * Any event naming one of `threadIds`, turns and follow-ups most often. Sequences need not be
 * sensible: stray completions, acknowledgements nobody asked for and restarts are all drawn. `options`
 * adds `ThreadStarted`, archives in Codex and reloads.
 */
export function lifecycleEventArbitrary(threadIds: ReadonlyArray<ThreadId> = DEFAULT_THREAD_IDS, options: LifecycleEventOptions = {}): fc.Arbitrary<LifecycleEvent> {
  const id = fc.constantFrom(...threadIds);
  const extra: Array<fc.WeightedArbitrary<LifecycleEvent>> = [
    ...(options.threadStarted === true ? [{ weight: 3, arbitrary: id.map(LifecycleEvent.threadStarted) }] : []),
    ...(options.archiveInCodex === true ? [{ weight: 2, arbitrary: id.map(LifecycleEvent.archiveInCodex) }] : []),
    ...(options.reload === true ? [{ weight: 2, arbitrary: id.map(LifecycleEvent.reload) }] : []),
  ];
  return fc.oneof(
    ...extra,
    { weight: 6, arbitrary: id.map(LifecycleEvent.turnStarted) },
    { weight: 6, arbitrary: id.map(LifecycleEvent.turnCompleted) },
    { weight: 5, arbitrary: id.map(LifecycleEvent.followUp) },
    { weight: 2, arbitrary: id.map(LifecycleEvent.archive) },
    { weight: 3, arbitrary: id.map(LifecycleEvent.unsubscribed) },
    { weight: 2, arbitrary: fc.constant(LifecycleEvent.tick()) },
    { weight: 1, arbitrary: fc.constant(LifecycleEvent.appServerRestarted()) },
  );
}

/**
 * Gaps between events, drawn around the idle timeout: mostly none (same instant) or short (up to a
 * thirtieth of the timeout), sometimes just under, exactly or just over it, or anything up to three
 * timeouts.
 */
export function gapArbitrary(idleTimeoutMs: number = DEFAULT_IDLE_TIMEOUT_MS): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 8, arbitrary: fc.integer({ min: 1, max: Math.max(1, Math.floor(idleTimeoutMs / 30)) }) },
    { weight: 1, arbitrary: fc.constantFrom(idleTimeoutMs - 1, idleTimeoutMs, idleTimeoutMs + 1) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.max(1, Math.floor(idleTimeoutMs * 3)) }) },
  );
}

/** A script of timed events, any length up to `maxLength` (default 60). */
export function timedEventsArbitrary(options: TimedEventsOptions = {}): fc.Arbitrary<ReadonlyArray<TimedEvent>> {
  const event = lifecycleEventArbitrary(options.threadIds ?? DEFAULT_THREAD_IDS, options.events);
  const gap = gapArbitrary(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  return fc.array(
    fc.record({ afterMs: gap, event }),
    { minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 60, size: 'max' },
  );
}

/** One transition the driver made. */
export interface DrivenStep {
  readonly now: number;
  readonly event: LifecycleEvent;
  /** The state before the transition. */
  readonly before: LifecycleState;
  /** The state after it. */
  readonly after: LifecycleState;
  readonly commands: ReadonlyArray<LifecycleCommand>;
}

/** How {@link runWithFakeClock} runs a script. */
export interface FakeClockOptions {
  readonly config?: LifecycleConfig;
  /** The clock's start (default 0). */
  readonly start?: number;
  /** After the script, keep firing the timer until no deadline is left (default `false`). */
  readonly drain?: boolean;
}

/**
 * Runs `script` on a fake clock as a host with one timer does: before each event, while the next
 * deadline is at or before the event's time, the clock jumps to the deadline and a `Tick` is
 * delivered. Returns every transition, ticks included. A deadline that its own tick leaves in place
 * is fired once, not forever.
 * @example
 * const steps = runWithFakeClock([{ afterMs: 0, event: LifecycleEvent.turnStarted('t') }, { afterMs: 10, event: LifecycleEvent.turnCompleted('t') }], { drain: true });
 * steps.at(-1)?.commands; // [{ _tag: 'Unsubscribe', threadId: 't', reason: 'idle' }] at 10 + 30 minutes
 */
export function runWithFakeClock(script: ReadonlyArray<TimedEvent>, options: FakeClockOptions = {}): ReadonlyArray<DrivenStep> {
  const steps: DrivenStep[] = [];
  let state = initialState(options.config ?? DEFAULT_LIFECYCLE_CONFIG);
  let now = options.start ?? 0;
  const step = (event: LifecycleEvent, at: number): void => {
    const [after, commands] = transition(state, event, at);
    steps.push({ now: at, event, before: state, after, commands });
    state = after;
    now = at;
  };
  const fireTimersUntil = (until: number): void => {
    let fired: number | null = null;
    for (let due = nextDeadline(state); due !== null && due <= until; due = nextDeadline(state)) {
      // A deadline that a tick at it did not clear would fire forever; stop and let checks see it.
      if (fired !== null && due <= fired) return;
      step(LifecycleEvent.tick(), due);
      fired = due;
    }
  };
  for (const { afterMs, event } of script) {
    const at = now + afterMs;
    fireTimersUntil(at);
    step(event, at);
  }
  if (options.drain === true) fireTimersUntil(Number.POSITIVE_INFINITY);
  return steps;
}

/** One event of a task script, made from the state it comes to (so it can name a task's current thread), and its time. */
export interface ScriptedTaskEvent {
  readonly event: (state: TaskThreadsState) => TaskEvent;
  readonly at: number;
}

/** One step {@link runTaskScript} made. */
export interface TaskScriptStep {
  readonly before: TaskThreadsState;
  readonly event: TaskEvent;
  readonly after: TaskThreadsState;
  readonly commands: ReadonlyArray<TaskCommand>;
}

/** Bounds of {@link taskScriptArbitrary}. */
export interface TaskScriptOptions {
  /** The task ids (default three); each is started on app-server 1 with environment 0 before the script. */
  readonly taskIds?: ReadonlyArray<TaskId>;
  readonly maxLength?: number;
}

const taskOf = (taskId: TaskId, threadId: ThreadId) => ({ taskId, threadId, archived: false });

/**
 * Scripts of task events after the tasks were started: sends, renewals, resumes and their failures, turns,
 * acknowledgements, archives, restarts. Turns, resumes and acknowledgements name a task's current thread
 * (now and then a stray one); app-server instances are mostly the first (1..3, not always in order),
 * environments mostly 0 (0..2); new threads are fresh (`thr_new_<i>` at position i); time moves on, mostly by
 * up to a minute a step. Sequences need not be sensible: the machine is total.
 */
export function taskScriptArbitrary(options: TaskScriptOptions = {}): fc.Arbitrary<ReadonlyArray<ScriptedTaskEvent>> {
  const tasks = options.taskIds ?? ['a', 'b', 'c'];
  const event = (fresh: ThreadId): fc.Arbitrary<ScriptedTaskEvent['event']> => {
    const taskId = fc.constantFrom(...tasks);
    const threadOf = fc.oneof(
      { weight: 8, arbitrary: taskId.map((id) => (state: TaskThreadsState) => state.tasks.get(id)?.threadId ?? `thr_${id}`) },
      { weight: 1, arbitrary: fc.constant(() => 'thr_stray') },
    );
    // Mostly the first app-server and the first environment, so threads live long enough to go idle and take overrides.
    const appServer = fc.oneof({ weight: 12, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) });
    const environment = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 }) });
    const started = fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
    const why = fc.constantFrom<RenewReason>('lost', 'refused', 'environment');
    const always = <A>(arbitrary: fc.Arbitrary<A>, make: (a: A) => TaskEvent): fc.Arbitrary<ScriptedTaskEvent['event']> => arbitrary.map((a) => () => make(a));
    const onThread = <A>(arbitrary: fc.Arbitrary<A>, make: (threadId: ThreadId, a: A) => TaskEvent): fc.Arbitrary<ScriptedTaskEvent['event']> =>
      fc.tuple(threadOf, arbitrary).map(([of, a]) => (state: TaskThreadsState) => make(of(state), a));
    return fc.oneof(
      { weight: 1, arbitrary: always(appServer, TaskEvent.appServerSeen) },
      { weight: 1, arbitrary: always(fc.tuple(taskId, appServer, environment), ([id, a, e]) => TaskEvent.taskStarted(taskOf(id, fresh), a, e)) },
      { weight: 1, arbitrary: always(fc.tuple(taskId, appServer, environment), ([id, a, e]) => TaskEvent.taskForked(taskOf(id, fresh), a, e)) },
      { weight: 1, arbitrary: always(taskId, TaskEvent.taskArchived) },
      { weight: 8, arbitrary: always(fc.tuple(taskId, appServer, environment), ([id, a, e]) => TaskEvent.sendRequested(id, a, e)) },
      { weight: 2, arbitrary: always(fc.tuple(taskId, why, appServer, environment), ([id, w, a, e]) => TaskEvent.threadRenewed(id, fresh, w, a, e)) },
      {
        weight: 2,
        arbitrary: onThread(fc.tuple(appServer, environment, fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined })), (id, [a, e, key]) => TaskEvent.resumed(id, a, e, key)),
      },
      { weight: 2, arbitrary: onThread(fc.tuple(appServer, fc.boolean()), (id, [a, refused]) => TaskEvent.resumeFailed(id, a, refused)) },
      { weight: 6, arbitrary: onThread(fc.tuple(appServer, fc.constantFrom('k1', 'k2')), (id, [a, key]) => TaskEvent.turnStarting(id, a, key)) },
      { weight: 6, arbitrary: onThread(fc.tuple(started, fc.boolean()), (id, [s, rollout]) => TaskEvent.turnEnded(id, s, rollout)) },
      { weight: 2, arbitrary: onThread(fc.constant(null), (id) => TaskEvent.unsubscribed(id)) },
      { weight: 1, arbitrary: always(fc.constant(null), () => TaskEvent.tick()) },
    );
  };
  const gap = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 60_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3_600_000 }) });
  return fc
    .array(gap, { minLength: 1, maxLength: options.maxLength ?? 60, size: 'max' })
    .chain((gaps) => fc.tuple(...gaps.map((_, i) => event(`thr_new_${i}`))).map((events) => events.map((made, i) => ({ event: made, at: gaps.slice(0, i + 1).reduce((x, y) => x + y, 0) }))))
    .map((script) => [...tasks.map((id) => ({ event: () => TaskEvent.taskStarted(taskOf(id, `thr_${id}`), 1, 0), at: 0 })), ...script]);
}

/**
 * Runs a task script from no task (`config`: the lifecycle's), returning every step with the states before and after.
 * @example
 * fc.assert(fc.property(taskScriptArbitrary(), (script) => { for (const step of runTaskScript(script)) check(step); }));
 */
export function runTaskScript(script: ReadonlyArray<ScriptedTaskEvent>, config?: LifecycleConfig): ReadonlyArray<TaskScriptStep> {
  let state: TaskThreadsState = initialTaskThreads(config);
  return script.map(({ event: made, at }) => {
    const event = made(state);
    const [after, commands] = taskStep(state, event, at);
    const step = { before: state, event, after, commands };
    state = after;
    return step;
  });
}
