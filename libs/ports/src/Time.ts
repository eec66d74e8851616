/**
 * The time ports: a clock to read, one re-armable timer, and sleeps. Nothing in a pure library reads
 * the time or schedules anything by itself; hosts inject these. `@wework/ports/node` implements them
 * with `Date.now()`, `performance.now()` and `setTimeout`; `@wework/ports/testing` with time that
 * moves only when a test advances it.
 *
 * This module is pure: it declares the ports only.
 */

/**
 * A source of the current time in milliseconds: epoch milliseconds for {@link systemClock}-like
 * clocks, a monotonic count where only differences matter.
 *
 * @example
 * ```ts
 * const clock: Clock = { now: () => 1_700_000_000_000 };
 * clock.now(); // 1700000000000
 * ```
 */
export interface Clock {
  /** The current time, milliseconds. */
  now(): number;
}

/** One timer: arming it again replaces the previous deadline. */
export interface Timer {
  /** Calls `fire` once the clock reads `at` or later (at once when already due). */
  set(at: number, fire: () => void): void;
  /** Disarms the timer. */
  clear(): void;
}

/** A clock with abortable sleeps and cancellable deadlines, for timeouts and polling intervals. */
export interface Timers extends Clock {
  /** Resolves after `ms`, or as soon as `signal` aborts. Never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fire` once `ms` have passed, unless the returned function is called first; after that
   * call `fire` never runs, and calling it again does nothing. `fire` never runs before `after` has
   * returned (so it may call the cancel it returns). A pending deadline keeps a Node process alive, as
   * a sleep does. An implementation may cap a very long delay (Node's fires at about 24.8 days). For
   * the deadline armed and then cancelled with every request: it needs no `AbortController` (on Node 20
   * arming and cancelling a sleep with a signal took about 16 µs, a deadline about 1 µs).
   */
  after(ms: number, fire: () => void): () => void;
}
