/**
 * Waits and deadlines over the `Timers` port of `@wework/ports`: the client never calls `setTimeout`
 * itself, so whoever creates it (a host, or a test with `manualTimers`) decides what time is.
 */
import type { Timers } from '@wework/ports';

/** The longest delay a Node timer takes (about 24.8 days); longer waits are clamped to it. */
export const MAX_DELAY_MS = 2_147_483_647;

/** What `promise` gives, or `undefined` when `ms` pass first; the deadline is cancelled as soon as `promise` settles. */
export async function withTimeout<A>(timers: Timers, promise: Promise<A>, ms: number): Promise<A | undefined> {
  let cancel: () => void = () => undefined;
  const timedOut = new Promise<undefined>((resolve) => (cancel = timers.after(ms, () => resolve(undefined))));
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    cancel();
  }
}
