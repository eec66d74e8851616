/**
 * Time under test control: clocks, a timer and sleeps that move only when a test advances them.
 * Exported by `./testing`.
 *
 * Pure TypeScript: no clock, no timers of the runtime.
 */
import type { Clock, Timer, Timers } from '../Time.js';

/** A {@link Clock} and one {@link Timer} that only move when the test says so. */
export interface ManualClock extends Clock, Timer {
  /** Moves time forward and fires the timer when it is due. */
  advance(ms: number): void;
  /** The armed deadline, or null. */
  deadline(): number | null;
}

/**
 * A manual clock and timer starting at `start`.
 *
 * @example
 * ```ts
 * const clock = manualClock(0);
 * clock.set(1000, () => console.log('due'));
 * clock.advance(1000); // logs 'due'
 * ```
 */
export function manualClock(start = 1_000_000): ManualClock {
  let now = start;
  let armed: { readonly at: number; readonly fire: () => void } | null = null;
  const fireIfDue = (): void => {
    if (armed !== null && armed.at <= now) {
      const { fire } = armed;
      armed = null;
      fire();
    }
  };
  return {
    now: () => now,
    set: (at, fire) => {
      armed = { at, fire };
      fireIfDue();
    },
    clear: () => void (armed = null),
    advance: (ms) => {
      now += ms;
      fireIfDue();
    },
    deadline: () => armed?.at ?? null,
  };
}

/** {@link Timers} under test control: time moves only through {@link ManualTimers.advance}. */
export interface ManualTimers extends Timers {
  /**
   * Moves the clock on by `ms`, firing what comes due in order of due time (the first armed among
   * equals), synchronously, with the clock reading each one's time while it fires; a deadline armed
   * while firing that is due by the end fires in the same advance. A sleep's wake resolves its promise,
   * so its continuation runs after `advance` returns. When a deadline's `fire` throws, the others still
   * fire and the clock still reaches its end; then the first error is thrown.
   */
  advance(ms: number): void;
  /** Number of sleeps and deadlines waiting. */
  pending(): number;
}

const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/** A bound on the deadlines one `advance` fires, so a deadline that re-arms itself at once cannot hang a test. */
const MAX_FIRED_PER_ADVANCE = 100_000;

/** The deadline due first at `until` (the first armed among equals), or null when none is due. */
const earliestDue = <D extends { readonly at: number }>(deadlines: ReadonlySet<D>, until: number): D | null => {
  let next: D | null = null;
  for (const deadline of deadlines) if (deadline.at <= until && (next === null || deadline.at < next.at)) next = deadline;
  return next;
};

/**
 * Manual timers starting at 0.
 *
 * @example
 * ```ts
 * const timers = manualTimers();
 * const slept = timers.sleep(1000);
 * timers.advance(1000); // `slept` resolves
 * const cancel = timers.after(500, () => console.log('due'));
 * cancel();
 * timers.advance(500); // logs nothing
 * ```
 */
export function manualTimers(): ManualTimers {
  let now = 0;
  const deadlines = new Set<{ readonly at: number; readonly fire: () => void }>();
  const after = (ms: number, fire: () => void): (() => void) => {
    const deadline = { at: now + (Number.isNaN(ms) ? 0 : Math.max(0, ms)), fire };
    deadlines.add(deadline);
    return () => void deadlines.delete(deadline);
  };
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (isAborted(signal)) return resolve();
        // Whichever comes first undoes the other: a sleep that ends leaves nothing on a signal that lives on.
        const done = (): void => {
          cancel();
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const cancel = after(ms, done);
        signal?.addEventListener('abort', done, { once: true });
      }),
    after,
    advance(ms) {
      const until = now + ms;
      let fired = 0;
      let failure: { readonly error: unknown } | null = null;
      for (let next = earliestDue(deadlines, until); next !== null; next = earliestDue(deadlines, until)) {
        if (++fired > MAX_FIRED_PER_ADVANCE) throw new Error(`more than ${MAX_FIRED_PER_ADVANCE} deadlines came due in one advance: one re-arms itself at once`);
        deadlines.delete(next);
        now = Math.max(now, next.at);
        try {
          next.fire();
        } catch (error) {
          failure ??= { error };
        }
      }
      now = until;
      if (failure !== null) throw failure.error;
    },
    pending: () => deadlines.size,
  };
}
