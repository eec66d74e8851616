/**
 * The start-up check of the managed plugin directories, run once after journal recovery
 * (`recoverAll`) and before Codex starts: each recorded plugin is observed with `lstat` only, the pure
 * `decideDirectoryRecovery` decides, and a plugin to rebuild is read from its verified package
 * (checksum, package-record and content checks) and republished for the current homes by the normal
 * transaction — manifest lock, journal, atomic publication, enablement preserved, ownership checked,
 * `respectUninstall` — so a crash leaves the old or the new state. A plugin that cannot be rebuilt is
 * reported (`RepairRequired`) and nothing of it is changed; the others go on.
 *
 * Programs here run only through the ports they are given.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { parsePluginKey, type PluginRef } from '@wework/plugin-inventory';
import type { FileSystemError, FileSystemPort } from '@wework/ports';
import { readCodexEnablement } from './ConfigToml.js';
import {
  PLUGIN_MANIFEST_FILE,
  checkRecoveryPackage,
  currentCachesOf,
  decideDirectoryRecovery,
  rebuildEnablement,
  type CacheState,
  type DirectoryDecision,
  type DirectoryOutcome,
  type DirectoryRecoveryReport,
} from './DirectoryRecovery.js';
import { joinPath } from './internal/Paths.js';
import { checkPluginId, layoutOf, type Homes } from './Layout.js';
import type { ManifestParseFailed, ManifestRecord } from './Manifest.js';
import { readManifest, readOptionalFile } from './ManifestFile.js';
import { validatePackage, type ValidPackage } from './Package.js';
import { commitChange, type PackageSource, type TransactionPorts } from './Transaction.js';
import { packageDigest } from './TreeDigest.js';

/** The ports of {@link recoverDirectories}: a transaction's, and the intake that opens a package directory. */
export interface DirectoryRecoveryPorts extends TransactionPorts {
  /** Opens a package directory for reading (`./node`'s `directoryPackageSource`: copied once, no links followed). */
  readonly openPackage: (path: string) => PackageSource;
}

/** Options of {@link recoverDirectories}. */
export interface DirectoryRecoveryOptions {
  /** ISO time recorded by rebuilds. */
  readonly at: string;
}

const cacheState = async (fs: FileSystemPort, path: string): Promise<E.Either<FileSystemError, CacheState>> => {
  const stat = await fs.lstat(path)();
  if (E.isLeft(stat)) return stat;
  if (stat.right === null) return E.right('missing');
  if (stat.right.kind !== 'directory') return E.right('incomplete');
  const manifest = await fs.lstat(joinPath(path, PLUGIN_MANIFEST_FILE))();
  if (E.isLeft(manifest)) return manifest;
  return E.right(manifest.right?.kind === 'file' ? 'complete' : 'incomplete');
};

const pluginManifestOf = async (fs: FileSystemPort, pkg: ValidPackage): Promise<unknown> => {
  const entry = pkg.entries.find((e) => e.kind === 'file' && e.path === PLUGIN_MANIFEST_FILE);
  if (entry === undefined || entry.kind !== 'file') return undefined;
  const bytes = 'staged' in entry ? await fs.readFile(entry.staged.path, { followSymlink: false })() : E.right(entry.bytes);
  if (E.isLeft(bytes)) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.right)) as unknown;
  } catch {
    return undefined;
  }
};

type Rebuild = Extract<DirectoryDecision, { _tag: 'Rebuild' }>;

