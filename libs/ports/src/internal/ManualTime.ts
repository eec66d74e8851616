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
  /** Moves the clock on and wakes the sleeps that are due. */
  advance(ms: number): void;
  /** Number of sleeps and deadlines waiting. */
  pending(): number;
}

const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

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
    const deadline = { at: now + Math.max(0, ms), fire };
    deadlines.add(deadline);
    return () => void deadlines.delete(deadline);
  };
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (isAborted(signal)) return resolve();
        const cancel = after(ms, resolve);
        signal?.addEventListener(
          'abort',
          () => {
            cancel();
            resolve();
          },
          { once: true },
        );
      }),
    after,
    advance(ms) {
      now += ms;
      // A deadline cancelled by an earlier one firing in this advance stays cancelled.
      for (const deadline of [...deadlines]) {
        if (deadline.at > now || !deadlines.delete(deadline)) continue;
        deadline.fire();
      }
    },
    pending: () => deadlines.size,
  };
}
