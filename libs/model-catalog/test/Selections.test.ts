import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { Model } from '@wework/codex-protocol';
import { makeSelections } from '../src/index.js';
import { catalogFromModels } from '../src/ModelCatalog.js';
import { noSelections, PURPOSES, RememberedSelections, type Purpose, type Selections } from '../src/Selections.js';
import { catalogModelsArbitrary } from '../src/testing.js';

const purposeArbitrary: fc.Arbitrary<Purpose> = fc.constantFrom(...PURPOSES);

describe('Selections', () => {
  it('remembers chat and supervision independently, each validated against the same catalog', () => {
    fc.assert(
      fc.property(
        catalogModelsArbitrary({ minLength: 1 }),
        fc.array(fc.tuple(purposeArbitrary, fc.nat(), fc.boolean(), fc.string()), { maxLength: 10 }),
        (models, choices) => {
          const catalog = catalogFromModels(models);
          let selections: Selections = makeSelections(catalog);
          const expected: Record<Purpose, string | null> = { chat: null, supervision: null };
          for (const [purpose, index, known, unknownId] of choices) {
            const id = known ? (models[index % models.length] as Model).id : unknownId;
            const next = selections.select(purpose, id);
            if (models.some((m) => m.id === id)) {
              if (E.isLeft(next)) throw new Error('a catalog model is selectable');
              expected[purpose] = id;
              selections = next.right;
            } else {
              expect(next).toMatchObject(E.left({ _tag: 'ModelUnavailable', model: id }));
            }
            expect(selections.last('chat')).toBe(expected.chat);
            expect(selections.last('supervision')).toBe(expected.supervision);
            expect(selections.catalog).toBe(catalog);
          }
          expect(selections.remembered).toEqual(expected);
        },
      ),
    );
  });

  it('leaves the previous value unchanged', () => {
    const catalog = catalogFromModels([]);
    const before = makeSelections(catalog, { chat: 'a', supervision: null });
    before.select('chat', 'b');
    expect(before.remembered).toEqual({ chat: 'a', supervision: null });
  });

  it('keeps selections over a newer catalog and blocks rather than substitutes', () => {
    fc.assert(
      fc.property(catalogModelsArbitrary({ minLength: 1 }), purposeArbitrary, (models, purpose) => {
        const first = models[0] as Model;
        const chosen = makeSelections(catalogFromModels(models)).select(purpose, first.id);
        if (E.isLeft(chosen)) throw new Error('selectable');
        expect(chosen.right.sendable(purpose)).toEqual(E.right({ _tag: 'SavedModel', model: first }));
        const newer = chosen.right.withCatalog(catalogFromModels(models.slice(1)));
        expect(newer.last(purpose)).toBe(first.id);
        expect(newer.sendable(purpose)).toMatchObject(E.left({ _tag: 'ModelUnavailable', model: first.id }));
      }),
    );
  });

  it('sends with the catalog default for a purpose with no selection', () => {
    fc.assert(
      fc.property(catalogModelsArbitrary(), purposeArbitrary, (models, purpose) => {
        const selections = makeSelections(catalogFromModels(models));
        const expected = models.find((m) => m.isDefault);
        expect(selections.sendable(purpose)).toEqual(
          expected === undefined ? expect.objectContaining({ _tag: 'Left' }) : E.right({ _tag: 'DefaultModel', model: expected }),
        );
      }),
    );
  });

  it('decodes remembered selections from arbitrary JSON without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const decoded = RememberedSelections.decode(value);
        if (E.isRight(decoded)) expect(makeSelections(catalogFromModels([]), decoded.right).remembered).toEqual(value);
      }),
    );
    expect(RememberedSelections.decode(noSelections)).toEqual(E.right(noSelections));
  });
});
