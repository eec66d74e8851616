/**
 * The plugins bundled with the desktop app, kept in step with their packages in the background: after
 * start-up each bundled package is compared with the installed plugin (version and every file) and
 * upgraded through the cloud plugin sync when it differs. The rules — at most one check per plugin, a
 * manual uninstall pauses the plugin and waits for its admitted check, an explicit reinstall resumes it,
 * the status and its changes — are `@wework/plugin-inventory`'s bundled update state machine; this
 * module reads the packages and carries out its decisions. Status changes go to the hosts
 * (`plugins/updateStatus`) and to the inventory (`updating`, `updateFailed`).
 *
 * The user's uninstall has one durable home: the sync manifest's tombstone, committed in the same
 * transaction as the removal (so a removal refused by a full disk leaves neither). The machine's state
 * is in memory; at every start, once interrupted transactions were recovered and before any check or
 * retry, each bundled plugin whose tombstone the manifest holds is paused again. An `ok` is announced
 * only after the manifest was read back and records the plugin installed.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  bundledPackageOf,
  bundledPackagesOf,
  emptyUpdateState,
  parsePluginKey,
  pluginKey,
  requestUpdate,
  resumeSync,
  samePlugin,
  uninstallRequested,
  updateFinished,
  updateStateOf,
  uninstallRecorded,
  type BundledUpdateState,
  type PluginRef,
  type StatusChange,
  type UpdateOutcome,
  type UpdateStatus,
} from '@wework/plugin-inventory';
import type * as SyncTransaction from '@wework/sync-transaction';
import type { BeforeCommit, Homes } from '@wework/sync-transaction';
import type * as SyncTransactionNode from '@wework/sync-transaction/node';
import type { Log } from '@wework/ports';
import type * as Sync from './PluginSync.js';
import type { PluginSync } from './PluginSync.js';
import { readPluginManifest } from './UntrustedJson.js';

/** The marketplace of the plugins bundled with the desktop app. */
export const BUNDLED_MARKETPLACE = 'wework';

/** Why `plugins/retryUpdate` did not admit a check. */
export type RetryRefused = { readonly _tag: 'NotBundled'; readonly pluginId: string } | { readonly _tag: 'UpdatePaused'; readonly pluginId: string };

/** The bundled plugins of this executor. */
export interface BundledPlugins {
  /** Reads the package list and checks every package (in the background: call it without awaiting). */
  checkAll(): Promise<void>;
  /** Checks one bundled plugin again (after a failure); answers once the check was admitted, or the status it has. */
  retry(pluginId: string): Promise<E.Either<RetryRefused, UpdateStatus>>;
  /**
   * A manual uninstall of `ref`: pauses its synchronisation, waits for its admitted check, then runs
   * `remove`. Afterwards the pause follows the manifest: paused when it records the uninstall, resumed
   * when the removal failed and it does not.
   */
  uninstall<L>(ref: PluginRef, remove: () => Promise<E.Either<L, void>>): Promise<E.Either<L, void>>;
  /** `ref` was installed explicitly: synchronisation resumes, and a bundled plugin is checked at once. */
  reinstalled(ref: PluginRef): void;
  /** Resolves once no check runs. */
  idle(): Promise<void>;
}

/** What the bundled plugins need. */
export interface BundledPluginsOptions {
  /** The bundled package directories, as given (decoded when read). */
  readonly directories: ReadonlyArray<string>;
  /** The cloud plugin sync (loaded with the plugin machinery, after recovery). */
  readonly sync: () => Promise<PluginSync>;
  readonly homes: Homes;
  /** Tells the hosts a status change (`plugins/updateStatus`). */
  readonly notify: (change: StatusChange) => void;
  /** Tells the inventory a plugin's status, and the hosts that the inventory changed after an upgrade. */
  readonly inventory: {
    status(ref: PluginRef, status: UpdateStatus): Promise<void>;
    upgraded(ref: PluginRef): void;
  };
  /** Checks the published caches of an upgrade before its commit mark (a test fault hook); default none. */
  readonly beforeCommit?: BeforeCommit;
  readonly log: Log;
}

