import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeMarketplaceOrder, encodeMarketplaceOrder, orderMarketplaces, reorderMarketplaces } from '../src/index.js';

const names = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 8 });
const uniqueNames = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 7 });

describe('orderMarketplaces', () => {
  it('is a permutation of what Codex reports (without duplicates)', () => {
    fc.assert(
      fc.property(names, names, (reported, stored) => {
        const ordered = orderMarketplaces(reported, stored);
        expect([...ordered].sort()).toEqual([...new Set(reported)].sort());
      }),
    );
  });

  it('keeps the stored relative order, then appends new names in Codex order', () => {
    fc.assert(
      fc.property(uniqueNames, uniqueNames, (reported, stored) => {
        const ordered = orderMarketplaces(reported, stored);
        const known = stored.filter((name) => reported.includes(name));
        expect(ordered.slice(0, known.length)).toEqual(known);
        expect(ordered.slice(known.length)).toEqual(reported.filter((name) => !stored.includes(name)));
      }),
    );
  });

  it('applies an accepted reorder exactly', () => {
    fc.assert(
      fc.property(uniqueNames.chain((current) => fc.tuple(fc.constant(current), fc.shuffledSubarray(current, { minLength: current.length }))), ([current, requested]) => {
        const accepted = reorderMarketplaces(current, requested);
        expect(accepted).toEqual(E.right(requested));
        expect(orderMarketplaces(current, requested)).toEqual(requested);
      }),
    );
  });
});

describe('reorderMarketplaces', () => {
  it('accepts only a permutation of the custom names', () => {
    expect(reorderMarketplaces(['a', 'b'], ['b', 'a'])).toEqual(E.right(['b', 'a']));
    expect(reorderMarketplaces(['a', 'b'], ['a'])).toEqual(E.left({ _tag: 'MissingMarketplace', name: 'b' }));
    expect(reorderMarketplaces(['a', 'b'], ['a', 'b', 'a'])).toEqual(E.left({ _tag: 'DuplicateMarketplace', name: 'a' }));
    expect(reorderMarketplaces(['a', 'b'], ['a', 'b', 'z'])).toEqual(E.left({ _tag: 'UnknownMarketplace', name: 'z' }));
    expect(reorderMarketplaces(['a', 'b'], ['official', 'a', 'b'], ['official'])).toEqual(E.left({ _tag: 'OfficialNotReorderable', name: 'official' }));
  });

  it('refuses everything that is not a permutation', () => {
    fc.assert(
      fc.property(uniqueNames, names, (current, requested) => {
        const isPermutation = requested.length === current.length && new Set(requested).size === requested.length && requested.every((name) => current.includes(name));
        expect(E.isRight(reorderMarketplaces(current, requested))).toBe(isPermutation);
      }),
    );
  });
});

describe('stored order', () => {
  it('round-trips and never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(uniqueNames, (order) => {
        const labels = Object.fromEntries(order.map((name) => [name, `Label ${name}`]));
        expect(decodeMarketplaceOrder(JSON.parse(JSON.stringify(encodeMarketplaceOrder({ names: order, labels }))))).toEqual(E.right({ names: order, labels }));
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(() => decodeMarketplaceOrder(value)).not.toThrow();
      }),
    );
    expect(E.isLeft(decodeMarketplaceOrder({ version: 2, names: [] }))).toBe(true);
    expect(decodeMarketplaceOrder({ version: 1, names: ['a', 'a', 'b'], extra: true })).toEqual(E.right({ names: ['a', 'b'], labels: {} }));
    expect(E.isLeft(decodeMarketplaceOrder({ version: 1, names: ['a'], labels: { a: 3 } }))).toBe(true);
  });
});
