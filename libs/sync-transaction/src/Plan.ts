/**
 * The transaction plan: from the desired change and the current state of the homes to the list of
 * destinations to publish and the manifest afterwards.
 *
 * Every function is pure: a change and a snapshot of what is on disk in, a plan or a typed error
 * out. Nothing here reads or writes; `Transaction.ts` reads the snapshot through the port and runs
 * the plan.
 */
import * as E from 'fp-ts/lib/Either.js';
import { pluginKey, type PluginRef } from '@wework/plugin-inventory';
import { readCodexEnablement, setCodexEnablement, type ConfigTomlError } from './ConfigToml.js';
import { PRIVATE_FILE_MODE } from '@wework/ports';
import { joinPath } from './internal/Paths.js';
import { cacheDirectoryOf, homeRoot, layoutOf, packageDirectoryOf, runtimeHomes, type HomeName, type Homes } from './Layout.js';
import { encodeManifest, recordOf, updateRecord, type Manifest, type ManifestParseFailed, type OwnedCache } from './Manifest.js';
import type { ValidPackage } from './Package.js';
import {
  editClaudeInstalledPlugins,
  editClaudeKnownMarketplaces,
  editClaudeSettings,
  editCodexMarketplace,
  readClaudeEnablement,
  type RegistryParseFailed,
} from './Registries.js';
import { fileDigest, packageDigest } from './TreeDigest.js';

/**
 * Install or update a plugin version from a validated package. `enabled: 'preserve'` keeps what the
 * user chose in each home (a plugin disabled there stays disabled) and enables a plugin new to it.
 */
export interface PlannedInstall {
  readonly _tag: 'Install';
  readonly plugin: PluginRef;
  readonly version: string;
  readonly package: ValidPackage;
  readonly enabled: boolean | 'preserve';
  /** ISO time recorded in registries and the manifest. */
  readonly at: string;
}

/**
 * Uninstall a plugin: its enablement and registrations go, its caches are retained (and stay owned),
 * and the manifest keeps a tombstone so nothing resurrects it.
 */
export interface PlannedRemove {
  readonly _tag: 'Remove';
  readonly plugin: PluginRef;
  readonly at: string;
}

/** A change with its package already validated. */
export type PlannedChange = PlannedInstall | PlannedRemove;

/** A file as it is on disk now. */
export interface FileSnapshot {
  readonly bytes: Uint8Array;
  readonly mode: number;
}

/** What a plan needs to know about the disk. */
export interface StateSnapshot {
  readonly manifest: Manifest;
  /** Every file {@link filesToRead} names: its bytes and mode, or `null` when absent. */
  readonly files: ReadonlyMap<string, FileSnapshot | null>;
  /** Every directory {@link directoriesToRead} names: its tree digest, or `null` when absent. */
  readonly directories: ReadonlyMap<string, string | null>;
}

/** One destination to replace, create or remove. */
export type PlannedPublication =
  | { readonly kind: 'directory'; readonly dest: string; readonly package: ValidPackage; readonly before: string | null; readonly after: string }
  | { readonly kind: 'file'; readonly dest: string; readonly bytes: Uint8Array; readonly mode: number; readonly previous: FileSnapshot | null; readonly before: string | null; readonly after: string }
  | { readonly kind: 'remove'; readonly dest: string; readonly before: string };

/** A plan: destinations in publication order (caches, then registries and configuration, the manifest last). */
export interface Plan {
  readonly plugin: PluginRef;
  readonly publications: ReadonlyArray<PlannedPublication>;
  readonly manifest: Manifest;
}

/** A destination directory exists and the manifest does not record it as this plugin's: it is never replaced. */
export interface OwnershipConflict {
  readonly _tag: 'OwnershipConflict';
  readonly path: string;
}

/** Why a plan cannot be made. Nothing has been written when one is returned. */
export type PlanError = ConfigTomlError | RegistryParseFailed | ManifestParseFailed | OwnershipConflict;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

const homesOf = runtimeHomes;

const cachePath = (homes: Homes, home: HomeName, relative: string): string => joinPath(homeRoot(homes, home) ?? '', relative);

