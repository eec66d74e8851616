/**
 * Retrying failed cloud plugin removals. The first removal attempt is immediate; after the n-th
 * failed attempt the next one is due `min(60 s · 2^(n-1), 1 h)` after it: 60 s, 2 min, 4 min, …,
 * then every hour. The state lives in the device installation record (its attempt count and sync
 * timestamp), so a restart continues the same schedule; heartbeats ask {@link isDue} and start an
 * attempt when it says so. Nothing here waits or schedules: {@link nextAttemptAt} says when.
 *
 *     Pending ──start──▶ Attempting ──succeeded──▶ Done
 *        ▲                  │  ▲
 *        │               failed │ start (when due)
 *        │                  ▼  │
 *     (record with       Failed(nextAttemptAt)
 *      0 attempts)
 *
 * Every function here is pure: states are immutable values and the time is a `now` argument.
 */
import * as E from 'fp-ts/lib/Either.js';

/** Delay after the first failed attempt: 60 s. */
export const FIRST_RETRY_DELAY_MS = 60 * 1000;
/** The longest delay between attempts: one hour. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/** The removal was requested and has not been attempted: due at once. */
export interface RemovalPending {
  readonly _tag: 'Pending';
  /** Epoch ms of the request. */
  readonly requestedAt: number;
}

/** An attempt is running. */
export interface RemovalAttempting {
  readonly _tag: 'Attempting';
  /** Attempts made so far, this one included (≥ 1). */
  readonly attempts: number;
  readonly startedAt: number;
}

/** The last attempt failed; the next is due at `nextAttemptAt`. */
export interface RemovalFailed {
  readonly _tag: 'Failed';
  /** Failed attempts so far (≥ 1). */
  readonly attempts: number;
  readonly lastAttemptAt: number;
  readonly nextAttemptAt: number;
}

/** The removal succeeded. */
export interface RemovalDone {
  readonly _tag: 'Done';
  readonly attempts: number;
  readonly completedAt: number;
}

/** Where a cloud removal stands. */
export type RemovalState = RemovalPending | RemovalAttempting | RemovalFailed | RemovalDone;

/** An attempt cannot start now. */
export interface RemovalNotDue {
  readonly _tag: 'RemovalNotDue';
  /** When it can (`null`: never, the removal is running or done). */
  readonly nextAttemptAt: number | null;
  readonly state: RemovalState['_tag'];
  readonly message: string;
}

/**
 * The delay before the next attempt after `failedAttempts` failed attempts: 60 s doubling per
 * failure, capped at one hour. `0` failed attempts → `0` (the first attempt is immediate).
 * @example
 * ```ts
 * retryDelay(1); // 60_000
 * retryDelay(3); // 240_000
 * retryDelay(9); // 3_600_000 (capped)
 * ```
 */
export const retryDelay = (failedAttempts: number): number => {
  if (!(failedAttempts >= 1)) return 0;
  // 2^6 · 60 s already exceeds the cap; avoid huge exponents.
  const exponent = Math.min(Math.floor(failedAttempts) - 1, 6);
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** exponent, MAX_RETRY_DELAY_MS);
};

/** A new removal request at `now`. */
export const requestRemoval = (now: number): RemovalPending => ({ _tag: 'Pending', requestedAt: now });

/**
 * When the next attempt is due: the request time for `Pending` (immediately), `nextAttemptAt` for
 * `Failed`, `null` while an attempt runs or after success.
 */
export const nextAttemptAt = (state: RemovalState): number | null => {
  switch (state._tag) {
    case 'Pending':
      return state.requestedAt;
    case 'Failed':
      return state.nextAttemptAt;
    case 'Attempting':
    case 'Done':
      return null;
  }
};

/**
 * Whether an attempt should start at `now`: always for `Pending`; for `Failed` once `nextAttemptAt`
 * has come — or if the clock reads earlier than the last attempt (a clock set back must not stall
 * cleanup).
 */
export const isDue = (state: RemovalState, now: number): boolean => {
  switch (state._tag) {
    case 'Pending':
      return true;
    case 'Failed':
      return now >= state.nextAttemptAt || now < state.lastAttemptAt;
    case 'Attempting':
    case 'Done':
      return false;
  }
};

/** Starts an attempt at `now` if one {@link isDue}; otherwise `Left(RemovalNotDue)`. */
export const startAttempt = (state: RemovalState, now: number): E.Either<RemovalNotDue, RemovalAttempting> => {
  if (!isDue(state, now)) {
    const at = nextAttemptAt(state);
    return E.left({
      _tag: 'RemovalNotDue',
      nextAttemptAt: at,
      state: state._tag,
      message: at === null ? `No removal attempt can start: the removal is ${state._tag === 'Done' ? 'done' : 'already running'}` : `The next removal attempt is due at ${at}`,
    });
  }
  const previous = state._tag === 'Failed' ? state.attempts : 0;
  return E.right({ _tag: 'Attempting', attempts: previous + 1, startedAt: now });
};

/** The running attempt failed at `now`: the next one is due after {@link retryDelay}. */
export const attemptFailed = (state: RemovalAttempting, now: number): RemovalFailed => ({
  _tag: 'Failed',
  attempts: state.attempts,
  lastAttemptAt: now,
  nextAttemptAt: now + retryDelay(state.attempts),
});

/** The running attempt succeeded at `now`. */
export const attemptSucceeded = (state: RemovalAttempting, now: number): RemovalDone => ({
  _tag: 'Done',
  attempts: state.attempts,
  completedAt: now,
});

/** What the device installation record keeps of a pending removal. */
export interface RemovalRecord {
  /** Attempts made (`0`: never attempted). */
  readonly attempts: number;
  /** Epoch ms of the last attempt (the record's sync timestamp); the request time when `attempts` is 0. */
  readonly syncedAt: number;
}

/**
 * The state a device installation record stands for: no attempts → `Pending`; otherwise `Failed`
 * after `attempts` failures at `syncedAt`. A negative or fractional count is read as its floor, at
 * least 0.
 */
export const removalFromRecord = (record: RemovalRecord): RemovalPending | RemovalFailed => {
  const attempts = Number.isFinite(record.attempts) ? Math.max(0, Math.floor(record.attempts)) : 0;
  return attempts === 0
    ? { _tag: 'Pending', requestedAt: record.syncedAt }
    : { _tag: 'Failed', attempts, lastAttemptAt: record.syncedAt, nextAttemptAt: record.syncedAt + retryDelay(attempts) };
};

/**
 * The record to persist for a state, or `null` once the removal is done (delete the record). A
 * running attempt is persisted as already made, so a crash during it counts as a failure and the
 * next start waits for its backoff instead of retrying in a loop.
 */
export const removalToRecord = (state: RemovalState): RemovalRecord | null => {
  switch (state._tag) {
    case 'Pending':
      return { attempts: 0, syncedAt: state.requestedAt };
    case 'Attempting':
      return { attempts: state.attempts, syncedAt: state.startedAt };
    case 'Failed':
      return { attempts: state.attempts, syncedAt: state.lastAttemptAt };
    case 'Done':
      return null;
  }
};
