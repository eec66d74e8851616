/**
 * Whether a task can send with its model: a task keeps the model it was saved with; when that model is
 * not in the current catalog, sending is blocked until the person chooses one. The default model is
 * used only for a task that has no saved model, never as a silent substitute.
 *
 * Every function here is pure: values in, values out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Model } from '@wework/codex-protocol';
import { defaultModel, findModel, modelIds, type ModelCatalog } from './ModelCatalog.js';

/** The saved model is not in the current catalog: sending is blocked until another is chosen. */
export interface ModelUnavailable {
  readonly _tag: 'ModelUnavailable';
  /** The saved model id. */
  readonly model: string;
  /** The ids the person can choose from instead, in catalog order. */
  readonly available: ReadonlyArray<string>;
  readonly message: string;
}

/** No saved model and the catalog marks no default (for example an empty catalog). */
export interface NoDefaultModel {
  readonly _tag: 'NoDefaultModel';
  readonly available: ReadonlyArray<string>;
  readonly message: string;
}

/** Why a task cannot send. */
export type SendBlocked = ModelUnavailable | NoDefaultModel;

/** The model a task sends with, and where it comes from. */
export type Sendable =
  | { readonly _tag: 'SavedModel'; readonly model: Model }
  | { readonly _tag: 'DefaultModel'; readonly model: Model };

/** Builds a {@link ModelUnavailable} error. */
export const modelUnavailable = (model: string, available: ReadonlyArray<string>): ModelUnavailable => ({
  _tag: 'ModelUnavailable',
  model,
  available,
  message:
    available.length === 0
      ? `The model ${JSON.stringify(model)} is not available and no model is available right now. Sending is blocked until a model is available.`
      : `The model ${JSON.stringify(model)} is not available right now. Choose an available model to send: ${available.join(', ')}.`,
});

/** Builds a {@link NoDefaultModel} error. */
export const noDefaultModel = (available: ReadonlyArray<string>): NoDefaultModel => ({
  _tag: 'NoDefaultModel',
  available,
  message:
    available.length === 0
      ? 'No model is available right now. Sending is blocked until a model is available.'
      : `No default model is set. Choose an available model to send: ${available.join(', ')}.`,
});

/**
 * Checks a task's saved model against the catalog.
 * - Saved model in the catalog → `Right({ _tag: 'SavedModel', model })`.
 * - Saved model absent → `Left(ModelUnavailable)`; the default is never substituted.
 * - No saved model (`null`/`undefined`, a new task) → `Right({ _tag: 'DefaultModel', model })`, the
 *   catalog's `isDefault` model, or `Left(NoDefaultModel)` when it has none.
 *
 * An empty string counts as a saved model (that no catalog has), not as "no saved model".
 * @example
 * ```ts
 * import { checkSendable } from '@wework/model-catalog';
 * const check = checkSendable(catalog, task.modelSelection?.model);
 * if (check._tag === 'Left') composer.blockSend(check.left.message);
 * else send({ model: check.right.model.model });
 * ```
 */
export const checkSendable = (catalog: ModelCatalog, savedModel: string | null | undefined): E.Either<SendBlocked, Sendable> => {
  if (savedModel === null || savedModel === undefined) {
    const model = defaultModel(catalog);
    return model === undefined ? E.left(noDefaultModel(modelIds(catalog))) : E.right({ _tag: 'DefaultModel', model });
  }
  const model = findModel(catalog, savedModel);
  return model === undefined ? E.left(modelUnavailable(savedModel, modelIds(catalog))) : E.right({ _tag: 'SavedModel', model });
};