/**
 * What a change does on the Claude side:
 *
 * - `'write'` (runtime target `'dual'`): an install writes the Claude cache, registries and
 *   enablement; a removal drops the registration and enablement and retains the caches;
 * - `'cleanup'` (runtime target `'codex'`): a removal of a plugin whose manifest record lists Claude
 *   caches — left by an earlier dual-runtime installation — drops its `installed_plugins.json` entry and
 *   `settings.json` enablement and deletes those caches;
 * - `'none'`: nothing on the Claude side is read or written (no Claude home; a Codex-only install or
 *   update; a Codex-only removal of a plugin that never had Claude state of ours).
 *
 * @example
 * ```ts
 * claudeSideOf({ ...homes, runtimeTarget: 'codex' }, { _tag: 'Remove', plugin }, manifest); // 'cleanup' after a dual install
 * ```
 */
export const claudeSideOf = (homes: Homes, change: { readonly _tag: PlannedChange['_tag']; readonly plugin: PluginRef }, manifest: Manifest): 'write' | 'cleanup' | 'none' => {
  if (homes.claudeHome === null) return 'none';
  if ((homes.runtimeTarget ?? 'dual') === 'dual') return 'write';
  const recordsClaude = recordOf(manifest, change.plugin)?.caches.some((cache) => cache.home === 'claude') ?? false;
  return change._tag === 'Remove' && recordsClaude ? 'cleanup' : 'none';
};

/**
 * The files a change may replace: read them (bytes and mode, or absent) into {@link StateSnapshot.files}.
 * Without `context`, every file any change of the plugin may replace; with it, only those `change`
 * can touch given the current `manifest` (a Codex-only install never reads the Claude side).
 */
export const filesToRead = (homes: Homes, plugin: PluginRef, context?: { readonly change: PlannedChange; readonly manifest: Manifest }): ReadonlyArray<string> => {
  const layout = layoutOf(homes, plugin);
  const claude = context === undefined ? homes.claudeHome !== null : claudeSideOf(homes, context.change, context.manifest) !== 'none';
  return [layout.codexConfig, layout.codexMarketplace, ...(claude ? [layout.claudeInstalled, layout.claudeMarketplaces, layout.claudeSettings] : [])].filter(
    (p): p is string => p !== null,
  );
};

/** The Claude caches a Codex-only removal deletes: those the manifest records (relative to the Claude home). */
const claudeCachesToClean = (homes: Homes, change: PlannedChange, manifest: Manifest): ReadonlyArray<OwnedCache> =>
  claudeSideOf(homes, change, manifest) === 'cleanup' ? (recordOf(manifest, change.plugin)?.caches ?? []).filter((cache) => cache.home === 'claude') : [];

/** The retained package directory of a plugin version (absolute), when the homes have a package store. */
export const packageStorePath = (homes: Homes, plugin: PluginRef, version: string): string | null =>
  homes.packageStore === undefined ? null : joinPath(homes.packageStore, packageDirectoryOf(plugin, version));

/** The cache (and retained package) directories a change may replace or remove: digest them into {@link StateSnapshot.directories}. */
export const directoriesToRead = (homes: Homes, change: PlannedChange, manifest: Manifest): ReadonlyArray<string> => {
  if (change._tag === 'Remove') return claudeCachesToClean(homes, change, manifest).map((cache) => cachePath(homes, 'claude', cache.path));
  const record = recordOf(manifest, change.plugin);
  const versions = [change.version, ...(record?.status === 'installed' && record.version !== null ? [record.version] : [])];
  const packages = versions.map((version) => packageStorePath(homes, change.plugin, version)).filter((p): p is string => p !== null);
  return [...packages, ...homesOf(homes).flatMap((home) => versions.map((version) => cachePath(homes, home, cacheDirectoryOf(change.plugin, version))))];
};

const text = (state: StateSnapshot, path: string | null): string | null => {
  const file = path === null ? null : state.files.get(path);
  return file === null || file === undefined ? null : decoder.decode(file.bytes);
};

/** A file publication, or nothing when the content does not change. */
const fileChange = (digest: (bytes: Uint8Array) => string, state: StateSnapshot, path: string, next: string): PlannedPublication[] => {
  const previous = state.files.get(path) ?? null;
  const bytes = encoder.encode(next);
  if (previous !== null && decoder.decode(previous.bytes) === next) return [];
  return [
    {
      kind: 'file',
      dest: path,
      bytes,
      mode: previous?.mode ?? PRIVATE_FILE_MODE,
      previous,
      before: previous === null ? null : fileDigest(digest, previous.bytes),
      after: fileDigest(digest, bytes),
    },
  ];
};

