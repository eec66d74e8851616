/**
 * The Node {@link Timers}: a monotonic clock and abortable sleeps.
 */
import { performance } from 'node:perf_hooks';
import type { Timers } from '../Ports.js';

/**
 * Timers backed by `performance.now()` and `setTimeout`.
 *
 * @example
 * ```ts
 * import { nodeTimers } from '@wework/local-auth/node';
 * const session = startLoginSession({ runner, tools, timers: nodeTimers }, target);
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
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
};
