/**
 * The reconnect schedule: the first attempt after `minDelayMs`, each further one doubling, none over
 * `maxDelayMs`.
 *
 * Every function here is pure.
 */

/** The bounds of the reconnect schedule. */
export interface BackoffBounds {
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * The wait before reconnect attempt `attempt` (0 for the first).
 * @example
 * ```ts
 * [0, 1, 2, 3, 10].map((a) => reconnectDelay(a, { minDelayMs: 250, maxDelayMs: 5000 })); // [250, 500, 1000, 2000, 5000]
 * ```
 */
export function reconnectDelay(attempt: number, bounds: BackoffBounds): number {
  const min = Math.max(0, bounds.minDelayMs);
  const max = Math.max(min, bounds.maxDelayMs);
  if (!Number.isFinite(attempt) || attempt < 0) return min;
  // 2 ** 60 is past any bound; capping the exponent keeps the product finite.
  return Math.min(max, min * 2 ** Math.min(Math.floor(attempt), 60));
}