const sequence = <A>(results: ReadonlyArray<E.Either<PlanError, A>>): E.Either<PlanError, ReadonlyArray<A>> => {
  const out: A[] = [];
  for (const result of results) {
    if (E.isLeft(result)) return result;
    out.push(result.right);
  }
  return E.right(out);
};

const manifestPublication = (digest: (bytes: Uint8Array) => string, homes: Homes, state: StateSnapshot, plugin: PluginRef, manifest: Manifest): PlannedPublication[] =>
  fileChange(digest, state, layoutOf(homes, plugin).manifest, encodeManifest(manifest));

const planInstall = (digest: (bytes: Uint8Array) => string, homes: Homes, change: PlannedInstall, state: StateSnapshot): E.Either<PlanError, Plan> => {
  const { plugin, version } = change;
  const key = pluginKey(plugin);
  const layout = layoutOf(homes, plugin);
  const record = recordOf(state.manifest, plugin);
  const owned = (home: HomeName, relative: string): boolean => record?.caches.some((c) => c.home === home && c.path === relative) ?? false;
  const after = packageDigest(digest, change.package);
  const relative = cacheDirectoryOf(plugin, version);
  const caches: PlannedPublication[] = [];
  // The verified package is retained first (the package store is this library's own directory).
  const retained = packageStorePath(homes, plugin, version);
  if (retained !== null && (state.directories.get(retained) ?? null) !== after) caches.push({ kind: 'directory', dest: retained, package: change.package, before: state.directories.get(retained) ?? null, after });
  for (const home of homesOf(homes)) {
    const dest = cachePath(homes, home, relative);
    const before = state.directories.get(dest) ?? null;
    if (before !== null && !owned(home, relative)) return E.left({ _tag: 'OwnershipConflict', path: dest });
    if (before !== after) caches.push({ kind: 'directory', dest, package: change.package, before, after });
  }
  const previousVersion = record?.status === 'installed' ? record.version : null;
  const dropped: OwnedCache[] = [];
  if (previousVersion !== null && previousVersion !== version) {
    const oldPackage = packageStorePath(homes, plugin, previousVersion);
    const oldPackageDigest = oldPackage === null ? null : (state.directories.get(oldPackage) ?? null);
    if (oldPackage !== null && oldPackageDigest !== null) caches.push({ kind: 'remove', dest: oldPackage, before: oldPackageDigest });
    for (const home of homesOf(homes)) {
      const old = cacheDirectoryOf(plugin, previousVersion);
      const dest = cachePath(homes, home, old);
      const before = state.directories.get(dest) ?? null;
      if (!owned(home, old)) continue;
      dropped.push({ home, path: old });
      if (before !== null) caches.push({ kind: 'remove', dest, before });
    }
  }

  const configText = text(state, layout.codexConfig) ?? '';
  const codexNow = readCodexEnablement(configText, key);
  if (E.isLeft(codexNow)) return codexNow;
  const codexEnabled = change.enabled === 'preserve' ? (codexNow.right ?? true) : change.enabled;
  let claudeEnabled: boolean | null = null;
  const edits: Array<E.Either<PlanError, readonly [string, string]>> = [
    E.map((t: string) => [layout.codexConfig, t] as const)(setCodexEnablement(configText, key, codexEnabled)),
    E.map((t: string) => [layout.codexMarketplace, t] as const)(
      editCodexMarketplace(text(state, layout.codexMarketplace), plugin.marketplace, plugin.name, joinPath('../../cache', plugin.marketplace, plugin.name, version)),
    ),
  ];
  if (claudeSideOf(homes, change, state.manifest) === 'write' && layout.claudeInstalled !== null && layout.claudeMarketplaces !== null && layout.claudeSettings !== null && layout.claudeMarketplaceRoot !== null) {
    const claudeNow = readClaudeEnablement(text(state, layout.claudeSettings), key);
    if (E.isLeft(claudeNow)) return claudeNow;
    claudeEnabled = change.enabled === 'preserve' ? (claudeNow.right ?? true) : change.enabled;
    const installPath = cachePath(homes, 'claude', relative);
    edits.push(
      E.map((t: string) => [layout.claudeInstalled as string, t] as const)(editClaudeInstalledPlugins(text(state, layout.claudeInstalled), key, { installPath, version, at: change.at })),
      E.map((t: string) => [layout.claudeMarketplaces as string, t] as const)(editClaudeKnownMarketplaces(text(state, layout.claudeMarketplaces), plugin.marketplace, layout.claudeMarketplaceRoot, change.at)),
      E.map((t: string) => [layout.claudeSettings as string, t] as const)(editClaudeSettings(text(state, layout.claudeSettings), key, claudeEnabled)),
    );
  }
  const files = sequence(edits);
  if (E.isLeft(files)) return files;

  const kept = (record?.caches ?? []).filter((c) => !dropped.some((d) => d.home === c.home && d.path === c.path));
  const current = homesOf(homes).map((home): OwnedCache => ({ home, path: relative }));
  const manifest = updateRecord(state.manifest, plugin, {
    status: 'installed',
    version,
    digest: after,
    caches: [...kept.filter((c) => !current.some((n) => n.home === c.home && n.path === c.path)), ...current],
    updatedAt: change.at,
    installedFor: { codexHome: homes.codexHome, claudeHome: homesOf(homes).includes('claude') ? homes.claudeHome : null },
    package: retained === null ? null : { version, digest: after, path: packageDirectoryOf(plugin, version) },
    enabled: { codex: codexEnabled, claude: claudeEnabled },
  });
  return E.right({
    plugin,
    manifest,
    publications: [
      ...caches,
      ...files.right.flatMap(([path, next]) => fileChange(digest, state, path, next)),
      ...manifestPublication(digest, homes, state, plugin, manifest),
    ],
  });
};

