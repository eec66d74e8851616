/**
 * The last model chosen for chat and for task supervision. Both use the same catalog (one list, one
 * order, no second filtering path) but remember their selections independently.
 *
 * Every function here is pure: a {@link Selections} value is immutable; `select` returns a new one.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { findModel, modelIds, type ModelCatalog } from './ModelCatalog.js';
import { checkSendable, modelUnavailable, type ModelUnavailable, type Sendable, type SendBlocked } from './Sendability.js';

/** What a selection is for. */
export const Purpose = t.keyof({ chat: null, supervision: null }, 'Purpose');
/** `'chat' | 'supervision'`. */
export type Purpose = t.TypeOf<typeof Purpose>;

/** Every purpose, in a fixed order. */
export const PURPOSES: ReadonlyArray<Purpose> = ['chat', 'supervision'];

/** The remembered model ids, as a host persists them (`null`: nothing chosen yet). */
export interface RememberedSelections {
  readonly chat: string | null;
  readonly supervision: string | null;
}

/** Codec of {@link RememberedSelections}, for reading them back from storage (untrusted). */
export const RememberedSelections: t.Type<RememberedSelections, RememberedSelections, unknown> = t.readonly(
  t.type({ chat: t.union([t.string, t.null]), supervision: t.union([t.string, t.null]) }),
  'RememberedSelections',
);

/** Nothing chosen for either purpose. */
export const noSelections: RememberedSelections = { chat: null, supervision: null };

/** Chat's and supervision's selections over one shared catalog. */
export interface Selections {
  /** The shared catalog both purposes choose from. */
  readonly catalog: ModelCatalog;
  /** The remembered ids, for persisting. */
  readonly remembered: RememberedSelections;
  /**
   * Chooses `model` (an id) for `purpose`, validated against the shared catalog; the other purpose's
   * selection is untouched. Unknown id → `Left(ModelUnavailable)`, nothing changes.
   */
  select(purpose: Purpose, model: string): E.Either<ModelUnavailable, Selections>;
  /** The last model chosen for `purpose`, or `null`. It may have left the catalog since. */
  last(purpose: Purpose): string | null;
  /** {@link checkSendable} for `purpose`'s last selection (no selection → the catalog's default). */
  sendable(purpose: Purpose): E.Either<SendBlocked, Sendable>;
  /**
   * The same selections over a newer catalog. Selections are kept even if their model left it;
   * `sendable` then blocks rather than substituting another model.
   */
  withCatalog(catalog: ModelCatalog): Selections;
}

/**
 * Creates the selections over a catalog, optionally from remembered ids (kept as they are, even if
 * no longer in the catalog: `sendable` reports that).
 * @example
 * ```ts
 * import { makeSelections } from '@wework/model-catalog';
 * const selections = makeSelections(catalog);
 * const next = selections.select('supervision', 'gpt-5.5');
 * if (next._tag === 'Right') {
 *   next.right.last('supervision'); // 'gpt-5.5'
 *   next.right.last('chat');        // null: chat keeps its own
 * }
 * ```
 */
export const makeSelections = (catalog: ModelCatalog, remembered: RememberedSelections = noSelections): Selections => {
  const frozen: RememberedSelections = { chat: remembered.chat, supervision: remembered.supervision };
  const self: Selections = {
    catalog,
    remembered: frozen,
    select: (purpose, model) =>
      findModel(catalog, model) === undefined
        ? E.left(modelUnavailable(model, modelIds(catalog)))
        : E.right(makeSelections(catalog, { ...frozen, [purpose]: model })),
    last: (purpose) => frozen[purpose],
    sendable: (purpose) => checkSendable(catalog, frozen[purpose]),
    withCatalog: (next) => makeSelections(next, frozen),
  };
  return self;
};
