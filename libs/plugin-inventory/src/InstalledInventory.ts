/**
 * The one installed-plugin inventory that the marketplace, the management view and the chat picker
 * share, assembled from what each source says: the plugins Codex lists as installed
 * (`plugin/installed`), the plugins config.toml enables or disables (`[plugins."name@marketplace"]`),
 * the Wegent cloud plugins this device installed (the sync manifest), failed cloud updates, and the
 * install receipts still bridging the discovery race. Each plugin gets its source and one status:
 *
 * - `ok`: listed by Codex.
 * - `installing`: accepted by Codex, not listed yet, within the receipt window ({@link mergeInventory}).
 * - `repairRequired`: configured or recorded as installed, but Codex does not list it (its marketplace
 *   manifest is gone, or the package is missing), or start-up recovery could not recover it; the
 *   reason says which.
 * - `updating`: listed, and an update of it is running (the installed version keeps working meanwhile).
 * - `updateFailed`: listed, but the last cloud update of it failed (the installed version keeps working).
 *
 * Every function here is pure: lists in, a list out; the time is an argument.
 */
import { mergeInventory, type InstallReceipt } from './InstallReceipts.js';
import type { PluginPresentation } from './InventorySnapshot.js';
import { CLOUD_MARKETPLACES, marketplaceForVisibility } from './MarketplaceIdentity.js';
import { samePlugin, type PluginRef } from './PluginRef.js';

/** The name of the OpenAI official (curated) marketplace in Codex. */
export const OFFICIAL_MARKETPLACE = 'openai-curated';

/** Where an installed plugin comes from. */
export type PluginOrigin = 'official' | 'custom' | 'personal' | 'cloud';

/** A plugin Codex lists as installed. */
export interface ListedPlugin {
  readonly ref: PluginRef;
  readonly enabled: boolean;
  readonly version: string | null;
  readonly description: string | null;
  readonly presentation: PluginPresentation | null;
}

/** A `[plugins."name@marketplace"]` entry of config.toml. */
export interface ConfiguredPlugin {
  readonly ref: PluginRef;
  readonly enabled: boolean;
}

/** A failed cloud update of an installed plugin. */
export interface FailedUpdate {
  readonly ref: PluginRef;
  /** A short reason (a typed error's tag), never a path or a message from the package. */
  readonly reason: string;
}

/** Everything the inventory is assembled from. */
export interface InventorySources {
  readonly listed: ReadonlyArray<ListedPlugin>;
  readonly configured: ReadonlyArray<ConfiguredPlugin>;
  /** Wegent cloud plugins recorded as installed on this device. */
  readonly cloud: ReadonlyArray<PluginRef>;
  readonly failedUpdates: ReadonlyArray<FailedUpdate>;
  /** Plugins an update is running for (bundled upgrades); they show `updating` over a failure. */
  readonly updating?: ReadonlyArray<PluginRef>;
  readonly receipts: ReadonlyArray<InstallReceipt>;
  /** Plugins start-up recovery could not recover (a missing package, an occupied destination, …); default none. */
  readonly repairs?: ReadonlyArray<PluginRepair>;
}

/** A plugin start-up recovery left to repair, and why. */
export interface PluginRepair {
  readonly ref: PluginRef;
  readonly reason: RepairReason;
}

/** Why a plugin needs repair. */
export type RepairReason =
  /** config.toml has the plugin but Codex does not list it: its marketplace manifest is gone or unreadable. */
  | 'MarketplaceUnavailable'
  /** The sync manifest records the cloud plugin as installed but Codex does not list it, or start-up recovery found no verified package. */
  | 'PackageMissing'
  /** Start-up recovery found the retained package failing its checksum, package-record or content check. */
  | 'PackageInvalid'
  /** Start-up recovery found a destination occupied by something that is not this plugin's. */
  | 'DestinationOccupied'
  /** Start-up recovery could not republish the plugin (its previous state is kept). */
  | 'RecoveryFailed';

/** The status of one inventory plugin. */
export type InventoryStatus =
  | { readonly kind: 'ok' }
  | { readonly kind: 'installing'; readonly acceptedAt: number; readonly expiresAt: number }
  | { readonly kind: 'repairRequired'; readonly reason: RepairReason }
  | { readonly kind: 'updating' }
  | { readonly kind: 'updateFailed'; readonly reason: string };

