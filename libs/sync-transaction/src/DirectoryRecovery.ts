/**
 * Start-up recovery of the managed plugin directories: for each plugin the manifest records, decide
 * from a cheap observation (no package read, no content digest) whether its runtime directories are
 * as they were published for the current homes, must be rebuilt from its verified package (the homes
 * moved, the record came from a version 1 manifest, a cache is incomplete), need repair (no verified
 * package), or belong to an explicit uninstall (never touched, never resurrected).
 *
 * Every function is pure: the current homes, a manifest record and an observation in, a decision out.
 * The historical paths a record carries (`installedFor`) are compared, never used as a destination:
 * every path a decision names is inside the current homes or the package store.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { PluginRef } from '@wework/plugin-inventory';
import { joinPath } from './internal/Paths.js';
import { cacheDirectoryOf, homeRoot, runtimeHomes, type HomeName, type Homes } from './Layout.js';
import type { InstalledFor, ManifestRecord } from './Manifest.js';
import { packageStorePath } from './Plan.js';

/** The file a complete runtime directory holds (what Codex loads a plugin from). */
export const PLUGIN_MANIFEST_FILE = '.codex-plugin/plugin.json';

/** How a runtime cache directory looks from outside: its kind and whether it holds {@link PLUGIN_MANIFEST_FILE}. */
export type CacheState = 'complete' | 'incomplete' | 'missing';

/** What recovery observed about one plugin without reading its package or any file's content. */
export interface DirectoryObservation {
  /** The current version's cache in each runtime home of the current homes. */
  readonly caches: ReadonlyArray<{ readonly home: HomeName; readonly state: CacheState }>;
}

/** Why a plugin's directories are rebuilt. */
export type RebuildReason =
  /** The record was published for other homes: the homes were moved. */
  | 'HomeMoved'
  /** The record does not say which homes it was published for (a migrated version 1 record). */
  | 'HomeUnknown'
  /** A runtime cache of the current version is missing or incomplete. */
  | 'CacheIncomplete';

/** Why a plugin's installation needs repair (shown as `repairRequired` with this reason). */
export type DirectoryRepairReason =
  /** No verified package is available to rebuild from. */
  | 'PackageMissing'
  /** The package failed the checksum, package-record or content check. */
  | 'PackageInvalid'
  /** A destination is occupied by something the manifest does not record as this plugin's. */
  | 'DestinationOccupied'
  /** The rebuild transaction failed (rolled back; the previous state is kept). */
  | 'RecoveryFailed';

/** Where a rebuild takes its package from. */
export type PackageOrigin =
  /** The retained package of the package store. */
  | { readonly _tag: 'Retained'; readonly path: string }
  /** A record without a package record (version 1): the current Codex cache, verified against the recorded digest. */
  | { readonly _tag: 'Cache'; readonly path: string };

/** What start-up recovery does with one plugin. */
export type DirectoryDecision =
  /** An explicit uninstall: nothing is read or written, retained caches and packages stay where they are. */
  | { readonly _tag: 'Tombstone' }
  /** Published for the current homes and complete: nothing is read. */
  | { readonly _tag: 'Unchanged' }
  | {
      readonly _tag: 'Rebuild';
      readonly reason: RebuildReason;
      readonly version: string;
      /** The digest the package must have (the record's). */
      readonly digest: string;
      readonly origin: PackageOrigin;
      /** The directories the rebuild may write (inside the current homes and the package store). */
      readonly destinations: ReadonlyArray<string>;
    }
  | { readonly _tag: 'RepairRequired'; readonly reason: DirectoryRepairReason };

const sameHomes = (a: InstalledFor, homes: Homes): boolean =>
  a.codexHome === homes.codexHome && a.claudeHome === (runtimeHomes(homes).includes('claude') ? homes.claudeHome : null);

/** The current-version cache directories of a plugin in the current runtime homes (absolute). */
export const currentCachesOf = (homes: Homes, plugin: PluginRef, version: string): ReadonlyArray<{ readonly home: HomeName; readonly path: string }> =>
  runtimeHomes(homes).map((home) => ({ home, path: joinPath(homeRoot(homes, home) ?? '', cacheDirectoryOf(plugin, version)) }));

/**
 * Decides what start-up recovery does with one plugin's record.
 *
 * @example
 * ```ts
 * decideDirectoryRecovery(homes, plugin, record, { caches: [{ home: 'codex', state: 'complete' }] });
 * // { _tag: 'Unchanged' } when record.installedFor is the current homes
 * ```
 */
