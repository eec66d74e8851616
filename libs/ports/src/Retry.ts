/**
 * Retrying an operation that fails for a moment: on Windows an antivirus scanner, the search indexer
 * or a backup agent holds a file open briefly, and a rename over it fails with `EPERM`, `EBUSY` or
 * `EACCES` until they let go.
 *
 * Every function is pure: a schedule is plain data, and {@link retryOnCodes} waits only through the
 * `sleep` it is given. Nothing here reads a clock or schedules anything by itself.
 */
import type { Platform } from './Platform.js';

/**
 * When to try an operation again: after a failure whose code is in `retryOn`, wait the next of
 * `delaysMs` and try again; once the delays are used up, give up with the last failure. An operation
 * is so tried at most `delaysMs.length + 1` times, and the total wait is the sum of `delaysMs`.
 */
export interface RetrySchedule {
  /** The error codes worth another try (`EBUSY`, ...); any other failure is final at once. */
  readonly retryOn: ReadonlyArray<string>;
  /** The wait before each further try, milliseconds. */
  readonly delaysMs: ReadonlyArray<number>;
}

/** Options of {@link backoffDelays}. */
export interface BackoffOptions {
  /** The first wait; default 10 ms. */
  readonly firstDelayMs?: number;
  /** Each wait is the previous one times this (at least 1); default 2. */
  readonly factor?: number;
  /** No single wait is longer; default 250 ms. */
  readonly maxDelayMs?: number;
  /** The waits add up to at most this; default 2 000 ms. */
  readonly totalMs?: number;
}

const nonNegative = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);

/**
 * Exponential backoff delays that add up to at most `totalMs`: `first, first·factor, ...`, each capped
 * at `maxDelayMs`; the last one is shortened so the sum meets `totalMs` exactly when the budget allows.
 * At most 1 000 delays.
 *
 * @example
 * ```ts
 * backoffDelays({ firstDelayMs: 10, factor: 2, maxDelayMs: 100, totalMs: 300 }); // [10, 20, 40, 80, 100, 50]
 * ```
 */
export function backoffDelays(options: BackoffOptions = {}): number[] {
  const total = nonNegative(options.totalMs ?? 2_000);
  const max = nonNegative(options.maxDelayMs ?? 250);
  const factor = Math.max(1, Number.isFinite(options.factor) ? (options.factor as number) : 2);
  let next = Math.min(nonNegative(options.firstDelayMs ?? 10), max);
  const delays: number[] = [];
  let spent = 0;
  while (next > 0 && spent < total && delays.length < 1_000) {
    const delay = Math.min(next, total - spent);
    delays.push(delay);
    spent += delay;
    next = Math.min(next * factor, max);
  }
  return delays;
}

/** The codes a Windows file operation fails with while another program holds the file open. */
export const WINDOWS_TRANSIENT_CODES: ReadonlyArray<string> = ['EPERM', 'EBUSY', 'EACCES'];

/** No retry at all: every failure is final. */
export const NO_RETRY: RetrySchedule = { retryOn: [], delaysMs: [] };

/** Renames on Windows: {@link WINDOWS_TRANSIENT_CODES}, backoff from 10 ms to 250 ms, 2 s in all. */
export const WINDOWS_RENAME_RETRY: RetrySchedule = { retryOn: WINDOWS_TRANSIENT_CODES, delaysMs: backoffDelays() };

/**
 * The schedule a rename on `platform` is retried with: {@link WINDOWS_RENAME_RETRY} on Windows,
 * {@link NO_RETRY} on Unix, where a rename is not blocked by a reader holding the file open.
 */
export const renameRetryFor = (platform: Platform): RetrySchedule => (platform === 'windows' ? WINDOWS_RENAME_RETRY : NO_RETRY);

/** The `code` of a thrown error (`EBUSY`, ...), if it has a string one. */
export const errorCodeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/**
 * Runs `operation`, and again after each of `schedule.delaysMs` for as long as it fails with a code
 * in `schedule.retryOn`. Resolves with the first success; rejects with the failure that ended it: one
 * whose code is not retried, or the last one once the delays are used up.
 *
 * @example
 * ```ts
 * await retryOnCodes(() => fs.rename(from, to), WINDOWS_RENAME_RETRY, (ms) => new Promise((r) => setTimeout(r, ms)));
 * ```
 */
export async function retryOnCodes<A>(operation: () => Promise<A>, schedule: RetrySchedule, sleep: (ms: number) => Promise<void>): Promise<A> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const code = errorCodeOf(error);
      const delay = schedule.delaysMs[attempt];
      if (delay === undefined || code === undefined || !schedule.retryOn.includes(code)) throw error;
      await sleep(delay);
    }
  }
}
