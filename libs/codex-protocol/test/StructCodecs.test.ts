import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describe, expect, test } from 'vitest';
import { intersection, struct, withRest } from '../src/StructCodecs.js';
import { jsonBigInt, nullable } from '../src/WireCodecs.js';
import { arbitraryOf } from '../src/testing.js';
import { throughJson, wireJson } from './lawsSupport.js';

const Option = struct({ label: t.string }, { description: t.string, note: nullable(t.string), size: jsonBigInt }, 'Option');

describe('struct', () => {
  test('decodes required and optional properties, keeping unknown ones', () => {
    expect(Option.decode({ label: 'Fast', description: 'd', extra: true })).toEqual(
      E.right({ label: 'Fast', description: 'd', extra: true }),
    );
    expect(Option.decode({ label: 'Fast', size: 3 })).toEqual(E.right({ label: 'Fast', size: 3n }));
  });

  test('rejects a missing required property and a wrong optional one', () => {
    expect(E.isLeft(Option.decode({ description: 'd' }))).toBe(true);
    expect(E.isLeft(Option.decode({ label: 'Fast', description: 3 }))).toBe(true);
  });

  test('reads an optional property sent as null as absent, unless its type has null', () => {
    const decoded = Option.decode({ label: 'Fast', description: null, note: null });
    expect(decoded).toEqual(E.right({ label: 'Fast', note: null }));
    if (E.isRight(decoded)) expect('description' in decoded.right).toBe(false);
  });

  test('is a tagged member of a union: the tag picks the member', () => {
    const Shape = t.union([struct({ kind: t.literal('a'), x: t.number }, { y: t.number }), t.type({ kind: t.literal('b') })]);
    const result = Shape.decode({ kind: 'a', x: 'no' });
    expect(E.isLeft(result) && result.left.length).toBe(1);
  });

  test('decode(encode(a)) = a through JSON', () => {
    fc.assert(
      fc.property(arbitraryOf(Option), (a) => {
        expect(Option.decode(throughJson(Option.encode(a)))).toEqual(E.right(a));
      }),
    );
  });

  test('never throws on arbitrary JSON', () => {
    fc.assert(fc.property(wireJson, (input) => void Option.decode(input)));
  });
});

describe('intersection', () => {
  test('keeps a property removed by a struct removed', () => {
    const Item = intersection([struct({}, { note: t.string }), t.type({ id: t.string })]);
    const decoded = Item.decode({ id: 'a', note: null });
    expect(decoded).toEqual(E.right({ id: 'a' }));
    if (E.isRight(decoded)) expect('note' in decoded.right).toBe(false);
  });

  test('merges changed values of every part', () => {
    const Item = intersection([t.type({ a: jsonBigInt }), t.type({ b: jsonBigInt })]);
    expect(Item.decode({ a: 1, b: 2, c: 3 })).toEqual(E.right({ a: 1n, b: 2n, c: 3 }));
    expect(Item.encode({ a: 1n, b: 2n })).toEqual({ a: 1, b: 2 });
  });

  test('reports the errors of every part', () => {
    const Item = intersection([t.type({ a: t.string }), t.type({ b: t.string })]);
    const result = Item.decode({});
    expect(E.isLeft(result) && result.left.length).toBe(2);
  });
});

describe('withRest', () => {
  const Config = withRest(t.type({ model: nullable(t.string), window: nullable(jsonBigInt) }), t.union([t.undefined, t.number]), 'Config');

  test('checks declared properties with their codecs and the others with the rest codec', () => {
    expect(Config.decode({ model: 'm', window: 5, depth: 2 })).toEqual(E.right({ model: 'm', window: 5n, depth: 2 }));
    expect(E.isLeft(Config.decode({ model: 'm', window: 5, depth: 'deep' }))).toBe(true);
    expect(E.isLeft(Config.decode({ model: 3, window: 5 }))).toBe(true);
  });

  test('decode(encode(a)) = a through JSON', () => {
    fc.assert(
      fc.property(arbitraryOf(Config), (a) => {
        expect(Config.decode(throughJson(Config.encode(a)))).toEqual(E.right(a));
      }),
    );
  });

  test('never throws on arbitrary JSON', () => {
    fc.assert(fc.property(wireJson, (input) => void Config.decode(input)));
  });
});