/** Reads and parses a bundled package's manifest (untrusted; bounded, a regular file only); `undefined` when unreadable. */
async function readManifest(directory: string): Promise<unknown> {
  // A byte-order mark is kept, so such a manifest stays refused (JSON has none).
  const manifest = await readPluginManifest(directory);
  return E.isLeft(manifest) ? undefined : manifest.right;
}

/** The bundled plugins over `options`. */
export function bundledPlugins(options: BundledPluginsOptions): BundledPlugins {
  const { log } = options;
  let loading: Promise<Machinery> | undefined;
  const machinery = (): Promise<Machinery> => (loading ??= loadMachinery());
  let state: BundledUpdateState = emptyUpdateState;
  /** The package directory of each bundled plugin, by key (known once the list was read). */
  let known: Promise<ReadonlyMap<string, string>> | null = null;
  /** The admitted check of each plugin, by key. */
  const running = new Map<string, Promise<void>>();
  /** How many uninstalls and installs a host asked for, by key: a manifest read one of them overtook is not applied. */
  const actions = new Map<string, number>();
  const actionsOf = (ref: PluginRef): number => actions.get(pluginKey(ref)) ?? 0;
  const acted = (ref: PluginRef): void => void actions.set(pluginKey(ref), actionsOf(ref) + 1);

  /** What the sync manifest records about `ref` now (read bounded and decoded); `unreadable` is logged. */
  const recordedNow = async (ref: PluginRef): Promise<Recorded> => {
    const { fs, readManifest, recordOf } = await machinery();
    const manifest = await readManifest(fs, options.homes)();
    if (E.isLeft(manifest)) {
      log({ event: 'bundled plugin state unreadable', fields: { plugin: pluginKey(ref), error: manifest.left._tag } });
      return 'unreadable';
    }
    return recordOf(manifest.right, ref)?.status ?? 'absent';
  };

  const announce = async (ref: PluginRef, change: StatusChange | null): Promise<void> => {
    if (change === null) return;
    await options.inventory.status(ref, change.status);
    options.notify(change);
  };

  const readList = async (): Promise<ReadonlyMap<string, string>> => {
    const manifests = await Promise.all(options.directories.map(readManifest));
    const decoded = bundledPackagesOf(manifests, BUNDLED_MARKETPLACE);
    for (const skipped of decoded.rejected) log({ event: 'bundled plugin skipped', fields: { index: skipped.index, reason: skipped.error.reason } });
    return new Map(decoded.packages.map(({ index, bundled }) => [pluginKey(bundled.ref), options.directories[index] ?? '']));
  };
  const list = (): Promise<ReadonlyMap<string, string>> => (known ??= readList());

  /** After recovery, pauses every bundled plugin whose uninstall the manifest records; answers how many. */
  const restore = async (): Promise<number> => {
    const packages = await list();
    await options.sync();
    const refs = [...packages.keys()].map(parsePluginKey).flatMap((ref) => (E.isRight(ref) ? [ref.right] : []));
    const before = new Map(refs.map((ref) => [pluginKey(ref), actionsOf(ref)]));
    const { fs, readManifest, recordOf } = await machinery();
    const manifest = await readManifest(fs, options.homes)();
    if (E.isLeft(manifest)) {
      log({ event: 'bundled plugin state unreadable', fields: { plugin: null, error: manifest.left._tag } });
      return 0;
    }
    let paused = 0;
    for (const ref of refs) {
      if (recordOf(manifest.right, ref)?.status !== 'uninstalled' || actionsOf(ref) !== before.get(pluginKey(ref))) continue;
      state = uninstallRecorded(state, ref).state;
      paused += 1;
    }
    return paused;
  };
  let restoring: Promise<number> | null = null;
  /** The pauses of this start, restored once (every check and retry waits for it). */
  const restored = (): Promise<number> => (restoring ??= restore());

  /** The package of `ref` as its directory says now (it may have changed since the list was read). */
  const packageNow = async (ref: PluginRef, directory: string): Promise<E.Either<string, string>> => {
    const decoded = bundledPackageOf(await readManifest(directory), BUNDLED_MARKETPLACE);
    if (E.isLeft(decoded)) return E.left(decoded.left.reason);
    return samePlugin(decoded.right.ref, ref) ? E.right(decoded.right.version) : E.left('BundledPackageChanged');
  };

  /** Whether the installed plugin differs from the bundled package (read-only; no gate). */
  const differs = async (ref: PluginRef, version: string, directory: string): Promise<boolean> => {
    const { fs, directoryPackageSource, validatePackage, compareBundled } = await machinery();
    const source = directoryPackageSource(directory);
    try {
      const entries = await source.extract()();
      if (E.isLeft(entries)) return true;
      const pkg = validatePackage(entries.right);
      if (E.isLeft(pkg)) return true;
      const comparison = await compareBundled(fs, options.homes, ref, version, pkg.right)();
      return E.isLeft(comparison) || comparison.right._tag === 'Differs';
    } finally {
      await source.release?.()();
    }
  };

  /** The admitted check of `ref`: upgrade through the sync, then the outcome. */
  const upgrade = async (ref: PluginRef, version: string, directory: string): Promise<UpdateOutcome> => {
    const [sync, { directoryPackageSource, syncFailureReason }] = await Promise.all([options.sync(), machinery()]);
    const upgraded = await sync.upgradeBundled(ref, version, directoryPackageSource(directory), options.beforeCommit);
    if (E.isLeft(upgraded)) return { _tag: 'Failed', reason: syncFailureReason(upgraded.left), version: null };
    const result = upgraded.right.transaction.bundled;
    if (result._tag === 'Uninstalled') return { _tag: 'Skipped' };
    if (result._tag === 'Upgraded') {
      log({ event: 'bundled plugin upgraded', fields: { plugin: pluginKey(ref), reason: result.reason, runtime: upgraded.right.runtime._tag } });
      options.inventory.upgraded(ref);
    }
    return { _tag: 'Succeeded', version };
  };

  /** Admits a check of `ref` (unless paused or running) and runs it; resolves once admitted, with the status. */
  const admit = async (ref: PluginRef, directory: string, version: string): Promise<UpdateStatus> => {
    const requested = requestUpdate(state, ref, version);
    state = requested.state;
    if (requested.decision._tag !== 'Admitted') return updateStateOf(state, ref).status;
    await announce(ref, requested.change);
    const key = pluginKey(ref);
    const run = (async () => {
      let outcome: UpdateOutcome;
      try {
        outcome = await upgrade(ref, version, directory);
        // Never announce ok for a plugin that is not installed: the manifest must record it so.
        if (outcome._tag === 'Succeeded') {
          const recorded = await recordedNow(ref);
          if (recorded !== 'installed') {
            log({ event: 'bundled plugin not installed after its check', fields: { plugin: key, recorded } });
            outcome = recorded === 'uninstalled' ? { _tag: 'Skipped' } : { _tag: 'Failed', reason: recorded === 'absent' ? 'NotInstalled' : 'ManifestUnreadable', version: null };
          }
        }
      } catch (error) {
        outcome = { _tag: 'Failed', reason: error instanceof Error ? error.name : 'Error', version: null };
      }
      if (outcome._tag === 'Failed') log({ event: 'bundled plugin update failed', fields: { plugin: key, reason: outcome.reason } });
      const finished = updateFinished(state, ref, outcome);
      state = finished.state;
      await announce(ref, finished.change);
    })().finally(() => running.delete(key));
    running.set(key, run);
    return updateStateOf(state, ref).status;
  };

  /** A background check: compare first, and admit only when it differs (an up-to-date plugin announces nothing). */
  const check = async (key: string, directory: string, always: boolean): Promise<E.Either<string, UpdateStatus>> => {
    const ref = parsePluginKey(key);
    if (E.isLeft(ref)) return E.left('InvalidName');
    // The sync is loaded once interrupted transactions were recovered: nothing is compared before that.
    await options.sync();
    // A plugin the user uninstalled is neither compared nor checked until it is installed again.
    if (updateStateOf(state, ref.right).paused) return E.right(updateStateOf(state, ref.right).status);
    const version = await packageNow(ref.right, directory);
    if (E.isLeft(version)) {
      log({ event: 'bundled plugin skipped', fields: { plugin: key, reason: version.left } });
      return version;
    }
    if (!always && !(await differs(ref.right, version.right, directory))) return E.right(updateStateOf(state, ref.right).status);
    return E.right(await admit(ref.right, directory, version.right));
  };

  const idle = async (): Promise<void> => {
    while (running.size > 0) await Promise.all(running.values());
  };

  return {
    checkAll: async () => {
      const packages = await list();
      const paused = await restored();
      let admitted = 0;
      for (const [key, directory] of packages) {
        const checked = await check(key, directory, false);
        if (E.isRight(checked) && checked.right.kind === 'updating') admitted += 1;
      }
      log({ event: 'bundled plugins checked', fields: { packages: packages.size, admitted, paused } });
    },
    retry: async (pluginId) => {
      const directory = (await list()).get(pluginId);
      const ref = parsePluginKey(pluginId);
      if (directory === undefined || E.isLeft(ref)) return E.left({ _tag: 'NotBundled', pluginId });
      await restored();
      if (updateStateOf(state, ref.right).paused) return E.left({ _tag: 'UpdatePaused', pluginId });
      const checked = await check(pluginId, directory, true);
      return E.right(E.isRight(checked) ? checked.right : updateStateOf(state, ref.right).status);
    },
    uninstall: async (ref, remove) => {
      acted(ref);
      const ours = actionsOf(ref);
      const gate = uninstallRequested(state, ref, (await recordedNow(ref)) === 'installed');
      state = gate.state;
      await announce(ref, gate.change);
      if (gate.decision._tag === 'WaitForUpdate') await running.get(pluginKey(ref));
      const removed = await remove();
      // The removal commits the tombstone with it, or neither: the pause follows what the manifest says.
      const recorded = await recordedNow(ref);
      if (actionsOf(ref) === ours) {
        if (recorded === 'uninstalled') state = uninstallRecorded(state, ref).state;
        else if (E.isLeft(removed)) state = resumeSync(state, ref);
      }
      return removed;
    },
    reinstalled: (ref) => {
      acted(ref);
      state = resumeSync(state, ref);
      void list().then((packages) => {
        const directory = packages.get(pluginKey(ref));
        if (directory !== undefined) return check(pluginKey(ref), directory, false);
        return undefined;
      });
    },
    idle,
  };
}

