import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { checkSendable } from '../src/index.js';
import { catalogFromModels, emptyCatalog } from '../src/ModelCatalog.js';
import { catalogModelsArbitrary } from '../src/testing.js';

describe('checkSendable', () => {
  it('sends a saved model that is in the catalog with that very model', () => {
    fc.assert(
      fc.property(catalogModelsArbitrary({ minLength: 1 }).chain((models) => fc.tuple(fc.constant(models), fc.nat({ max: models.length - 1 }))), ([models, index]) => {
        const saved = models[index];
        if (saved === undefined) throw new Error('index in range');
        expect(checkSendable(catalogFromModels(models), saved.id)).toEqual(E.right({ _tag: 'SavedModel', model: saved }));
      }),
    );
  });

  it('blocks a saved model absent from the catalog and never substitutes the default', () => {
    fc.assert(
      fc.property(catalogModelsArbitrary(), fc.string(), (models, saved) => {
        fc.pre(!models.some((m) => m.id === saved));
        const catalog = catalogFromModels(models);
        const check = checkSendable(catalog, saved);
        expect(check).toMatchObject(E.left({ _tag: 'ModelUnavailable', model: saved, available: models.map((m) => m.id) }));
      }),
    );
  });

  it('says what to do in the message', () => {
    const catalog = catalogFromModels([]);
    expect(checkSendable(catalog, 'gpt-4')).toMatchObject(E.left({ message: expect.stringMatching(/not available/) }));
  });

  it('gives a new task (no saved model) the catalog default', () => {
    fc.assert(
      fc.property(catalogModelsArbitrary(), (models) => {
        const catalog = catalogFromModels(models);
        const expected = models.find((m) => m.isDefault);
        for (const saved of [null, undefined]) {
          const check = checkSendable(catalog, saved);
          if (expected === undefined) expect(check).toMatchObject(E.left({ _tag: 'NoDefaultModel' }));
          else expect(check).toEqual(E.right({ _tag: 'DefaultModel', model: expected }));
        }
      }),
    );
    expect(checkSendable(emptyCatalog, null)).toMatchObject(E.left({ _tag: 'NoDefaultModel', available: [] }));
  });

  it('treats an empty saved model as saved, not as missing', () => {
    expect(checkSendable(emptyCatalog, '')).toMatchObject(E.left({ _tag: 'ModelUnavailable', model: '' }));
  });
});
