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
export {
  afterReload,
  decideHotReload,
  isOwnConfigChange,
  type ConfigChange,
  type HotReloadDecision,
  type Invalidate,
  type InvalidateReason,
  type KeepProcess,
  type PluginChange,
  type PluginInstalled,
  type PluginNotInstalled,
  type PluginState,
  type PluginUninspectable,
  type Reload,
  type ReloadOutcome,
} from './HotReloadDecision.js';
export { configTomlChanges } from './ConfigChanges.js';
export {
  decodeReceipts,
  dropReceipt,
  encodeReceipts,
  mergeInventory,
  pruneReceipts,
  RECEIPT_WINDOW_MS,
  receiptActive,
  receiptExpiresAt,
  recordReceipt,
  StoredInstallReceipt,
  type InstallReceipt,
  type InventoryEntry,
  type MergedInventory,
  type ShownPlugin,
  type StoredReceipt,
} from './InstallReceipts.js';
export {
  decodeSnapshot,
  DROPPED_FIELDS,
  encodeSnapshot,
  PluginSnapshot,
  projectPlugin,
  SNAPSHOT_VERSION,
  snapshotInventory,
  type DecodedSnapshot,
  type InvalidSnapshot,
  type InventoryPlugin,
  type InventorySnapshot,
  type PluginPresentation,
} from './InventorySnapshot.js';
export {
  BUILTIN_APPLICATION_PLUGINS,
  canonicalVisibility,
  CLOUD_MARKETPLACES,
  cloudPluginRef,
  marketplaceForVisibility,
  marketplaceOutdated,
  SYSTEM_USER_ID,
  Visibility,
  VISIBILITIES,
  visibilityForMarketplace,
  type CloudMarketplace,
  type CloudPluginRow,
} from './MarketplaceIdentity.js';
export {
  CATALOG_TTL_MS,
  catalogCacheKeyId,
  makeOfficialCatalogCache,
  type CatalogCacheKey,
  type CatalogFetchFailed,
  type CatalogFetchRejected,
  type CatalogReadError,
  type CatalogReadSuperseded,
  type FetchCatalog,
  type OfficialCatalogCache,
  type OfficialCatalogCacheOptions,
} from './OfficialCatalogCache.js';
export {
  inspectManifest,
  KNOWN_MANIFEST_KEYS,
  PluginManifest,
  PluginManifestInterface,
  type InspectedManifest,
  type InvalidManifest,
  type ManifestCapabilities,
} from './PluginManifest.js';
export {
  formatPluginRef,
  MarketplaceName,
  parsePluginKey,
  parsePluginRef,
  PluginName,
  pluginKey,
  pluginRef,
  PluginRefFromString,
  PluginRefObject,
  samePlugin,
  type InvalidPluginRef,
  type MarketplaceNameBrand,
  type PluginNameBrand,
  type PluginRef,
} from './PluginRef.js';
export {
  attemptFailed,
  attemptSucceeded,
  FIRST_RETRY_DELAY_MS,
  isDue,
  MAX_RETRY_DELAY_MS,
  nextAttemptAt,
  removalFromRecord,
  removalToRecord,
  requestRemoval,
  retryDelay,
  startAttempt,
  type RemovalAttempting,
  type RemovalDone,
  type RemovalFailed,
  type RemovalNotDue,
  type RemovalPending,
  type RemovalRecord,
  type RemovalState,
} from './RemovalRetry.js';
export {
  assembleInventory,
  OFFICIAL_MARKETPLACE,
  originOf,
  type AssembledInventory,
  type ConfiguredPlugin,
  type FailedUpdate,
  type InventoryItem,
  type InventorySources,
  type InventoryStatus,
  type ListedPlugin,
  type PluginOrigin,
  type PluginRepair,
  type RepairReason,
} from './InstalledInventory.js';
export {
  bundledPackageOf,
  bundledPackagesOf,
  emptyUpdateState,
  requestUpdate,
  resumeSync,
  UNINSTALLED_REASON,
  uninstallRecorded,
  uninstallRequested,
  updateFinished,
  updateStateOf,
  type BundledPackage,
  type BundledPackageRejected,
  type BundledUpdateState,
  type PluginUpdateState,
  type StatusChange,
  type Transition,
  type UninstallGate,
  type UpdateAdmission,
  type UpdateOutcome,
  type UpdateStatus,
} from './BundledUpdates.js';
export { decideManagementChange, type ManagementChange } from './ManagementChange.js';
export {
  preparePluginTrial,
  TRIAL_INVENTORY_FAILED,
  type NeedsInstallReason,
  type TrialDecision,
  type TrialInventory,
  type TrialPlugin,
  type TrialRequest,
} from './PluginTrial.js';
export { findUninstallTarget, withoutPlugin, type Identified, type UninstallTargetNotFound } from './UninstallTarget.js';
export {
  CATALOG_DROPPED_FIELDS,
  catalogByteCounts,
  projectCatalogPlugin,
  type CatalogByteCounts,
  type CatalogPlugin,
  type CatalogSource,
} from './PluginCatalog.js';
export {
  decodeMarketplaceOrder,
  encodeMarketplaceOrder,
  MARKETPLACE_ORDER_VERSION,
  orderMarketplaces,
  reorderMarketplaces,
  StoredMarketplaceOrder,
  type InvalidMarketplaceOrder,
  type MarketplacePreferences,
  type ReorderRefused,
} from './MarketplaceOrder.js';
export { saveStateFile } from './StateFiles.js';
