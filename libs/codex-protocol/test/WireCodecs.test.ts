import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describe, expect, test } from 'vitest';
import { emptyObject, exactNumberOf, jsonBigInt, nullable, optionalRecord, toWireJson } from '../src/WireCodecs.js';
import { wireJson } from './lawsSupport.js';

describe('jsonBigInt', () => {
  test('decodes a JSON integer into a bigint and encodes it back', () => {
    expect(jsonBigInt.decode(42)).toEqual(E.right(42n));
    expect(jsonBigInt.decode(-7)).toEqual(E.right(-7n));
    expect(jsonBigInt.encode(42n)).toBe(42);
  });

  test('keeps exactly the value JSON.parse produced for integers beyond the safe range', () => {
    const parsed = JSON.parse('9223372036854775807') as number;
    const decoded = jsonBigInt.decode(parsed);
    expect(decoded).toEqual(E.right(BigInt(parsed)));
    if (E.isRight(decoded)) expect(jsonBigInt.encode(decoded.right)).toBe(parsed);
  });

  test('rejects fractions, non-finite numbers and other JSON', () => {
    for (const input of [1.5, Number.NaN, Number.POSITIVE_INFINITY, '1', null, undefined, true, [1], { n: 1 }]) {
      expect(E.isLeft(jsonBigInt.decode(input))).toBe(true);
    }
  });

  test('encode(decode(n)) = n for every integer number, and decode(encode(b)) = b for safe bigints', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const decoded = jsonBigInt.decode(n);
        expect(E.isRight(decoded) && jsonBigInt.encode(decoded.right)).toBe(n);
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n }), (b) => {
        expect(jsonBigInt.decode(JSON.parse(JSON.stringify(jsonBigInt.encode(b))))).toEqual(E.right(b));
      }),
    );
  });

  test('never throws on arbitrary JSON', () => {
    fc.assert(fc.property(wireJson, (input) => void jsonBigInt.decode(input)));
  });
});

describe('nullable', () => {
  const codec = t.type({ turnId: nullable(t.string) });

  test('reads null and a missing property as null', () => {
    expect(codec.decode({ turnId: null })).toEqual(E.right({ turnId: null }));
    expect(codec.decode({})).toEqual(E.right({ turnId: null }));
  });

  test('checks other values against the inner codec', () => {
    expect(codec.decode({ turnId: 't' })).toEqual(E.right({ turnId: 't' }));
    expect(E.isLeft(codec.decode({ turnId: 3 }))).toBe(true);
  });

  test('encodes null as null and other values through the inner codec', () => {
    const big = nullable(jsonBigInt);
    expect(big.encode(null)).toBeNull();
    expect(big.encode(5n)).toBe(5);
    expect(big.is(null) && big.is(5n) && !big.is(5)).toBe(true);
  });
});

describe('optionalRecord', () => {
  test('decodes a string-keyed map, keeping key order', () => {
    const codec = optionalRecord(t.number);
    const input = { zeta: 1, alpha: 2, mid: 3 };
    const decoded = codec.decode(input);
    expect(decoded).toEqual(E.right(input));
    if (E.isRight(decoded)) expect(Object.keys(decoded.right)).toEqual(['zeta', 'alpha', 'mid']);
  });

  test('keeps an undefined value undefined even when the values are nullable', () => {
    expect(optionalRecord(nullable(t.string)).decode({ a: undefined, b: null })).toEqual(E.right({ a: undefined, b: null }));
  });

  test('rejects wrong values', () => {
    expect(E.isLeft(optionalRecord(t.number).decode({ a: 'x' }))).toBe(true);
    expect(E.isLeft(optionalRecord(t.number).decode([1]))).toBe(true);
  });
});

describe('emptyObject', () => {
  test('accepts any object (a newer server may add fields) and nothing else', () => {
    expect(emptyObject.decode({})).toEqual(E.right({}));
    expect(emptyObject.decode({ added: 1 })).toEqual(E.right({ added: 1 }));
    for (const input of [null, [], 'x', 1]) expect(E.isLeft(emptyObject.decode(input))).toBe(true);
  });
});

describe('toWireJson', () => {
  test('bigints become the numbers they stand for; everything else is kept; nothing is copied without a bigint', () => {
    const plain = { a: [1, 'x', null, { b: true }] };
    expect(toWireJson(plain)).toBe(plain);
    expect(toWireJson({ minItems: 1n, nested: [{ maxItems: 3n }], keep: 'x' })).toStrictEqual({ minItems: 1, nested: [{ maxItems: 3 }], keep: 'x' });
    expect(toWireJson(5n)).toBe(5);
    const parsed = JSON.parse('{"__proto__":{"n":1},"m":2}') as unknown;
    expect(JSON.stringify(toWireJson({ parsed, b: 1n }))).toBe('{"parsed":{"__proto__":{"n":1},"m":2},"b":1}');
  });

  test('a bigint no double holds exactly becomes its decimal string, never a wrong number', () => {
    expect(exactNumberOf(2n ** 64n + 1n)).toBeNull();
    expect(toWireJson({ n: 2n ** 64n + 1n })).toStrictEqual({ n: '18446744073709551617' });
  });

  test('JSON.stringify never throws on it, and every decoded bigint comes back as the JSON number it was decoded from', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => Math.trunc(d))), (json, integers) => {
        const decoded = integers.map((n) => {
          const bigint = jsonBigInt.decode(n);
          return E.isRight(bigint) ? bigint.right : null;
        });
        const value = { json, decoded };
        const written = JSON.stringify(toWireJson(value));
        expect(written).toBe(JSON.stringify({ json, decoded: integers.map((n) => (Object.is(n, -0) ? 0 : n)) }));
      }),
      { numRuns: 1000 },
    );
  });
});
