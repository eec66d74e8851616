import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PIXELS, displayedSize } from '../src/ImagePlan.js';
import { planImage, type ImagePlan, type PlanInput } from '../src/index.js';
import { planInputArbitrary } from '../src/testing.js';

const plan = (input: PlanInput): ImagePlan => {
  const result = planImage(input, { maxPixels: Number.MAX_SAFE_INTEGER });
  if (E.isLeft(result)) throw new Error(`unexpected ${result.left._tag}`);
  return result.right;
};

describe('planImage', () => {
  it.each([
    [4000, 3000, { _tag: 'Resize', width: 960, height: 720 }],
    [6000, 800, { _tag: 'Resize', width: 5400, height: 720 }],
    [800, 6000, { _tag: 'Resize', width: 720, height: 5400 }],
    [1000, 1000, { _tag: 'Resize', width: 720, height: 720 }],
    [721, 100_000, { _tag: 'Resize', width: 720, height: 99_861 }],
    [1000, 700, { _tag: 'PassThrough' }],
    [720, 20_000, { _tag: 'PassThrough' }],
    [1, 1, { _tag: 'PassThrough' }],
  ])('non-official %i×%i', (width, height, expected) => {
    expect(planImage({ modelCategory: 'nonOfficial', width, height })).toEqual(E.right(expected));
  });

  it('rounds the long edge to the nearest pixel, halves up', () => {
    // 1441 × 721: 1441 · 720 / 721 = 1439.0014 → 1439.
    expect(plan({ modelCategory: 'nonOfficial', width: 1441, height: 721 })).toEqual({ _tag: 'Resize', width: 1439, height: 720 });
    // 2161 × 1440 → 2161 / 2 = 1080.5 → 1081.
    expect(plan({ modelCategory: 'nonOfficial', width: 2161, height: 1440 })).toEqual({ _tag: 'Resize', width: 1081, height: 720 });
  });

  it('official models always get the original, whatever the size', () => {
    expect(planImage({ modelCategory: 'official', width: 4000, height: 3000 })).toEqual(E.right({ _tag: 'PassThrough' }));
    expect(planImage({ modelCategory: 'official', width: 100_000, height: 100_000 })).toEqual(E.right({ _tag: 'PassThrough' }));
  });

  it('measures EXIF orientations 5–8 with width and height swapped', () => {
    for (const orientation of [5, 6, 7, 8]) {
      expect(plan({ modelCategory: 'nonOfficial', width: 3000, height: 4000, orientation })).toEqual({ _tag: 'Resize', width: 960, height: 720 });
    }
    for (const orientation of [1, 2, 3, 4]) {
      expect(plan({ modelCategory: 'nonOfficial', width: 3000, height: 4000, orientation })).toEqual({ _tag: 'Resize', width: 720, height: 960 });
    }
  });

  it('refuses to decode more pixels than the limit (default 100 MP, configurable)', () => {
    expect(planImage({ modelCategory: 'nonOfficial', width: 20_000, height: 20_000 })).toEqual(
      E.left({ _tag: 'TooManyPixels', width: 20_000, height: 20_000, pixels: 400_000_000, limit: DEFAULT_MAX_PIXELS }),
    );
    expect(planImage({ modelCategory: 'nonOfficial', width: 4000, height: 3000 }, { maxPixels: 1_000_000 })).toEqual(
      E.left({ _tag: 'TooManyPixels', width: 4000, height: 3000, pixels: 12_000_000, limit: 1_000_000 }),
    );
    // Exactly at the limit is allowed; pass-through images are never decoded, so never refused.
    expect(E.isRight(planImage({ modelCategory: 'nonOfficial', width: 1000, height: 1000 }, { maxPixels: 1_000_000 }))).toBe(true);
    expect(planImage({ modelCategory: 'nonOfficial', width: 700, height: 1_000_000 }, { maxPixels: 1_000_000 })).toEqual(E.right({ _tag: 'PassThrough' }));
  });

  it('returns InvalidDimensions for non-positive or non-integer sizes', () => {
    for (const [width, height] of [[0, 10], [10, -1], [1.5, 10], [Number.NaN, 10], [Number.POSITIVE_INFINITY, 10]] as const) {
      expect(planImage({ modelCategory: 'nonOfficial', width, height })).toEqual(E.left({ _tag: 'InvalidDimensions', width, height }));
    }
  });

  it('property: the short edge of the result is min(720, short edge) and the aspect ratio is kept within rounding', () => {
    fc.assert(
      fc.property(planInputArbitrary(), (input) => {
        const result = plan(input);
        const shown = displayedSize(input);
        const shortEdge = Math.min(shown.width, shown.height);
        const out = result._tag === 'PassThrough' ? shown : result;
        expect(Math.min(out.width, out.height)).toBe(input.modelCategory === 'official' ? shortEdge : Math.min(720, shortEdge));
        // Orientation (portrait/landscape) is kept — except that rounding may make a nearly square image
        // exactly square (2881×2882 → 720×720) — and the long edge is within half a pixel of the exact scale.
        if (out.width !== out.height) expect(out.width > out.height).toBe(shown.width > shown.height);
        const scale = Math.min(out.width, out.height) / shortEdge;
        expect(Math.abs(Math.max(out.width, out.height) - Math.max(shown.width, shown.height) * scale)).toBeLessThanOrEqual(0.5);
        if (input.modelCategory === 'official' || shortEdge <= 720) expect(result).toEqual({ _tag: 'PassThrough' });
      }),
      { numRuns: 500 },
    );
  });

  it('property: never throws, on any numbers and any options', () => {
    const num = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, Number.NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(fc.constantFrom('official' as const, 'nonOfficial' as const), num, num, fc.option(num, { nil: undefined }), fc.option(num, { nil: undefined }), (modelCategory, width, height, orientation, maxPixels) => {
        const result = planImage({ modelCategory, width, height, orientation }, maxPixels === undefined ? {} : { maxPixels });
        expect(['Left', 'Right']).toContain(result._tag);
      }),
      { numRuns: 500 },
    );
  });
});
