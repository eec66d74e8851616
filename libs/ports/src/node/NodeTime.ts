/**
 * The Node implementations of the time ports: the system clock, a monotonic clock, a `setTimeout`
 * timer and abortable sleeps.
 */
import { performance } from 'node:perf_hooks';
import type { Clock, Timer, Timers } from '../Time.js';

/** The system clock: `Date.now()`, epoch milliseconds. */
export const systemClock: Clock = { now: () => Date.now() };

/** A monotonic clock: `performance.now()`; only differences between readings mean anything. */
export const monotonicClock: Clock = { now: () => performance.now() };

/**
 * The longest delay `setTimeout` takes (a longer one would fire at once): a later deadline of `nodeTimer`
 * fires then and the caller re-checks; sleeps and `after` deadlines end then.
 */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** `ms` as `setTimeout` takes it: at least 0, at most {@link MAX_DELAY_MS}. */
const timeoutDelay = (ms: number): number => Math.min(Math.max(0, ms), MAX_DELAY_MS);

/**
 * A timer over `setTimeout`, unref'd so a pending deadline never keeps the process alive on its own.
 *
 * @example
 * ```ts
 * import { nodeTimer, systemClock } from '@wework/ports/node';
 * const timer = nodeTimer(systemClock);
 * timer.set(systemClock.now() + 30 * 60_000, () => console.log('idle'));
 * ```
 */
export function nodeTimer(clock: Clock): Timer {
  let handle: NodeJS.Timeout | undefined;
  const clear = (): void => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
  return {
    set: (at, fire) => {
      clear();
      handle = setTimeout(() => {
        handle = undefined;
        fire();
      }, timeoutDelay(at - clock.now()));
      handle.unref();
    },
    clear,
  };
}

/**
 * Timers backed by `performance.now()` and `setTimeout`. A sleep or an `after` deadline longer than
 * `setTimeout` takes ends at that longest, about 24.8 days.
 *
 * @example
 * ```ts
 * import { nodeTimers } from '@wework/ports/node';
 * await nodeTimers.sleep(100, AbortSignal.timeout(50)); // resolves after 50 ms
 * const cancel = nodeTimers.after(30_000, () => console.log('timed out'));
 * cancel(); // never logs
 * ```
 */
export const nodeTimers: Timers = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted === true) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutDelay(ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
  after: (ms, fire) => {
    const timer = setTimeout(fire, timeoutDelay(ms));
    return () => clearTimeout(timer);
  },
};
