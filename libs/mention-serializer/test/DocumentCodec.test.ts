import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalize } from '../src/index.js';
import { decodeDocument } from '../src/DocumentCodec.js';
import { documentArbitrary } from '../src/testing.js';

describe('decodeDocument', () => {
  test('decodes what JSON.stringify made of a valid document', () => {
    fc.assert(
      fc.property(documentArbitrary, (doc) => {
        expect(decodeDocument(JSON.parse(JSON.stringify(normalize(doc))))).toEqual(E.right(JSON.parse(JSON.stringify(normalize(doc)))));
      }),
    );
  });

  test('returns tagged errors for bad shapes and bad mentions', () => {
    const bad = decodeDocument([{ _tag: 'Mention', kind: 'app', name: 'x' }]);
    expect(E.isLeft(bad) && bad.left._tag).toBe('MalformedDocument');
    expect(decodeDocument([{ _tag: 'Mention', kind: 'app', name: '', connectorId: 'c' }])).toEqual(
      E.left({ _tag: 'InvalidMention', problem: { _tag: 'EmptyName', index: 0 } }),
    );
  });

  test('never throws on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => void decodeDocument(value)));
  });
});
