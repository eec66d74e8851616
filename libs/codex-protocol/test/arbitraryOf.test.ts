import * as fc from 'fast-check';
import * as t from 'io-ts';
import { describe, expect, test } from 'vitest';
import * as C from '../src/codecs/codecs.js';
import { arbitraryOf } from '../src/testing.js';

const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

describe('arbitraryOf', () => {
  test('bounds recursive codecs by maxDepth', () => {
    for (const maxDepth of [0, 1, 3]) {
      const values = fc.sample(arbitraryOf(C.JsonValue, { maxDepth }), 200);
      expect(Math.max(...values.map(depthOf))).toBeLessThanOrEqual(maxDepth + 1);
    }
  });

  test('bounds arrays and records by maxItems', () => {
    const values = fc.sample(arbitraryOf(t.array(t.record(t.string, t.number)), { maxItems: 2 }), 200);
    expect(values.every((v) => v.length <= 2 && v.every((r) => Object.keys(r).length <= 2))).toBe(true);
  });

  test('produces JSON-faithful values: no -0, no NaN, no __proto__ keys, no undefined map values', () => {
    const codec = t.type({ n: t.number, m: C.JsonValue, r: t.record(t.string, t.union([t.undefined, t.number])) });
    for (const v of fc.sample(arbitraryOf(codec), 300)) {
      expect(Object.is(v.n, -0) || Number.isNaN(v.n) || !Number.isFinite(v.n)).toBe(false);
      expect(Object.keys(v.r).includes('__proto__')).toBe(false);
      expect(Object.values(v.r).includes(undefined)).toBe(false);
      expect(JSON.parse(JSON.stringify(v.m))).toEqual(v.m);
    }
  });

  test('refuses a codec kind it does not know', () => {
    expect(() => arbitraryOf(t.tuple([t.string, t.number]))).toThrow(/unsupported codec/);
  });
});
