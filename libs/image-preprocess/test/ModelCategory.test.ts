import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { ModelCategory, modelCategoryOf } from '../src/index.js';
import { ModelSource } from '../src/ModelCategory.js';

describe('model categories', () => {
  it('only official Codex models are official', () => {
    expect(modelCategoryOf('officialCodex')).toBe('official');
    expect(modelCategoryOf('codexProvider')).toBe('nonOfficial');
    expect(modelCategoryOf('localModelInterface')).toBe('nonOfficial');
    expect(modelCategoryOf('cloudModel')).toBe('nonOfficial');
  });

  it('decodes the category of a runtime request', () => {
    expect(ModelCategory.decode('official')).toEqual(E.right('official'));
    expect(ModelCategory.decode('nonOfficial')).toEqual(E.right('nonOfficial'));
    expect(E.isLeft(ModelCategory.decode('OFFICIAL'))).toBe(true);
    expect(E.isLeft(ModelSource.decode(null))).toBe(true);
  });

  it('property: decoding arbitrary JSON never throws and accepts only the two categories', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const decoded = ModelCategory.decode(value);
        expect(E.isRight(decoded)).toBe(value === 'official' || value === 'nonOfficial');
      }),
    );
  });
});
