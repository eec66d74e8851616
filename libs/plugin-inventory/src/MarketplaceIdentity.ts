/**
 * Marketplace identity of Wegent cloud plugins. A cloud plugin's marketplace follows from its
 * visibility: `personal` → `wework-personal`, `workspace` → `wegent`, `public` → `wework`. The
 * built-in application plugins (owned by the system user, id 0) are `workspace` plugins; a row of
 * one of them still stored as `public` is a legacy row and counts as `workspace`. Installed rows
 * whose `source.marketplace` no longer matches the visibility-derived marketplace must be updated.
 *
 * Every function here is pure: values in, values out.
 */
import type * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { pluginRef, type InvalidPluginRef, type MarketplaceName, type PluginRef } from './PluginRef.js';

/** Who can see a cloud plugin. */
export const Visibility = t.keyof({ personal: null, workspace: null, public: null }, 'Visibility');
/** `'personal' | 'workspace' | 'public'`. */
export type Visibility = t.TypeOf<typeof Visibility>;

/** Every visibility, from the narrowest to the widest. */
export const VISIBILITIES: ReadonlyArray<Visibility> = ['personal', 'workspace', 'public'];

/** The marketplace names of the Wegent cloud marketplace, by visibility. */
export const CLOUD_MARKETPLACES = {
  personal: 'wework-personal',
  workspace: 'wegent',
  public: 'wework',
} as const satisfies Record<Visibility, string>;

/** One of the cloud marketplace names: `'wework-personal' | 'wegent' | 'wework'`. */
export type CloudMarketplace = (typeof CLOUD_MARKETPLACES)[Visibility];

/** The id of the system owner of built-in plugins. */
export const SYSTEM_USER_ID = 0;

/** The Backend built-in application plugins (all published with visibility `workspace`). */
export const BUILTIN_APPLICATION_PLUGINS: ReadonlyArray<string> = ['wegent-sites', 'weibo-miniapp-h5-develop-agent'];

/**
 * The marketplace name of a visibility.
 * @example
 * ```ts
 * marketplaceForVisibility('workspace'); // 'wegent'
 * ```
 */
export const marketplaceForVisibility = (visibility: Visibility): CloudMarketplace & MarketplaceName =>
  CLOUD_MARKETPLACES[visibility] as CloudMarketplace & MarketplaceName;

/** The visibility a cloud marketplace name stands for, or `null` for any other marketplace. */
export const visibilityForMarketplace = (marketplace: string): Visibility | null => {
  const found = VISIBILITIES.find((visibility) => CLOUD_MARKETPLACES[visibility] === marketplace);
  return found ?? null;
};

/** A stored cloud marketplace row, as far as identity is concerned. */
export interface CloudPluginRow {
  /** The plugin name. */
  readonly pluginName: string;
  /** The owning user id (`0` is the system). */
  readonly ownerUserId: number;
  /** The visibility as stored. */
  readonly visibility: Visibility;
}

/**
 * The visibility a row really has: the stored one, except that a built-in application plugin owned by
 * the system and still stored as `public` is a legacy row and counts as `workspace`. Rows of other
 * owners or other plugins keep `public`.
 * @example
 * ```ts
 * canonicalVisibility({ pluginName: 'wegent-sites', ownerUserId: 0, visibility: 'public' });  // 'workspace'
 * canonicalVisibility({ pluginName: 'wegent-sites', ownerUserId: 42, visibility: 'public' }); // 'public'
 * ```
 */
export const canonicalVisibility = (row: CloudPluginRow, builtins: ReadonlyArray<string> = BUILTIN_APPLICATION_PLUGINS): Visibility =>
  row.visibility === 'public' && row.ownerUserId === SYSTEM_USER_ID && builtins.includes(row.pluginName) ? 'workspace' : row.visibility;

/**
 * The reference of a cloud plugin row: its name in the marketplace of its canonical visibility.
 * @example
 * ```ts
 * cloudPluginRef({ pluginName: 'wegent-sites', ownerUserId: 0, visibility: 'public' });
 * // Right({ name: 'wegent-sites', marketplace: 'wegent' })
 * ```
 */
export const cloudPluginRef = (row: CloudPluginRow, builtins: ReadonlyArray<string> = BUILTIN_APPLICATION_PLUGINS): E.Either<InvalidPluginRef, PluginRef> =>
  pluginRef(row.pluginName, marketplaceForVisibility(canonicalVisibility(row, builtins)));

/**
 * Whether an installed record's `source.marketplace` no longer matches the marketplace of the
 * plugin's current visibility (for example `wework` after the plugin moved from `public` to
 * `workspace`): such a record must be updated (and its failed device state reset) even when its
 * plugin and release ids are unchanged.
 */
export const marketplaceOutdated = (sourceMarketplace: string, currentVisibility: Visibility): boolean =>
  sourceMarketplace !== marketplaceForVisibility(currentVisibility);