export const decideDirectoryRecovery = (homes: Homes, plugin: PluginRef, record: ManifestRecord, observed: DirectoryObservation): DirectoryDecision => {
  if (record.status === 'uninstalled') return { _tag: 'Tombstone' };
  if (record.version === null || record.digest === null) return { _tag: 'RepairRequired', reason: 'PackageMissing' };
  const hint = record.installedFor ?? null;
  const complete = observed.caches.length > 0 && observed.caches.every((cache) => cache.state === 'complete');
  const reason: RebuildReason | null = hint === null ? 'HomeUnknown' : !sameHomes(hint, homes) ? 'HomeMoved' : complete ? null : 'CacheIncomplete';
  if (reason === null) return { _tag: 'Unchanged' };
  const packageRecord = record.package ?? null;
  const caches = currentCachesOf(homes, plugin, record.version);
  let origin: PackageOrigin | null = null;
  if (packageRecord !== null) {
    const retained = packageStorePath(homes, plugin, record.version);
    // The package record must be the installation's: same version, same digest.
    if (packageRecord.version !== record.version || packageRecord.digest !== record.digest) return { _tag: 'RepairRequired', reason: 'PackageInvalid' };
    if (retained === null) return { _tag: 'RepairRequired', reason: 'PackageMissing' };
    origin = { _tag: 'Retained', path: retained };
  } else {
    const codex = caches.find((cache) => cache.home === 'codex');
    const state = observed.caches.find((cache) => cache.home === 'codex')?.state ?? 'missing';
    if (codex === undefined || state === 'missing') return { _tag: 'RepairRequired', reason: 'PackageMissing' };
    origin = { _tag: 'Cache', path: codex.path };
  }
  const retainedPackage = packageStorePath(homes, plugin, record.version);
  return {
    _tag: 'Rebuild',
    reason,
    version: record.version,
    digest: record.digest,
    origin,
    destinations: [...(retainedPackage === null ? [] : [retainedPackage]), ...caches.map((cache) => cache.path)],
  };
};

/**
 * The enablement a rebuild publishes: `'preserve'` keeps what config.toml says; when config.toml has
 * no entry for the plugin, the enablement the record says was last written (a disabled plugin stays
 * disabled), else `'preserve'` (enabled, as a new installation).
 */
export const rebuildEnablement = (record: ManifestRecord, codexEnablement: boolean | null): boolean | 'preserve' =>
  codexEnablement === null && record.enabled?.codex === false ? false : 'preserve';

/** The package a rebuild read, as recovery checks it (its digest and its plugin manifest's name and version). */
export interface ReadPackage {
  readonly digest: string;
  /** `.codex-plugin/plugin.json` decoded as JSON, `undefined` when the package has none or it is not JSON. */
  readonly pluginManifest: unknown;
}

/**
 * The checks a package passes before anything is rebuilt from it: the checksum (its digest is the
 * recorded one) and the package record (its plugin manifest names this plugin, and this version when
 * it names one). The content check — a valid package tree — is `validatePackage`'s, run before.
 */
export const checkRecoveryPackage = (plugin: PluginRef, decision: Extract<DirectoryDecision, { _tag: 'Rebuild' }>, read: ReadPackage): E.Either<DirectoryRepairReason, void> => {
  if (read.digest !== decision.digest) return E.left('PackageInvalid');
  const manifest = read.pluginManifest;
  if (typeof manifest !== 'object' || manifest === null) return E.left('PackageInvalid');
  const { name, version } = manifest as { name?: unknown; version?: unknown };
  if (name !== plugin.name) return E.left('PackageInvalid');
  if (version !== undefined && version !== decision.version) return E.left('PackageInvalid');
  return E.right(undefined);
};

/** What start-up recovery did with one plugin. */
export type DirectoryOutcome =
  | { readonly _tag: 'Tombstone' }
  | { readonly _tag: 'Unchanged' }
  | { readonly _tag: 'Rebuilt'; readonly reason: RebuildReason }
  | { readonly _tag: 'RepairRequired'; readonly reason: DirectoryRepairReason };

/** The report of one start-up directory recovery: an outcome per recorded plugin, by key. */
export interface DirectoryRecoveryReport {
  readonly plugins: ReadonlyArray<{ readonly plugin: string; readonly outcome: DirectoryOutcome }>;
}

/** The plugins of a report that need repair, with their reasons. */
export const repairsOf = (report: DirectoryRecoveryReport): ReadonlyArray<{ readonly plugin: string; readonly reason: DirectoryRepairReason }> =>
  report.plugins.flatMap((entry) => (entry.outcome._tag === 'RepairRequired' ? [{ plugin: entry.plugin, reason: entry.outcome.reason }] : []));
