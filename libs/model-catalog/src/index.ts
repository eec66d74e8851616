/**
 * `@wework/model-catalog`: the Codex model catalog for the model picker.
 *
 * - {@link loadCatalog} pages `model/list` with `includeHidden: false` and keeps the server's order:
 *   nothing added, nothing reordered, hidden models left out, duplicates and cursor loops reported.
 *   {@link startPaging}/{@link acceptPage} are the same paging as a pure state machine.
 * - {@link checkSendable}: a task's saved model that left the catalog blocks sending
 *   (`ModelUnavailable`); the default model is used only for a task without a saved model.
 * - {@link lookupCatalog}/{@link catalogRead}/{@link watchWire}: when a cached catalog may be used
 *   (dropped on app-server restart, account change, config writes touching models); {@link checkSendWith}
 *   reads once more before a send is blocked by a model absent from the cache.
 * - {@link makeSelections}: chat and supervision share the catalog and remember their last
 *   selections independently.
 *
 * Everything here is pure: no IO, no clock, no process.
 */
export { type CatalogLoadError } from './CatalogLoadError.js';
export { acceptPage, loadCatalog, modelListParams, startPaging } from './CatalogPaging.js';
export {
  catalogChanged,
  catalogRead,
  checkSendWith,
  emptyFreshness,
  lookupCatalog,
  watchWire,
  type CatalogChange,
  type CatalogFreshness,
} from './CatalogFreshness.js';
export { catalogFromModels, defaultModel, emptyCatalog, findModel, modelIds, type ModelCatalog } from './ModelCatalog.js';
export { makeSelections, RememberedSelections, type Selections } from './Selections.js';
export { checkSendable, type SendBlocked } from './Sendability.js';
