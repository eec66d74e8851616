/**
 * Which models receive the original image and which receive a reduced copy.
 *
 * Every function here is pure: plain data in, plain data out.
 */
import * as t from 'io-ts';

/**
 * The model category that Wework puts in each local runtime request.
 *
 * - `official`: an official Codex model; it receives the original image.
 * - `nonOfficial`: a Codex provider, a local model interface or a cloud model; it receives a
 *   temporary model-input copy whose short edge is at most 720 px.
 *
 * Decode untrusted requests with this codec.
 *
 * @example
 * ```ts
 * import { ModelCategory } from '@wework/image-preprocess';
 * ModelCategory.decode('official'); // Right('official')
 * ModelCategory.decode('gpt'); // Left(...)
 * ```
 */
export const ModelCategory = t.keyof({ official: null, nonOfficial: null }, 'ModelCategory');
/** `'official' | 'nonOfficial'`. */
export type ModelCategory = t.TypeOf<typeof ModelCategory>;

/** Every model category, in a fixed order. */
export const MODEL_CATEGORIES: ReadonlyArray<ModelCategory> = ['official', 'nonOfficial'];

/**
 * Where a model comes from, as the spec names the sources: official Codex models, Codex
 * providers, local model interfaces and cloud models.
 */
export const ModelSource = t.keyof({ officialCodex: null, codexProvider: null, localModelInterface: null, cloudModel: null }, 'ModelSource');
/** `'officialCodex' | 'codexProvider' | 'localModelInterface' | 'cloudModel'`. */
export type ModelSource = t.TypeOf<typeof ModelSource>;

/**
 * The category of a model source: only official Codex models are `official`; Codex providers,
 * local model interfaces and cloud models are `nonOfficial`.
 *
 * @example
 * ```ts
 * modelCategoryOf('officialCodex'); // 'official'
 * modelCategoryOf('localModelInterface'); // 'nonOfficial'
 * ```
 */
export function modelCategoryOf(source: ModelSource): ModelCategory {
  return source === 'officialCodex' ? 'official' : 'nonOfficial';
}
