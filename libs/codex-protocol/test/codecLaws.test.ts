/**
 * Laws of every generated codec, on values derived from the codecs themselves:
 * derived values decode; `decode(encode(a))` equals `a`, also through JSON text; `decode` never
 * throws, neither on arbitrary JSON nor on valid values with one place corrupted.
 */
import * as fc from 'fast-check';
import type * as t from 'io-ts';
import { describe, expect, test } from 'vitest';
import * as C from '../src/codecs/codecs.js';
import { arbitraryOf } from '../src/testing.js';
import { corrupted, expectRight, throughJson, wireJson } from './lawsSupport.js';

const allCodecs = Object.entries(C) as Array<[string, t.Mixed]>;

/** Runs per property and codec; the key messages get more in their own tests. */
const numRuns = 15;

describe.each(allCodecs)('%s', (_name, codec) => {
  const valid = arbitraryOf(codec);

  test('derived values decode, and decode(encode(a)) = a, also through JSON', () => {
    fc.assert(
      fc.property(valid, (a) => {
        expect(expectRight(codec.decode(a))).toEqual(a);
        expect(expectRight(codec.decode(codec.encode(a)))).toEqual(a);
        expect(expectRight(codec.decode(throughJson(codec.encode(a))))).toEqual(a);
      }),
      { numRuns },
    );
  });

  test('decode never throws on arbitrary or corrupted JSON', () => {
    fc.assert(
      fc.property(fc.oneof(wireJson, corrupted(codec, valid)), (input) => {
        codec.decode(input);
      }),
      { numRuns },
    );
  });
});