const planRemove = (digest: (bytes: Uint8Array) => string, homes: Homes, change: PlannedRemove, state: StateSnapshot): E.Either<PlanError, Plan> => {
  const { plugin } = change;
  const key = pluginKey(plugin);
  const layout = layoutOf(homes, plugin);
  const edits: Array<E.Either<PlanError, readonly [string, string]>> = [];
  const configText = text(state, layout.codexConfig);
  if (configText !== null) edits.push(E.map((t: string) => [layout.codexConfig, t] as const)(setCodexEnablement(configText, key, null)));
  const marketplaceText = text(state, layout.codexMarketplace);
  if (marketplaceText !== null) edits.push(E.map((t: string) => [layout.codexMarketplace, t] as const)(editCodexMarketplace(marketplaceText, plugin.marketplace, plugin.name, null)));
  const claude = claudeSideOf(homes, change, state.manifest);
  if (claude !== 'none') {
    for (const [path, edit] of [
      [layout.claudeInstalled, (t: string) => editClaudeInstalledPlugins(t, key, null)],
      [layout.claudeSettings, (t: string) => editClaudeSettings(t, key, null)],
    ] as const) {
      const current = text(state, path);
      if (path !== null && current !== null) edits.push(E.map((t: string) => [path, t] as const)(edit(current)));
    }
  }
  const files = sequence(edits);
  if (E.isLeft(files)) return files;
  // Codex-only: the Claude caches an earlier dual-runtime install left go too (those still there are removed).
  const cleaned = claudeCachesToClean(homes, change, state.manifest);
  const removals = cleaned.flatMap((cache): PlannedPublication[] => {
    const dest = cachePath(homes, 'claude', cache.path);
    const before = state.directories.get(dest) ?? null;
    return before === null ? [] : [{ kind: 'remove', dest, before }];
  });
  const record = recordOf(state.manifest, plugin);
  const caches = (record?.caches ?? []).filter((cache) => !cleaned.some((c) => c.home === cache.home && c.path === cache.path));
  // The tombstone keeps the record's associations and its retained package (a reinstall may reuse them).
  const manifest = updateRecord(state.manifest, plugin, { status: 'uninstalled', version: null, digest: null, caches, updatedAt: change.at, enabled: { codex: null, claude: null } });
  return E.right({
    plugin,
    manifest,
    publications: [
      ...removals,
      ...files.right.flatMap(([path, next]) => fileChange(digest, state, path, next)),
      ...manifestPublication(digest, homes, state, plugin, manifest),
    ],
  });
};

/**
 * Plans a change against the current state. `digest` is the port's SHA-256.
 *
 * @example
 * ```ts
 * const plan = planChange(fs.digest, homes, { _tag: 'Remove', plugin, at: '2025-01-01T00:00:00.000Z' }, snapshot);
 * // Right({ publications: [config.toml, settings.json, …, manifest.json], manifest: { … tombstone … } })
 * ```
 */
export const planChange = (digest: (bytes: Uint8Array) => string, homes: Homes, change: PlannedChange, state: StateSnapshot): E.Either<PlanError, Plan> =>
  change._tag === 'Install' ? planInstall(digest, homes, change, state) : planRemove(digest, homes, change, state);
