/**
 * The clock port. Nothing in this library reads the time by itself: functions take `now` (epoch
 * milliseconds) or a {@link Clock}, and nothing schedules anything — values such as `expiresAt` or
 * `nextAttemptAt` say when the caller should look again.
 */

/** A source of the current time in epoch milliseconds, injected by the host (`Date.now` in production). */
export interface Clock {
  /** The current time, epoch milliseconds. */
  now(): number;
}
