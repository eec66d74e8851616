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

/** One deadline in a {@link Deadlines} queue; `cancel` it once it no longer matters. */
export interface Deadline {
  /** Clock reading at which it fires. */
  readonly at: number;
  readonly fire: () => void;
  /** The queue of its duration, while it waits. */
  queue: Set<Deadline> | null;
}

/**
 * Deadlines (request timeouts) over one sleep of `Timers` at a time, instead of one abortable sleep
 * per deadline: arming and cancelling a deadline is a set insertion and deletion. Deadlines of one
 * duration are queued in the order they were added, which is the order they fall due on a clock
 * that does not go back; the one sleep waits for the earliest front of those queues. A deadline
 * earlier than the armed sleep (a shorter duration) re-arms it; a cancelled one leaves it armed, so
 * the sleep may wake with nothing due and then sleeps again only if deadlines wait. Each deadline
 * fires on the first wake at which the clock reads `at` or later, never before.
 */
export class Deadlines {
  readonly #timers: Timers;
  readonly #queues = new Map<number, Set<Deadline>>();
  /** The armed sleep's deadline and its controller; null when none is armed. */
  #armedAt = Infinity;
  #controller: AbortController | null = null;
  #closed = false;

  constructor(timers: Timers) {
    this.#timers = timers;
  }

  /** Calls `fire` once `ms` have passed, unless the deadline is cancelled first. */
  add(ms: number, fire: () => void): Deadline {
    let queue = this.#queues.get(ms);
    if (queue === undefined) this.#queues.set(ms, (queue = new Set()));
    const deadline: Deadline = { at: this.#timers.now() + ms, fire, queue };
    queue.add(deadline);
    if (!this.#closed && deadline.at < this.#armedAt) this.#arm(deadline.at);
    return deadline;
  }

  /** Forgets a deadline that has not fired; cancelling it again, or after it fired, does nothing. */
  cancel(deadline: Deadline): void {
    deadline.queue?.delete(deadline);
    deadline.queue = null;
  }

  /** Disarms the sleep for good; nothing fires any more. */
  close(): void {
    this.#closed = true;
    this.#queues.clear();
    this.#disarm();
  }

  #arm(at: number): void {
    this.#disarm();
    const controller = new AbortController();
    this.#controller = controller;
    this.#armedAt = at;
    void this.#timers.sleep(Math.min(Math.max(0, at - this.#timers.now()), MAX_DELAY_MS), controller.signal).then(() => {
      if (controller.signal.aborted) return;
      this.#controller = null;
      this.#armedAt = Infinity;
      this.#wake();
    });
  }

  #disarm(): void {
    this.#controller?.abort(CANCELLED);
    this.#controller = null;
    this.#armedAt = Infinity;
  }

  /** Fires what is due, then arms the sleep for the earliest deadline left. */
  #wake(): void {
    const now = this.#timers.now();
    let next = Infinity;
    for (const queue of this.#queues.values()) {
      for (const deadline of queue) {
        if (deadline.at > now) {
          next = Math.min(next, deadline.at);
          break;
        }
        queue.delete(deadline);
        deadline.queue = null;
        deadline.fire();
        if (this.#closed) return;
      }
    }
    if (next !== Infinity && next < this.#armedAt) this.#arm(next);
  }
}
