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
  /** Number of sleeps waiting. */
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
 * ```
 */
export function manualTimers(): ManualTimers {
  let now = 0;
  const sleepers = new Set<{ readonly at: number; readonly wake: () => void }>();
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve) => {
        if (isAborted(signal)) return resolve();
        const sleeper = {
          at: now + Math.max(0, ms),
          wake: () => {
            sleepers.delete(sleeper);
            resolve();
          },
        };
        sleepers.add(sleeper);
        signal?.addEventListener('abort', sleeper.wake, { once: true });
      });
    },
    advance(ms) {
      now += ms;
      for (const sleeper of [...sleepers]) if (sleeper.at <= now) sleeper.wake();
    },
    pending: () => sleepers.size,
  };
}
