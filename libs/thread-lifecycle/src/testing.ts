/**
 * `@wework/thread-lifecycle/testing`: fast-check arbitraries of timed event scripts and a fake-clock
 * driver that runs a script the way a host does (one timer armed at `nextDeadline`), so hosts can
 * property-test their own use. Needs `fast-check` (an optional peer dependency).
 *
 * Every function here is pure: arbitraries describe values; fast-check supplies the randomness; the
 * driver's clock is a number it advances.
 */
import * as fc from 'fast-check';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_LIFECYCLE_CONFIG, type LifecycleConfig } from './LifecycleConfig.js';
import type { LifecycleCommand } from './LifecycleCommand.js';
import { LifecycleEvent, type ThreadId } from './LifecycleEvent.js';
import { initialState, nextDeadline, transition, type LifecycleState } from './ThreadLifecycle.js';

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