/** What the sync manifest records about a plugin: the user's uninstall is `uninstalled` (its tombstone). */
type Recorded = 'installed' | 'uninstalled' | 'absent' | 'unreadable';

/** What the comparisons and upgrades need of the transaction library and the sync. */
interface Machinery {
  readonly fs: ReturnType<typeof SyncTransactionNode.createNodePorts>['fs'];
  readonly readManifest: typeof SyncTransaction.readManifest;
  readonly recordOf: typeof SyncTransaction.recordOf;
  readonly directoryPackageSource: (directory: string) => ReturnType<typeof SyncTransactionNode.directoryPackageSource>;
  readonly validatePackage: typeof SyncTransaction.validatePackage;
  readonly compareBundled: typeof SyncTransaction.compareBundled;
  readonly syncFailureReason: typeof Sync.syncFailureReason;
}

/** Loads the transaction library on the first comparison or upgrade, so the executor's start does not load it. */
async function loadMachinery(): Promise<Machinery> {
  const [{ validatePackage, compareBundled, readManifest, recordOf }, { createNodePorts, directoryPackageSource }, { syncFailureReason }] = await Promise.all([
    import('@wework/sync-transaction'),
    import('@wework/sync-transaction/node'),
    import('./PluginSync.js'),
  ]);
  return { fs: createNodePorts().fs, directoryPackageSource: (directory) => directoryPackageSource(directory), validatePackage, compareBundled, readManifest, recordOf, syncFailureReason };
}
