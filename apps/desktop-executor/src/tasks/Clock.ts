/**
 * The task runtime's view of time: a clock to read and one timer to arm. The Node implementations use
 * `Date.now()` and `setTimeout`; tests inject a fake clock that they advance by hand.
 */

/** Reads the time, in milliseconds. */
export interface Clock {
  now(): number;
}

/** One timer: arming it again replaces the previous deadline. */
export interface TimerPort {
  /** Calls `fire` once `clock.now() >= at` (at once when already due). */
  set(at: number, fire: () => void): void;
  /** Disarms the timer. */
  clear(): void;
}

/** The system clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A timer over `setTimeout`, unref'd so an idle deadline never keeps the process alive.
 * @example
 * const timer = nodeTimer(systemClock);
 * timer.set(systemClock.now() + 30 * 60_000, () => console.log('idle'));
 */
export function nodeTimer(clock: Clock): TimerPort {
  let handle: NodeJS.Timeout | undefined;
  const clear = (): void => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
  return {
    set: (at, fire) => {
      clear();
      // setTimeout caps delays at 2^31-1 ms; a later deadline just re-checks then.
      const delay = Math.min(Math.max(0, at - clock.now()), 2 ** 31 - 1);
      handle = setTimeout(() => {
        handle = undefined;
        fire();
      }, delay);
      handle.unref();
    },
    clear,
  };
}
