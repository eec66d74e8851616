/**
 * Waits and deadlines over the `Timers` port of `@wework/ports`: the client never calls `setTimeout`
 * itself, so whoever creates it (a host, or a test with `manualTimers`) decides what time is.
 */
import type { Timers } from '@wework/ports';

/** The longest delay a Node timer takes (about 24.8 days); longer waits are clamped to it. */
export const MAX_DELAY_MS = 2_147_483_647;

/**
 * The reason the controllers here are aborted with. `abort()` without one builds a `DOMException`
 * (with its stack) each time, and every request arms and then cancels a timeout: a constant costs
 * nothing. Nobody reads it: `Timers.sleep` only ends its wait.
 */
const CANCELLED = 'cancelled';

/** Calls `fire` once `ms` have passed on `timers`, unless the returned function cancels it first. */
export function after(timers: Timers, ms: number, fire: () => void): () => void {
  const controller = new AbortController();
  void timers.sleep(ms, controller.signal).then(() => {
    if (!controller.signal.aborted) fire();
  });
  return () => controller.abort(CANCELLED);
}

/** What `promise` gives, or `undefined` when `ms` pass first; the wait ends as soon as `promise` settles. */
export async function withTimeout<A>(timers: Timers, promise: Promise<A>, ms: number): Promise<A | undefined> {
  const controller = new AbortController();
  try {
    return await Promise.race([promise, timers.sleep(ms, controller.signal).then(() => undefined)]);
  } finally {
    controller.abort(CANCELLED);
  }
}
