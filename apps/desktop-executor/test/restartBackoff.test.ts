/**
 * The restart backoff the executor's environment may set: a whole number of milliseconds in range is a
 * constant backoff with the default crash-loop limit; unset or empty is the default policy; anything
 * else is refused with a sentence that never echoes the value.
 */
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY } from '@wework/app-server-client';
import { MAX_RESTART_BACKOFF_MS, RESTART_BACKOFF_ENV, restartPolicyFromEnv } from '../src/runtime/RestartBackoff.js';

describe('restartPolicyFromEnv', () => {
  it('unset or empty is the default policy', () => {
    expect(restartPolicyFromEnv({})).toEqual(E.right(DEFAULT_RESTART_POLICY));
    expect(restartPolicyFromEnv({ [RESTART_BACKOFF_ENV]: '' })).toEqual(E.right(DEFAULT_RESTART_POLICY));
  });

  it('a whole number in range is a constant backoff, the crash-loop limit unchanged', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_RESTART_BACKOFF_MS }), (ms) => {
        expect(restartPolicyFromEnv({ [RESTART_BACKOFF_ENV]: String(ms) })).toEqual(
          E.right({ ...DEFAULT_RESTART_POLICY, initialDelayMs: ms, maxDelayMs: ms }),
        );
      }),
    );
  });

  it('anything else is refused without echoing the value', () => {
    const outOfRange = fc.oneof(fc.constant(0), fc.integer({ min: MAX_RESTART_BACKOFF_MS + 1, max: 10_000_000 })).map(String);
    const notANumber = fc.string({ minLength: 1 }).filter((raw) => !/^[0-9]+$/.test(raw));
    fc.assert(
      fc.property(fc.oneof(outOfRange, notANumber, fc.constantFrom('1.5', '-1', ' 10', '1e3', '0x10')), (raw) => {
        const policy = restartPolicyFromEnv({ [RESTART_BACKOFF_ENV]: `${raw}SECRETMARK` });
        expect(E.isLeft(policy)).toBe(true);
        if (E.isLeft(policy)) expect(policy.left).not.toContain('SECRETMARK');
        expect(E.isLeft(restartPolicyFromEnv({ [RESTART_BACKOFF_ENV]: raw }))).toBe(true);
      }),
    );
  });
});
