import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { attemptFailed, isDue, nextAttemptAt, retryDelay, type RemovalState } from '../src/index.js';
import { attemptSucceeded, removalFromRecord, removalToRecord, requestRemoval, startAttempt } from '../src/RemovalRetry.js';
import { makeFakeClock } from '../src/testing.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

describe('cloud removal retries', () => {
  it('schedule: immediate, then 1, 2, 4, 8, 16, 32 min, then hourly', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 50, 10_000].map(retryDelay)).toEqual([
      0,
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      16 * MINUTE,
      32 * MINUTE,
      HOUR,
      HOUR,
      HOUR,
      HOUR,
    ]);
  });

  it('delays are monotone, double from 60 s and are capped at one hour (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (n) => {
        const delay = retryDelay(n);
        const next = retryDelay(n + 1);
        expect(delay).toBeGreaterThanOrEqual(MINUTE);
        expect(delay).toBeLessThanOrEqual(HOUR);
        expect(next).toBeGreaterThanOrEqual(delay);
        expect(next).toBe(Math.min(2 * delay, HOUR));
      }),
    );
  });

  it('drives pending → attempt → failed(nextAt) → … → done with a fake clock (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.array(fc.integer({ min: 0, max: 2 * HOUR }), { minLength: 12, maxLength: 12 }), (failures, lateness) => {
        const clock = makeFakeClock();
        let state: RemovalState = requestRemoval(clock.now());
        expect(isDue(state, clock.now())).toBe(true); // the first attempt is immediate
        expect(nextAttemptAt(state)).toBe(clock.now());
        let previousGap = 0;
        for (let attempt = 1; attempt <= failures + 1; attempt += 1) {
          const started = startAttempt(state, clock.now());
          if (E.isLeft(started)) throw new Error(started.left.message);
          expect(started.right.attempts).toBe(attempt);
          expect(E.isLeft(startAttempt(started.right, clock.now()))).toBe(true); // no second attempt while one runs
          if (attempt === failures + 1) {
            state = attemptSucceeded(started.right, clock.now());
            break;
          }
          const failed = attemptFailed(started.right, clock.now());
          const gap = failed.nextAttemptAt - failed.lastAttemptAt;
          expect(gap).toBe(Math.min(MINUTE * 2 ** (attempt - 1), HOUR));
          expect(gap).toBeGreaterThanOrEqual(previousGap);
          previousGap = gap;
          clock.advance(gap - 1);
          expect(isDue(failed, clock.now())).toBe(false);
          expect(E.isLeft(startAttempt(failed, clock.now()))).toBe(true);
          clock.advance(1 + (lateness[attempt - 1] ?? 0));
          expect(isDue(failed, clock.now())).toBe(true);
          state = failed;
        }
        expect(state._tag).toBe('Done');
        expect(nextAttemptAt(state)).toBeNull();
        expect(isDue(state, clock.now())).toBe(false);
        expect(removalToRecord(state)).toBeNull();
      }),
    );
  });

  it('continues the schedule from the device installation record', () => {
    const at = 1_700_000_000_000;
    expect(removalFromRecord({ attempts: 0, syncedAt: at })).toEqual({ _tag: 'Pending', requestedAt: at });
    expect(removalFromRecord({ attempts: 3, syncedAt: at })).toEqual({ _tag: 'Failed', attempts: 3, lastAttemptAt: at, nextAttemptAt: at + 4 * MINUTE });
    expect(removalFromRecord({ attempts: -2, syncedAt: at })._tag).toBe('Pending');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 2_000_000_000_000 }), (attempts, syncedAt) => {
        const state = removalFromRecord({ attempts, syncedAt });
        expect(removalToRecord(state)).toEqual({ attempts, syncedAt });
      }),
    );
  });

  it('a crash during an attempt counts as a failed attempt', () => {
    const started = startAttempt(requestRemoval(1000), 1000);
    if (E.isLeft(started)) throw new Error('due');
    const record = removalToRecord(started.right);
    expect(record).toEqual({ attempts: 1, syncedAt: 1000 });
    const restored = removalFromRecord(record ?? { attempts: 0, syncedAt: 0 });
    expect(isDue(restored, 1000 + MINUTE - 1)).toBe(false);
    expect(isDue(restored, 1000 + MINUTE)).toBe(true);
  });

  it('a clock set back before the last attempt makes the removal due', () => {
    const failed = removalFromRecord({ attempts: 8, syncedAt: 10 * HOUR });
    expect(isDue(failed, 10 * HOUR + 1)).toBe(false);
    expect(isDue(failed, 9 * HOUR)).toBe(true);
  });
});
