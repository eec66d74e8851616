import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRecord } from '../src/Records.js';

describe('isRecord', () => {
  it('accepts plain objects, including ones without a prototype', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
  });

  it('refuses null, arrays and primitives', () => {
    for (const u of [null, undefined, [], [1], 0, 'x', true, 1n]) expect(isRecord(u)).toBe(false);
  });

  it('agrees with "a non-null, non-array object" on arbitrary values', () => {
    fc.assert(fc.property(fc.anything(), (u) => isRecord(u) === (typeof u === 'object' && u !== null && !Array.isArray(u))));
  });
});
