/**
 * Upgrades of plugins bundled with the desktop app: compare the installed cache with the bundled
 * package — version and full file contents, so a fix within the same version still arrives — and
 * commit an upgrade through the normal transaction when they differ.
 *
 * The transaction stages and validates the new tree beside the old one and keeps the previous cache
 * (as its backup) until the configuration commits; any failure restores it. Enablement is preserved,
 * so a plugin the user disabled stays disabled. An explicit uninstall (a manifest tombstone) is
 * respected: a bundled plugin the user removed is never reinstalled by an upgrade check.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { PluginRef } from '@wework/plugin-inventory';
import type { FileSystemError, FileSystemPort } from '@wework/ports';
import { joinPath } from './internal/Paths.js';
import { cacheDirectoryOf, homeRoot, runtimeHomes, type Homes } from './Layout.js';
import { recordOf, type ManifestParseFailed } from './Manifest.js';
import { readManifest } from './ManifestFile.js';
import { validatePackage, type ValidPackage } from './Package.js';
import { commitChange, type CommitOptions, type PackageSource, type SyncError, type TransactionPorts, type TransactionResult } from './Transaction.js';
import { packageDigest, treeDigest } from './TreeDigest.js';

/** How the installed cache compares with the bundled package. */
export type BundledComparison =
  | { readonly _tag: 'UpToDate' }
  /** The user uninstalled the plugin: leave it uninstalled. */
  | { readonly _tag: 'Uninstalled' }
  | { readonly _tag: 'Differs'; readonly reason: 'NotInstalled' | 'VersionChanged' | 'ContentChanged' | 'CacheChanged' };

/**
 * Compares the installed plugin with a bundled package: the manifest's version and package digest,
 * and the digest of every cache directory on disk (full file contents).
 */
export const compareBundled =
  (fs: FileSystemPort, homes: Homes, plugin: PluginRef, version: string, pkg: ValidPackage): TE.TaskEither<FileSystemError | ManifestParseFailed, BundledComparison> =>
  async () => {
    const manifest = await readManifest(fs, homes)();
    if (E.isLeft(manifest)) return manifest;
    const record = recordOf(manifest.right, plugin);
    if (record?.status === 'uninstalled') return E.right({ _tag: 'Uninstalled' });
    if (record === undefined) return E.right({ _tag: 'Differs', reason: 'NotInstalled' });
    if (record.version !== version) return E.right({ _tag: 'Differs', reason: 'VersionChanged' });
    const wanted = packageDigest(fs.digest, pkg);
    if (record.digest !== wanted) return E.right({ _tag: 'Differs', reason: 'ContentChanged' });
    for (const home of runtimeHomes(homes)) {
      const root = homeRoot(homes, home);
      if (root === null) continue;
      const onDisk = await treeDigest(fs, joinPath(root, cacheDirectoryOf(plugin, version)))();
      if (E.isLeft(onDisk)) return onDisk;
      if (onDisk.right !== wanted) return E.right({ _tag: 'Differs', reason: 'CacheChanged' });
    }
    return E.right({ _tag: 'UpToDate' });
  };

/** What a bundled upgrade did. */
export type BundledUpgradeResult =
  | { readonly _tag: 'UpToDate' }
  | { readonly _tag: 'Uninstalled' }
  | { readonly _tag: 'Upgraded'; readonly reason: Extract<BundledComparison, { _tag: 'Differs' }>['reason']; readonly transaction: TransactionResult };

/** A bundled package to check: the plugin, its version and where its files come from. */
export interface BundledPackageSource {
  readonly plugin: PluginRef;
  readonly version: string;
  readonly source: PackageSource;
  /** ISO time for the registries and the manifest. */
  readonly at: string;
}

/**
 * Checks a bundled plugin and upgrades it when the installed cache differs, preserving enablement.
 * `options` are the transaction's (a `beforeCommit` check runs on the published caches before the
 * commit mark, as for any install). The source is extracted once and released when done, whatever
 * the outcome.
 *
 * @example
 * ```ts
 * const result = await upgradeBundled(ports, homes, { plugin, version: '2.0.0', source, at })();
 * // Right({ _tag: 'Upgraded', reason: 'ContentChanged', … }) or Right({ _tag: 'UpToDate' })
 * ```
 */
export const upgradeBundled =
  (ports: TransactionPorts, homes: Homes, bundled: BundledPackageSource, options: CommitOptions = {}): TE.TaskEither<SyncError | ManifestParseFailed, BundledUpgradeResult> =>
  async () => {
    try {
      return await checkAndUpgrade(ports, homes, bundled, options);
    } finally {
      await bundled.source.release?.()();
    }
  };

const checkAndUpgrade = async (
  ports: TransactionPorts,
  homes: Homes,
  bundled: BundledPackageSource,
  options: CommitOptions,
): Promise<E.Either<SyncError | ManifestParseFailed, BundledUpgradeResult>> => {
  const entries = await bundled.source.extract()();
  if (E.isLeft(entries)) return entries;
  const pkg = validatePackage(entries.right);
  if (E.isLeft(pkg)) return pkg;
  const comparison = await compareBundled(ports.fs, homes, bundled.plugin, bundled.version, pkg.right)();
  if (E.isLeft(comparison)) return comparison;
  if (comparison.right._tag !== 'Differs') return E.right(comparison.right);
  const reason = comparison.right.reason;
  const committed = await commitChange(
    ports,
    homes,
    {
      _tag: 'Install',
      plugin: bundled.plugin,
      version: bundled.version,
      source: { extract: () => TE.right(entries.right) },
      enabled: 'preserve',
      respectUninstall: true,
      at: bundled.at,
    },
    options,
  )();
  if (E.isLeft(committed)) return committed;
  if (committed.right.outcome === 'SkippedUninstalled') return E.right({ _tag: 'Uninstalled' });
  return E.right({ _tag: 'Upgraded', reason, transaction: committed.right });
};
