/**
 * `@wework/plugin-inventory`: the rules of the one plugin inventory shared by the marketplace, the
 * management view and the chat picker.
 *
 * - Identity: {@link marketplaceForVisibility} (`personal` → `wework-personal`, `workspace` →
 *   `wegent`, `public` → `wework`, legacy built-in rows normalised), `plugin://name@marketplace`
 *   references ({@link parsePluginRef}, {@link PluginRefFromString}) and uninstall targets matched by
 *   marketplace and plugin name ({@link findUninstallTarget}), never by display name.
 * - Install receipts: {@link mergeInventory} shows an accepted installation for at most five minutes
 *   from its original `acceptedAt` before `plugin/installed` confirms it; legacy receipts never override.
 * - Durable snapshots: {@link snapshotInventory} keeps presentation and recovery fields only;
 *   {@link decodeSnapshot} reads them back from untrusted JSON without throwing.
 * - Failed cloud removals: {@link startAttempt}/{@link attemptFailed}/{@link nextAttemptAt}, immediate
 *   first attempt, then 60 s doubling to a 1 h cap.
 * - {@link makeOfficialCatalogCache}: the 60 s official-catalog metadata cache with shared fetches and
 *   account-change rejection.
 * - Catalogs: {@link projectCatalogPlugin} keeps a marketplace list's summary fields (never long
 *   descriptions or screenshots); {@link orderMarketplaces}/{@link reorderMarketplaces} keep the user's
 *   order of custom marketplaces (the official one is never part of it).
 * - {@link assembleInventory}: the one installed inventory (origin and status of each plugin);
 *   {@link decideManagementChange}: how a management switch reaches the runtime;
 *   {@link preparePluginTrial}: whether "Try in chat" reuses a plugin of the target device.
 * - Bundled plugins: {@link bundledPackageOf} decodes a bundled package's manifest;
 *   {@link requestUpdate}/{@link updateFinished}/{@link uninstallRequested}/{@link resumeSync} gate
 *   their background updates and give their status (`ok`, `updating`, `updateFailed`).
 * - {@link decideHotReload}: reload the running app-server for a verified pure-skill installation or
 *   removal, invalidate it for everything else.
 *
 * - {@link saveStateFile}: the inventory's state files (receipts, snapshot, marketplace order) saved all
 *   or nothing through the file-system port of `@wework/ports`.
 *
 * Everything is pure: no IO of its own (files only through the port it is given), no timers; time comes from the caller (`now` or an injected `Clock` of `@wework/ports`).
 * What a Codex home holds of a plugin ({@link decideHotReload}'s input) is read by `@wework/sync-transaction/node`.
 */
export { afterReload, decideHotReload, type HotReloadDecision, type PluginState } from './HotReloadDecision.js';
export { configTomlChanges } from './ConfigChanges.js';
export {
  decodeReceipts,
  dropReceipt,
  encodeReceipts,
  mergeInventory,
  pruneReceipts,
  RECEIPT_WINDOW_MS,
  recordReceipt,
  type InstallReceipt,
} from './InstallReceipts.js';
export { decodeSnapshot, encodeSnapshot, snapshotInventory, type PluginPresentation } from './InventorySnapshot.js';
export {
  canonicalVisibility,
  cloudPluginRef,
  marketplaceForVisibility,
  marketplaceOutdated,
  visibilityForMarketplace,
} from './MarketplaceIdentity.js';
export {
  makeOfficialCatalogCache,
  type CatalogCacheKey,
  type CatalogReadError,
  type FetchCatalog,
} from './OfficialCatalogCache.js';
export { inspectManifest, PluginManifest } from './PluginManifest.js';
export {
  formatPluginRef,
  parsePluginKey,
  parsePluginRef,
  pluginKey,
  pluginRef,
  PluginRefFromString,
  samePlugin,
  type PluginRef,
} from './PluginRef.js';
export {
  attemptFailed,
  attemptSucceeded,
  isDue,
  nextAttemptAt,
  removalFromRecord,
  removalToRecord,
  requestRemoval,
  retryDelay,
  startAttempt,
  type RemovalAttempting,
  type RemovalState,
} from './RemovalRetry.js';
export {
  assembleInventory,
  OFFICIAL_MARKETPLACE,
  originOf,
  type ConfiguredPlugin,
  type FailedUpdate,
  type InventoryItem,
  type ListedPlugin,
  type PluginRepair,
} from './InstalledInventory.js';
export {
  bundledPackageOf,
  bundledPackagesOf,
  emptyUpdateState,
  requestUpdate,
  resumeSync,
  uninstallRecorded,
  uninstallRequested,
  updateFinished,
  updateStateOf,
  type BundledUpdateState,
  type StatusChange,
  type UpdateOutcome,
  type UpdateStatus,
} from './BundledUpdates.js';
export { decideManagementChange, type ManagementChange } from './ManagementChange.js';
export { preparePluginTrial, TRIAL_INVENTORY_FAILED, type TrialInventory } from './PluginTrial.js';
export { findUninstallTarget, withoutPlugin } from './UninstallTarget.js';
export { catalogByteCounts, projectCatalogPlugin, type CatalogPlugin } from './PluginCatalog.js';
export {
  decodeMarketplaceOrder,
  encodeMarketplaceOrder,
  orderMarketplaces,
  reorderMarketplaces,
  type MarketplacePreferences,
  type ReorderRefused,
} from './MarketplaceOrder.js';
export { saveStateFile } from './StateFiles.js';