/** One plugin of the inventory. */
export interface InventoryItem {
  readonly ref: PluginRef;
  readonly origin: PluginOrigin;
  readonly enabled: boolean;
  readonly status: InventoryStatus;
  /** Codex's entry, when Codex lists the plugin. */
  readonly listed: ListedPlugin | null;
}

/** The assembled inventory and when it next changes by itself (a receipt expiring), or `null`. */
export interface AssembledInventory {
  readonly plugins: ReadonlyArray<InventoryItem>;
  readonly nextChangeAt: number | null;
}

/**
 * The origin of a plugin: the official marketplace, the Wework personal marketplace, a Wegent cloud
 * plugin (recorded by the sync, or in one of the cloud marketplaces `wegent`/`wework`), else custom.
 * @example
 * ```ts
 * originOf({ name: 'notes', marketplace: 'openai-curated' }, []); // 'official'
 * ```
 */
export const originOf = (ref: PluginRef, cloud: ReadonlyArray<PluginRef>): PluginOrigin => {
  if (ref.marketplace === OFFICIAL_MARKETPLACE) return 'official';
  if (ref.marketplace === marketplaceForVisibility('personal')) return 'personal';
  if (cloud.some((entry) => samePlugin(entry, ref))) return 'cloud';
  return ref.marketplace === CLOUD_MARKETPLACES.workspace || ref.marketplace === CLOUD_MARKETPLACES.public ? 'cloud' : 'custom';
};

/**
 * Assembles the inventory at `now`. Order: Codex's plugins in Codex's order, then configured plugins
 * Codex does not list, then cloud plugins neither lists, then plugins only a receipt shows. Each plugin
 * (same name and marketplace) appears once; identity is never a display name. Expired and legacy
 * receipts never add or change anything.
 * @example
 * ```ts
 * assembleInventory({ listed: [], configured: [], cloud: [], failedUpdates: [], receipts: [{ ref, acceptedAt: now }] }, now);
 * // { plugins: [{ ref, status: { kind: 'installing', ... }, ... }], nextChangeAt: now + 300_000 }
 * ```
 */
export const assembleInventory = (sources: InventorySources, now: number): AssembledInventory => {
  const items: InventoryItem[] = [];
  const has = (ref: PluginRef): boolean => items.some((item) => samePlugin(item.ref, ref));
  const failure = (ref: PluginRef): FailedUpdate | undefined => sources.failedUpdates.find((failed) => samePlugin(failed.ref, ref));
  const repair = (ref: PluginRef): PluginRepair | undefined => sources.repairs?.find((entry) => samePlugin(entry.ref, ref));
  for (const listed of sources.listed) {
    if (has(listed.ref)) continue;
    const failed = failure(listed.ref);
    const updating = (sources.updating ?? []).some((ref) => samePlugin(ref, listed.ref));
    const repaired = repair(listed.ref);
    // An update that runs is shown first: when it commits it also repairs the plugin.
    const status: InventoryStatus = updating
      ? { kind: 'updating' }
      : repaired !== undefined
        ? { kind: 'repairRequired', reason: repaired.reason }
        : failed === undefined
          ? { kind: 'ok' }
          : { kind: 'updateFailed', reason: failed.reason };
    items.push({ ref: listed.ref, origin: originOf(listed.ref, sources.cloud), enabled: listed.enabled, status, listed });
  }
  for (const configured of sources.configured) {
    if (has(configured.ref)) continue;
    items.push({ ref: configured.ref, origin: originOf(configured.ref, sources.cloud), enabled: configured.enabled, status: { kind: 'repairRequired', reason: 'MarketplaceUnavailable' }, listed: null });
  }
  for (const ref of sources.cloud) {
    if (has(ref)) continue;
    items.push({ ref, origin: 'cloud', enabled: false, status: { kind: 'repairRequired', reason: repair(ref)?.reason ?? 'PackageMissing' }, listed: null });
  }
  const merged = mergeInventory(
    items.map((item) => ({ ref: item.ref, installed: true })),
    sources.receipts,
    now,
  );
  for (const shown of merged.plugins) {
    if (shown._tag !== 'Bridged' || shown.entry !== null) continue;
    items.push({ ref: shown.ref, origin: originOf(shown.ref, sources.cloud), enabled: true, status: { kind: 'installing', acceptedAt: shown.acceptedAt, expiresAt: shown.expiresAt }, listed: null });
  }
  return { plugins: items, nextChangeAt: merged.nextChangeAt };
};
