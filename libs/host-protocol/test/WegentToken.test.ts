/**
 * The Wegent runtime token's codecs and timing rule: the notice comes at 80 % of the lifetime or a minute
 * before the expiry, whichever is first, never before the token arrived and always before it expires; a
 * refused token or lifetime is described without its value.
 */
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHostParams, expiringNotice, expiringNoticeAt, RuntimeSetWegentToken, wegentTokenSchedule } from '../src/index.js';
import { WEGENT_TOKEN_MAX_EXPIRES_IN, WEGENT_TOKEN_MAX_LENGTH } from '../src/WegentToken.js';

const lifetime = fc.integer({ min: 1, max: WEGENT_TOKEN_MAX_EXPIRES_IN });
const receivedAt = fc.integer({ min: 0, max: 4_000_000_000_000 });
const token = fc.stringMatching(/^[\x21-\x7e]{1,64}$/);

describe('expiringNoticeAt', () => {
  it('is 80 % of the lifetime or a minute before the expiry, whichever is first', () => {
    expect(expiringNoticeAt(0, 3600)).toBe(2_880_000);
    expect(expiringNoticeAt(0, 300)).toBe(240_000);
    expect(expiringNoticeAt(0, 299)).toBe(239_000);
    expect(expiringNoticeAt(0, 120)).toBe(60_000);
    expect(expiringNoticeAt(0, 61)).toBe(1_000);
    expect(expiringNoticeAt(0, 60)).toBe(0);
    expect(expiringNoticeAt(5, 1)).toBe(5);
  });

  it('never comes before the token arrived, and always before it expires', () => {
    fc.assert(
      fc.property(receivedAt, lifetime, (at, seconds) => {
        const notice = expiringNoticeAt(at, seconds);
        expect(notice).toBeGreaterThanOrEqual(at);
        expect(notice).toBeLessThan(at + seconds * 1000);
      }),
    );
  });

  it('is the earlier of the two rules (clamped to the arrival)', () => {
    fc.assert(
      fc.property(receivedAt, lifetime, (at, seconds) => {
        const ms = seconds * 1000;
        expect(expiringNoticeAt(at, seconds)).toBe(at + Math.max(0, Math.min(Math.floor(ms * 0.8), ms - 60_000)));
        expect(expiringNoticeAt(at, seconds) - at).toBeLessThanOrEqual(Math.floor(ms * 0.8));
        if (seconds > 60) expect(at + ms - expiringNoticeAt(at, seconds)).toBeGreaterThanOrEqual(60_000);
      }),
    );
  });

  it('moves with the arrival and does not come earlier for a longer lifetime', () => {
    fc.assert(
      fc.property(receivedAt, fc.integer({ min: 0, max: 1_000_000 }), lifetime, lifetime, (at, shift, a, b) => {
        expect(expiringNoticeAt(at + shift, a) - expiringNoticeAt(at, a)).toBe(shift);
        const [short, long] = a <= b ? [a, b] : [b, a];
        expect(expiringNoticeAt(at, short)).toBeLessThanOrEqual(expiringNoticeAt(at, long));
      }),
    );
  });
});

describe('the schedule and the notice', () => {
  it('holds the arrival, the notice and the expiry in order; the notice tells the whole seconds left', () => {
    fc.assert(
      fc.property(receivedAt, lifetime, (at, seconds) => {
        const schedule = wegentTokenSchedule(at, seconds);
        expect(schedule.receivedAt).toBe(at);
        expect(schedule.expiresAt).toBe(at + seconds * 1000);
        expect(schedule.refreshAt).toBe(expiringNoticeAt(at, seconds));
        const notice = expiringNotice(schedule, schedule.refreshAt);
        expect(notice.expiresAt).toBe(schedule.expiresAt);
        expect(notice.expiresIn).toBe(Math.floor((schedule.expiresAt - schedule.refreshAt) / 1000));
        expect(expiringNotice(schedule, schedule.expiresAt + 5_000).expiresIn).toBe(0);
      }),
    );
  });
});

describe('runtime/setWegentToken params', () => {
  it('take a token of visible ASCII and a lifetime in whole seconds', () => {
    fc.assert(
      fc.property(token, lifetime, (value, seconds) => {
        expect(decodeHostParams(RuntimeSetWegentToken, { token: value, expiresIn: seconds })).toEqual(E.right({ token: value, expiresIn: seconds }));
      }),
    );
    expect(E.isRight(decodeHostParams(RuntimeSetWegentToken, { token: 'x'.repeat(WEGENT_TOKEN_MAX_LENGTH), expiresIn: 1 }))).toBe(true);
  });

  const refused: ReadonlyArray<[string, unknown, string]> = [
    ['a missing token', { expiresIn: 60 }, 'params.token: expected WegentToken, got nothing (missing)'],
    ['a huge token', { token: 'secret-'.repeat(40_000), expiresIn: 60 }, 'params.token: expected WegentToken, got a string'],
    ['an empty token', { token: '', expiresIn: 60 }, 'params.token: expected WegentToken, got a string'],
    ['a token with a newline', { token: 'secret-value\nX=1', expiresIn: 60 }, 'params.token: expected WegentToken, got a string'],
    ['a negative lifetime', { token: 'secret-value', expiresIn: -5 }, 'params.expiresIn: expected ExpiresInSeconds, got a number'],
    ['a lifetime of zero', { token: 'secret-value', expiresIn: 0 }, 'params.expiresIn: expected ExpiresInSeconds, got a number'],
    ['a fractional lifetime', { token: 'secret-value', expiresIn: 1.5 }, 'params.expiresIn: expected ExpiresInSeconds, got a number'],
    ['a lifetime over 30 days', { token: 'secret-value', expiresIn: WEGENT_TOKEN_MAX_EXPIRES_IN + 1 }, 'params.expiresIn: expected ExpiresInSeconds, got a number'],
    ['a token that is a number', { token: 12345, expiresIn: 60 }, 'params.token: expected WegentToken, got a number'],
  ];

  it.each(refused)('refuse %s with a message that names the field, never the value', (_, params, message) => {
    const decoded = decodeHostParams(RuntimeSetWegentToken, params);
    expect(decoded).toMatchObject({ _tag: 'Left', left: { _tag: 'InvalidHostParams', method: 'runtime/setWegentToken' } });
    const text = E.isLeft(decoded) ? decoded.left.message : '';
    expect(text.startsWith(message)).toBe(true);
    expect(text).not.toContain('secret');
  });

  it('never repeat a refused token', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8 }), fc.integer(), (value, seconds) => {
        const decoded = decodeHostParams(RuntimeSetWegentToken, { token: `${value}\u0000`, expiresIn: seconds });
        expect(E.isLeft(decoded) && decoded.left.message.includes(value)).toBe(false);
      }),
    );
  });
});
