/**
 * Constrained codecs take exactly what their constraints say (lengths in code points, an unanchored
 * `u`-flag pattern, integrality and inclusive bounds), and the Wegent token's and lifetime's codecs, now
 * built from constraints, take exactly what their hand-written predicates took.
 */
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { constrainedNumber, constrainedString, satisfiesNumber, satisfiesString } from '../src/Constrained.js';
import { ExpiresInSeconds, WEGENT_TOKEN_MAX_EXPIRES_IN, WEGENT_TOKEN_MAX_LENGTH, WegentToken } from '../src/WegentToken.js';

describe('constrained codecs', () => {
  it('count code points and run the pattern with the u flag, unanchored', () => {
    expect(satisfiesString({ minLength: 2, maxLength: 2 }, '😀😀')).toBe(true);
    expect(satisfiesString({ maxLength: 1 }, '😀😀')).toBe(false);
    expect(satisfiesString({ pattern: 'b' }, 'abc')).toBe(true);
    expect(satisfiesString({ pattern: '^b' }, 'abc')).toBe(false);
    expect(satisfiesString({ pattern: '^.$' }, '😀')).toBe(true);
  });

  it('check integrality and inclusive bounds', () => {
    expect(satisfiesNumber({ integer: true, minimum: 1, maximum: 3 }, 3)).toBe(true);
    expect(satisfiesNumber({ integer: true }, 1.5)).toBe(false);
    expect(satisfiesNumber({ minimum: 0 }, -0.1)).toBe(false);
  });

  it('decode what their constraints take, and carry the constraints', () => {
    const Slug = constrainedString({ minLength: 1, maxLength: 4, pattern: '^[a-z]+$' }, 'Slug');
    expect(Slug.decode('abc')).toEqual(E.right('abc'));
    expect(E.isLeft(Slug.decode('abcde'))).toBe(true);
    expect(E.isLeft(Slug.decode(7))).toBe(true);
    expect(Slug.is('ab')).toBe(true);
    expect(Slug.encode('ab')).toBe('ab');
    expect(Slug.constraints).toEqual({ type: 'string', minLength: 1, maxLength: 4, pattern: '^[a-z]+$' });
    const Port = constrainedNumber({ integer: true, minimum: 0, maximum: 65535 }, 'Port');
    expect(Port.decode(80)).toEqual(E.right(80));
    expect(E.isLeft(Port.decode(65536))).toBe(true);
    expect(Port.name).toBe('Port');
  });

  it('keep the Wegent token: 1 to 16,384 visible ASCII characters, as the hand-written predicate said', () => {
    const before = (value: string): boolean => value.length <= WEGENT_TOKEN_MAX_LENGTH && /^[\x21-\x7e]+$/.test(value);
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^[\x21-\x7e]{1,40}$/), fc.string({ unit: 'grapheme', maxLength: 8 }));
    fc.assert(fc.property(text, (value) => {
      expect(WegentToken.is(value)).toBe(before(value));
    }));
    expect(WegentToken.is('a'.repeat(WEGENT_TOKEN_MAX_LENGTH))).toBe(true);
    expect(WegentToken.is('a'.repeat(WEGENT_TOKEN_MAX_LENGTH + 1))).toBe(false);
  });

  it('keep the lifetime: whole seconds from 1 to 30 days, as the hand-written predicate said', () => {
    const before = (value: number): boolean => Number.isInteger(value) && value >= 1 && value <= WEGENT_TOKEN_MAX_EXPIRES_IN;
    const number = fc.oneof(fc.integer({ min: -5, max: WEGENT_TOKEN_MAX_EXPIRES_IN + 5 }), fc.double(), fc.constantFrom(0, 1, WEGENT_TOKEN_MAX_EXPIRES_IN, WEGENT_TOKEN_MAX_EXPIRES_IN + 1));
    fc.assert(fc.property(number, (value) => {
      expect(ExpiresInSeconds.is(value)).toBe(before(value));
    }));
  });
});
