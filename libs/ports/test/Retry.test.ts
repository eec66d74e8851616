import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renameRetryFor } from '../src/index.js';
import {
  backoffDelays,
  errorCodeOf,
  NO_RETRY,
  retryOnCodes,
  WINDOWS_RENAME_RETRY,
  WINDOWS_TRANSIENT_CODES,
  type RetrySchedule,
} from '../src/Retry.js';

const failure = (code: string | undefined, attempt: number): Error => Object.assign(new Error(`attempt ${attempt}`), code === undefined ? {} : { code });

/** Runs `retryOnCodes` over an operation failing with `codes[i]` on try i (then succeeding), recording the sleeps. */
const run = async (codes: ReadonlyArray<string | undefined>, schedule: RetrySchedule) => {
  const slept: number[] = [];
  let tries = 0;
  const outcome = await retryOnCodes(
    async () => {
      const attempt = tries++;
      if (attempt < codes.length) throw failure(codes[attempt], attempt);
      return 'done';
    },
    schedule,
    async (ms) => void slept.push(ms),
  ).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: error as Error }),
  );
  return { outcome, slept, tries };
};

const sum = (values: ReadonlyArray<number>): number => values.reduce((total, value) => total + value, 0);

const backoffOptions = fc.record({
  firstDelayMs: fc.integer({ min: 0, max: 1_000 }),
  factor: fc.double({ min: 0, max: 10, noNaN: true }),
  maxDelayMs: fc.integer({ min: 0, max: 5_000 }),
  totalMs: fc.integer({ min: 0, max: 60_000 }),
});

const codes = fc.constantFrom('EPERM', 'EBUSY', 'EACCES', 'ENOENT', 'EEXIST', 'EXDEV', 'ENOTEMPTY');
const schedules = fc.record({
  retryOn: fc.uniqueArray(codes, { maxLength: 4 }),
  delaysMs: fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 8 }),
});

describe('backoffDelays', () => {
  it('matches the documented example and the Windows default', () => {
    expect(backoffDelays({ firstDelayMs: 10, factor: 2, maxDelayMs: 100, totalMs: 300 })).toEqual([10, 20, 40, 80, 100, 50]);
    expect(WINDOWS_RENAME_RETRY.delaysMs).toEqual([10, 20, 40, 80, 160, 250, 250, 250, 250, 250, 250, 190]);
    expect(WINDOWS_RENAME_RETRY.retryOn).toEqual(WINDOWS_TRANSIENT_CODES);
  });

  it('never waits longer than the budget in all, nor longer than the cap once, and never shrinks but at the end', () => {
    fc.assert(
      fc.property(backoffOptions, (options) => {
        const delays = backoffDelays(options);
        expect(sum(delays)).toBeLessThanOrEqual(options.totalMs);
        expect(delays.length).toBeLessThanOrEqual(1_000);
        for (const delay of delays) {
          expect(delay).toBeGreaterThan(0);
          expect(delay).toBeLessThanOrEqual(options.maxDelayMs);
        }
        for (let i = 1; i < delays.length - 1; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] as number);
      }),
    );
  });

  it('spends the whole budget when growth reaches it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 20_000 }), (first, total) => {
        const delays = backoffDelays({ firstDelayMs: first, factor: 2, maxDelayMs: 250, totalMs: total });
        expect(sum(delays)).toBe(total);
      }),
    );
  });

  it('has no delay at all for a zero budget or a zero first delay', () => {
    expect(backoffDelays({ totalMs: 0 })).toEqual([]);
    expect(backoffDelays({ firstDelayMs: 0 })).toEqual([]);
    expect(backoffDelays({ totalMs: Number.NaN })).toEqual([]);
  });
});

describe('retryOnCodes', () => {
  it('retries only the scheduled codes, waits only the scheduled delays, and gives up with the last error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(codes, { nil: undefined }), { maxLength: 12 }), schedules, async (failures, schedule) => {
        const { outcome, slept, tries } = await run(failures, schedule);
        // The model: try i fails with failures[i] (while there is one) and is retried only if its code is scheduled and a delay is left.
        let expected: { readonly ok: boolean; readonly tries: number } | undefined;
        for (let i = 0; expected === undefined; i++) {
          const code = failures[i];
          if (i === failures.length) expected = { ok: true, tries: i + 1 };
          else if (code === undefined || !schedule.retryOn.includes(code) || i >= schedule.delaysMs.length) expected = { ok: false, tries: i + 1 };
        }
        expect({ ok: outcome.ok, tries }).toEqual(expected);
        // A failure rejects with the error of the last try, as thrown.
        if (!outcome.ok) expect(outcome.error.message).toBe(`attempt ${tries - 1}`);
        else expect(outcome.value).toBe('done');
        expect(slept).toEqual(schedule.delaysMs.slice(0, tries - 1));
        expect(sum(slept)).toBeLessThanOrEqual(sum(schedule.delaysMs));
      }),
    );
  });

  it('never retries without a schedule (Unix)', async () => {
    const { outcome, tries, slept } = await run(['EBUSY'], renameRetryFor('unix'));
    expect(renameRetryFor('unix')).toBe(NO_RETRY);
    expect({ ok: outcome.ok, tries, slept }).toEqual({ ok: false, tries: 1, slept: [] });
  });

  it('retries a Windows rename through a brief lock and gives up after the budget', async () => {
    const through = await run(['EBUSY', 'EPERM', 'EACCES'], renameRetryFor('windows'));
    expect(through).toMatchObject({ outcome: { ok: true }, tries: 4, slept: [10, 20, 40] });
    const held = await run(Array.from({ length: 50 }, () => 'EBUSY'), renameRetryFor('windows'));
    expect(held.tries).toBe(WINDOWS_RENAME_RETRY.delaysMs.length + 1);
    expect(sum(held.slept)).toBe(2_000);
    expect(held.outcome).toMatchObject({ ok: false, error: { code: 'EBUSY' } });
    const missing = await run(['ENOENT'], renameRetryFor('windows'));
    expect(missing).toMatchObject({ outcome: { ok: false, error: { code: 'ENOENT' } }, tries: 1, slept: [] });
  });

  it('reads only string codes', () => {
    expect(errorCodeOf(failure('EBUSY', 0))).toBe('EBUSY');
    expect(errorCodeOf({ code: 5 })).toBeUndefined();
    expect(errorCodeOf('EBUSY')).toBeUndefined();
    expect(errorCodeOf(null)).toBeUndefined();
  });
});
