/**
 * Waits and deadlines over the `Timers` port of `@wework/ports`: the client never calls `setTimeout`
 * itself, so whoever creates it (a host, or a test with `manualTimers`) decides what time is.
 */
import type { Timers } from '@wework/ports';

/** The longest delay a Node timer takes (about 24.8 days); longer waits are clamped to it. */
export const MAX_DELAY_MS = 2_147_483_647;

/** Calls `fire` once `ms` have passed on `timers`, unless the returned function cancels it first. */
export function after(timers: Timers, ms: number, fire: () => void): () => void {
  const controller = new AbortController();
  void timers.sleep(ms, controller.signal).then(() => {
    if (!controller.signal.aborted) fire();
  });
  return () => controller.abort();
}

/** What `promise` gives, or `undefined` when `ms` pass first; the wait ends as soon as `promise` settles. */
export async function withTimeout<A>(timers: Timers, promise: Promise<A>, ms: number): Promise<A | undefined> {
  const controller = new AbortController();
  try {
    return await Promise.race([promise, timers.sleep(ms, controller.signal).then(() => undefined)]);
  } finally {
    controller.abort();
  }
}
