/**
 * The model catalog as `model/list` returned it: the models in the server's order, nothing added,
 * nothing reordered, hidden models left out.
 *
 * Every function here is pure: values in, values out.
 */
import type { Model } from '@wework/codex-protocol';

/**
 * The models a picker offers, exactly in the order the app-server returned them across all pages.
 * Chat and supervision share one catalog.
 */
export interface ModelCatalog {
  /** The models the app-server returned with `hidden: false`, in wire order. */
  readonly models: ReadonlyArray<Model>;
  /**
   * Ids of models the app-server returned although they are marked `hidden: true` (it should not
   * with `includeHidden: false`). They are left out of {@link ModelCatalog.models}; listed here
   * so a host can log the anomaly.
   */
  readonly omittedHidden: ReadonlyArray<string>;
}

/**
 * Builds a catalog from models in wire order: keeps the order, leaves out the ones marked
 * `hidden` (their ids go to `omittedHidden`).
 * @example
 * ```ts
 * import { catalogFromModels } from '@wework/model-catalog';
 * const catalog = catalogFromModels(page.data);
 * catalog.models.map((m) => m.id); // same order as page.data, hidden ones left out
 * ```
 */
export const catalogFromModels = (models: ReadonlyArray<Model>): ModelCatalog => ({
  models: models.filter((model) => !model.hidden),
  omittedHidden: models.filter((model) => model.hidden).map((model) => model.id),
});

/** The empty catalog (no model can be sent). */
export const emptyCatalog: ModelCatalog = { models: [], omittedHidden: [] };

/**
 * The model with this `id`, if the catalog has it. Selections name a model by its `id` (on the
 * pinned app-server `id` and `model` are the same slug).
 */
export const findModel = (catalog: ModelCatalog, id: string): Model | undefined =>
  catalog.models.find((model) => model.id === id);

/**
 * The catalog's default model: the first model with `isDefault: true` (the app-server marks
 * exactly one), or `undefined` when it marks none.
 */
export const defaultModel = (catalog: ModelCatalog): Model | undefined => catalog.models.find((model) => model.isDefault);

/** The ids of the catalog's models, in catalog order. */
export const modelIds = (catalog: ModelCatalog): ReadonlyArray<string> => catalog.models.map((model) => model.id);
