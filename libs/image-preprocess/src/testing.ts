/**
 * `@wework/image-preprocess/testing`: fast-check arbitraries of the inputs of `planImage`, so
 * hosts can property-test their own use of it. Needs `fast-check` (an optional peer dependency).
 */
import * as fc from 'fast-check';
import type { PlanInput } from './ImagePlan.js';
import { MODEL_CATEGORIES, type ModelCategory } from './ModelCategory.js';

/** Any model category. */
export const modelCategoryArbitrary: fc.Arbitrary<ModelCategory> = fc.constantFrom(...MODEL_CATEGORIES);

/** Any EXIF orientation (1–8) or none. */
export const orientationArbitrary: fc.Arbitrary<number | undefined> = fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined });

/**
 * Valid plan inputs: positive integer dimensions up to `maxEdge` (default 20 000) on each side,
 * both small and large images, any orientation and category.
 */
export function planInputArbitrary(maxEdge = 20_000): fc.Arbitrary<PlanInput> {
  const edge = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: maxEdge }));
  return fc.record({ modelCategory: modelCategoryArbitrary, width: edge, height: edge, orientation: orientationArbitrary });
}