/** Reads, checks and republishes one plugin; never fails as a whole (a failure is its own outcome). */
const rebuild = async (ports: DirectoryRecoveryPorts, homes: Homes, plugin: PluginRef, record: ManifestRecord, decision: Rebuild, at: string): Promise<DirectoryOutcome> => {
  const { fs } = ports;
  const origin = await fs.lstat(decision.origin.path)();
  if (E.isLeft(origin) || origin.right === null || origin.right.kind !== 'directory') return { _tag: 'RepairRequired', reason: 'PackageMissing' };
  const source = ports.openPackage(decision.origin.path);
  try {
    const entries = await source.extract()();
    if (E.isLeft(entries)) return { _tag: 'RepairRequired', reason: entries.left._tag === 'PackageRefused' ? 'PackageInvalid' : 'PackageMissing' };
    const pkg = validatePackage(entries.right);
    if (E.isLeft(pkg)) return { _tag: 'RepairRequired', reason: 'PackageInvalid' };
    const checked = checkRecoveryPackage(plugin, decision, { digest: packageDigest(fs.digest, pkg.right), pluginManifest: await pluginManifestOf(fs, pkg.right) });
    if (E.isLeft(checked)) return { _tag: 'RepairRequired', reason: checked.left };
    const config = await readOptionalFile(fs, layoutOf(homes, plugin).codexConfig)();
    const configured = E.isRight(config) && config.right !== null ? readCodexEnablement(new TextDecoder().decode(config.right), `${plugin.name}@${plugin.marketplace}`) : E.right(null);
    const enabled = rebuildEnablement(record, E.isRight(configured) ? configured.right : null);
    const committed = await commitChange(ports, homes, {
      _tag: 'Install',
      plugin,
      version: decision.version,
      source: { extract: () => TE.right(entries.right) },
      enabled,
      respectUninstall: true,
      at,
    })();
    if (E.isLeft(committed)) return { _tag: 'RepairRequired', reason: committed.left._tag === 'OwnershipConflict' ? 'DestinationOccupied' : 'RecoveryFailed' };
    return committed.right.outcome === 'SkippedUninstalled' ? { _tag: 'Tombstone' } : { _tag: 'Rebuilt', reason: decision.reason };
  } finally {
    await source.release?.()();
  }
};

/**
 * Checks every plugin the manifest records and rebuilds those whose directories were not published
 * for the current homes or are incomplete. Unchanged plugins with complete runtime directories cost
 * two `lstat`s per cache: no package is opened and no content is read. Run once at start-up, after
 * `recoverAll`; never before each message.
 *
 * @example
 * ```ts
 * const report = await recoverDirectories({ ...ports, openPackage: (dir) => directoryPackageSource(dir) }, homes, { at })();
 * // Right({ plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Rebuilt', reason: 'HomeMoved' } }, …] })
 * ```
 */
export const recoverDirectories =
  (ports: DirectoryRecoveryPorts, homes: Homes, options: DirectoryRecoveryOptions): TE.TaskEither<FileSystemError | ManifestParseFailed, DirectoryRecoveryReport> =>
  async () => {
    const manifest = await readManifest(ports.fs, homes)();
    if (E.isLeft(manifest)) return manifest;
    const plugins: Array<{ plugin: string; outcome: DirectoryOutcome }> = [];
    for (const [key, record] of Object.entries(manifest.right.plugins).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const ref = parsePluginKey(key);
      if (E.isLeft(ref) || E.isLeft(checkPluginId(ref.right))) {
        plugins.push({ plugin: key, outcome: { _tag: 'RepairRequired', reason: 'RecoveryFailed' } });
        continue;
      }
      const plugin = ref.right;
      const caches: Array<{ home: 'codex' | 'claude'; state: CacheState }> = [];
      if (record.status === 'installed' && record.version !== null) {
        for (const cache of currentCachesOf(homes, plugin, record.version)) {
          const state = await cacheState(ports.fs, cache.path);
          if (E.isLeft(state)) return state;
          caches.push({ home: cache.home, state: state.right });
        }
      }
      const decision = decideDirectoryRecovery(homes, plugin, record, { caches });
      const outcome: DirectoryOutcome = decision._tag === 'Rebuild' ? await rebuild(ports, homes, plugin, record, decision, options.at) : decision;
      plugins.push({ plugin: key, outcome });
    }
    return E.right({ plugins });
  };
