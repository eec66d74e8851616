/**
 * The management of installed plugins through Codex: installing from a local or the official
 * marketplace (`plugin/install` with an install attempt id, after install-time authorization), uninstalling
 * by identity (cloud plugins through the sync, the Wework personal marketplace by removing its local copy,
 * everything else through `plugin/uninstall`), and the switches of the management view (a plugin, a
 * skill, an app, the remote Apps / Connectors switch). Each switch applies through
 * `@wework/plugin-inventory`'s `decideManagementChange`: a skill switch reloads the user config in
 * place, anything else restarts the app-server (the invalidation policy of plugin changes). Every
 * mutation ends with `changed`, which the executor sends to its hosts as `inventory/changed`.
 */
import { randomUUID } from 'node:crypto';
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { ConfigBatchWrite, ConfigRead, PluginInstall, PluginList, PluginUninstall, SkillsConfigWrite } from '@wework/codex-protocol';
import type { AppServerClient } from '@wework/app-server-client';
import { REMOTE_APPS_DEFAULT, remoteAppsEdit } from '@wework/codex-home';
import { formatKeyPath } from '@wework/config-toml';
import type { InventoryChange, PluginSummary } from '@wework/host-protocol';
import {
  afterReload,
  decideManagementChange,
  findUninstallTarget,
  marketplaceForVisibility,
  OFFICIAL_MARKETPLACE,
  parsePluginKey,
  pluginKey,
  pluginRef,
  samePlugin,
  type ManagementChange,
  type PluginRef,
} from '@wework/plugin-inventory';
import type { PluginService } from '../host/PluginService.js';
import type { Log } from '@wework/ports';
import type { ManagementFault } from '@wework/host-errors';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { authorizeBeforeCommit, type InstallAuthorizationOptions } from './installAuthorization.js';
import type { InventoryEntry, PluginInventory } from './PluginInventory.js';


/** What the management needs. */
export interface PluginManagementOptions {
  readonly runtime: RuntimeSupervisor;
  readonly inventory: PluginInventory;
  /** The Wegent cloud plugin service (removal of cloud plugins). */
  readonly cloud: PluginService;
  /** The Wegent cloud plugins recorded as installed. */
  readonly cloudPlugins: () => Promise<ReadonlyArray<PluginRef>>;
  readonly codexHome: string;
  /** Install-time authorization of `on_install` connectors; loaded on first use. */
  readonly authorization: () => Promise<InstallAuthorizationOptions>;
  readonly changed: (change: InventoryChange, pluginId: string | null) => void;
  readonly log: Log;
}

type Answer<A> = Promise<E.Either<ManagementFault, A>>;

/** The management requests. */
export interface PluginManagement {
  install(request: { readonly marketplace: string; readonly plugin: string }): Answer<PluginSummary>;
  uninstall(pluginId: string): Answer<void>;
  setPluginEnabled(pluginId: string, enabled: boolean): Answer<void>;
  setSkillEnabled(selector: { readonly path: string } | { readonly name: string }, enabled: boolean): Answer<{ readonly effectiveEnabled: boolean }>;
  setAppEnabled(id: string, enabled: boolean): Answer<void>;
  readRemoteApps(): Answer<boolean>;
  writeRemoteApps(enabled: boolean): Answer<boolean>;
}

/** The management over the supervised app-server. */
export function pluginManagement(options: PluginManagementOptions): PluginManagement {
  const { runtime, inventory, log } = options;
  const client = (): E.Either<ManagementFault, AppServerClient> => {
    const running = runtime.ready();
    return E.isLeft(running) ? E.left({ _tag: 'Runtime', error: running.left }) : E.right(running.right.server.client);
  };
  const entries = async (): Answer<ReadonlyArray<InventoryEntry>> => {
    const read = await inventory.read();
    return E.isLeft(read) ? E.left({ _tag: 'InventoryUnreadable', reason: read.left.reason }) : E.right(read.right);
  };
  const findEntry = async (pluginId: string): Answer<InventoryEntry> => {
    const ref = parsePluginKey(pluginId);
    if (E.isLeft(ref)) return E.left({ _tag: 'PluginNotFound', pluginId });
    const all = await entries();
    if (E.isLeft(all)) return all;
    const found = findUninstallTarget(
      all.right.map((entry) => ({ ref: entry.item.ref, entry })),
      ref.right,
    );
    return E.isLeft(found) ? E.left({ _tag: 'PluginNotFound', pluginId }) : E.right(found.right.entry);
  };
  const reloadInPlace = async (codex: AppServerClient): Promise<E.Either<ManagementFault, void>> => {
    const reloaded = await codex.request(ConfigBatchWrite, { edits: [], reloadUserConfig: true });
    return E.isLeft(reloaded) ? E.left({ _tag: 'CodexFailed', method: ConfigBatchWrite.method, kind: reloaded.left._tag }) : E.right(undefined);
  };
  /** Applies a switch that is already written: reload in place or restart, as the decision says. */
  const apply = async (change: ManagementChange, codex: AppServerClient): Promise<E.Either<ManagementFault, void>> => {
    const decision = decideManagementChange(change);
    let reason = decision._tag === 'Invalidate' ? decision.reason : null;
    if (decision._tag === 'Reload') {
      const reloaded = await reloadInPlace(codex);
      const next = afterReload(E.isRight(reloaded) ? 'Succeeded' : 'Failed');
      if (next._tag === 'KeepProcess') {
        log({ event: 'plugin switch reloaded in place', fields: { change: change._tag } });
        return E.right(undefined);
      }
      reason = next.reason;
    }
    const restarted = await runtime.restart();
    if (E.isLeft(restarted)) return E.left({ _tag: 'Runtime', error: restarted.left });
    log({ event: 'plugin switch applied by restart', fields: { change: change._tag, reason } });
    return E.right(undefined);
  };
  const write = async (codex: AppServerClient, keyPath: ReadonlyArray<string>, value: unknown): Promise<E.Either<ManagementFault, void>> => {
    const written = await codex.request(ConfigBatchWrite, { edits: [{ keyPath: formatKeyPath(keyPath), value: value as never, mergeStrategy: 'upsert' }], reloadUserConfig: true });
    return E.isLeft(written) ? E.left({ _tag: 'CodexFailed', method: ConfigBatchWrite.method, kind: written.left._tag }) : E.right(undefined);
  };

  /** Removes a Wework personal marketplace plugin's config entry and cache by identity (no marketplace manifest needed). */
  const removePersonal = async (codex: AppServerClient, ref: PluginRef): Promise<E.Either<ManagementFault, void>> => {
    const marketplaceCache = join(options.codexHome, 'plugins', 'cache', ref.marketplace);
    const stats = await lstat(marketplaceCache).catch(() => null);
    if (stats !== null && !stats.isDirectory()) return E.left({ _tag: 'CodexFailed', method: 'personal uninstall', kind: 'LinkInHome' });
    const removed = await codex.request(ConfigBatchWrite, { edits: [{ keyPath: formatKeyPath(['plugins', pluginKey(ref)]), value: null, mergeStrategy: 'replace' }], reloadUserConfig: true });
    if (E.isLeft(removed)) return E.left({ _tag: 'CodexFailed', method: ConfigBatchWrite.method, kind: removed.left._tag });
    if (stats !== null) await rm(join(marketplaceCache, ref.name), { recursive: true, force: true });
    return reloadInPlace(codex);
  };

  // One mutation at a time: an install, uninstall or switch reads the inventory, writes and applies as one step.
  let tail: Promise<unknown> = Promise.resolve();
  const serial =
    <P extends unknown[], A>(run: (...params: P) => Promise<A>) =>
    (...params: P): Promise<A> => {
      const next = tail.then(() => run(...params));
      tail = next.catch(() => undefined);
      return next;
    };

  return {
    install: serial(async ({ marketplace, plugin }: { readonly marketplace: string; readonly plugin: string }): Answer<PluginSummary> => {
      const codex = client();
      if (E.isLeft(codex)) return codex;
      const ref = pluginRef(plugin, marketplace);
      if (E.isLeft(ref)) return E.left({ _tag: 'PluginNotFound', pluginId: `${plugin}@${marketplace}` });
      const listed = await codex.right.request(PluginList, { marketplaceKinds: ['local'] });
      if (E.isLeft(listed)) return E.left({ _tag: 'CodexFailed', method: PluginList.method, kind: listed.left._tag });
      const entry = listed.right.marketplaces.find((candidate) => candidate.name === marketplace);
      let target: { readonly marketplacePath: string } | { readonly remoteMarketplaceName: string };
      if (entry === undefined) {
        if (marketplace !== OFFICIAL_MARKETPLACE) return E.left({ _tag: 'MarketplaceNotFound', marketplace });
        target = { remoteMarketplaceName: marketplace };
      } else {
        const summary = entry.plugins.find((candidate) => candidate.name === plugin);
        if (summary === undefined || entry.path === null) return E.left({ _tag: 'PluginNotFound', pluginId: pluginKey(ref.right) });
        // `on_install` connectors log in from the plugin's own directory before Codex writes anything.
        if (summary.source.type === 'local') {
          const authorized = await authorizeBeforeCommit(options.authorization, pluginKey(ref.right))([summary.source.path]);
          if (E.isLeft(authorized)) return E.left({ _tag: 'InstallRefused', message: `the installation was refused before anything was written: ${authorized.left}` });
        }
        target = { marketplacePath: entry.path };
      }
      const installAttemptId = randomUUID();
      const installed = await codex.right.request(PluginInstall, { ...target, pluginName: plugin, installAttemptId });
      if (E.isLeft(installed)) {
        log({ event: 'marketplace install failed', fields: { plugin: pluginKey(ref.right), error: installed.left._tag } });
        return E.left(installed.left._tag === 'RequestFailed' ? { _tag: 'InstallRefused', message: 'Codex refused the installation' } : { _tag: 'CodexFailed', method: PluginInstall.method, kind: installed.left._tag });
      }
      await inventory.accepted(ref.right);
      log({ event: 'marketplace install accepted', fields: { plugin: pluginKey(ref.right), authPolicy: installed.right.authPolicy, appsNeedingAuth: installed.right.appsNeedingAuth.length } });
      options.changed('installed', pluginKey(ref.right));
      return E.right({ pluginId: pluginKey(ref.right), name: plugin, marketplace, installed: true, enabled: true, description: null });
    }),

    uninstall: serial(async (pluginId: string): Answer<void> => {
      const found = await findEntry(pluginId);
      if (E.isLeft(found)) return found;
      const ref = found.right.item.ref;
      const cloud = await options.cloudPlugins();
      if (cloud.some((entry) => samePlugin(entry, ref))) {
        const removed = await options.cloud.uninstall({ pluginId: pluginKey(ref) });
        if (E.isLeft(removed)) return E.left({ _tag: 'CloudFailed', tag: removed.left._tag, message: 'the cloud plugin could not be removed' });
      } else {
        const codex = client();
        if (E.isLeft(codex)) return codex;
        if (ref.marketplace === marketplaceForVisibility('personal')) {
          const removed = await removePersonal(codex.right, ref);
          if (E.isLeft(removed)) return removed;
        } else {
          const removed = await codex.right.request(PluginUninstall, { pluginId: pluginKey(ref) });
          if (E.isLeft(removed)) return E.left({ _tag: 'CodexFailed', method: PluginUninstall.method, kind: removed.left._tag });
        }
      }
      await inventory.forget(ref);
      log({ event: 'plugin uninstalled', fields: { plugin: pluginKey(ref), origin: found.right.item.origin } });
      options.changed('uninstalled', pluginKey(ref));
      return E.right(undefined);
    }),

    setPluginEnabled: serial(async (pluginId: string, enabled: boolean): Answer<void> => {
      const found = await findEntry(pluginId);
      if (E.isLeft(found)) return found;
      const codex = client();
      if (E.isLeft(codex)) return codex;
      const ref = found.right.item.ref;
      const written = await write(codex.right, ['plugins', pluginKey(ref), 'enabled'], enabled);
      if (E.isLeft(written)) return written;
      const applied = await apply({ _tag: 'PluginToggled', plugin: ref, enabled }, codex.right);
      if (E.isLeft(applied)) return applied;
      options.changed('pluginEnabled', pluginKey(ref));
      return E.right(undefined);
    }),

    setSkillEnabled: serial(async (selector: { readonly path: string } | { readonly name: string }, enabled: boolean): Answer<{ readonly effectiveEnabled: boolean }> => {
      const all = await entries();
      if (E.isLeft(all)) return all;
      const owners = all.right.filter((entry) => entry.view.skills.some((skill) => ('path' in selector ? skill.path === selector.path : skill.name === selector.name)));
      if (owners.length === 0) return E.left({ _tag: 'SkillNotFound' });
      const codex = client();
      if (E.isLeft(codex)) return codex;
      const written = await codex.right.request(SkillsConfigWrite, { ...selector, enabled });
      if (E.isLeft(written)) return E.left({ _tag: 'CodexFailed', method: SkillsConfigWrite.method, kind: written.left._tag });
      const skill = 'path' in selector ? (owners[0]?.view.skills.find((candidate) => candidate.path === selector.path)?.name ?? '') : selector.name;
      const applied = await apply({ _tag: 'SkillToggled', skill, enabled }, codex.right);
      if (E.isLeft(applied)) return applied;
      options.changed('skillEnabled', owners.length === 1 ? (owners[0]?.view.pluginId ?? null) : null);
      return E.right({ effectiveEnabled: written.right.effectiveEnabled });
    }),

    setAppEnabled: serial(async (id: string, enabled: boolean): Answer<void> => {
      const all = await entries();
      if (E.isLeft(all)) return all;
      const owner = all.right.find((entry) => entry.view.apps.some((app) => app.id === id));
      if (owner === undefined) return E.left({ _tag: 'AppNotFound' });
      const codex = client();
      if (E.isLeft(codex)) return codex;
      const written = await write(codex.right, ['apps', id, 'enabled'], enabled);
      if (E.isLeft(written)) return written;
      const applied = await apply({ _tag: 'AppToggled', app: id, enabled }, codex.right);
      if (E.isLeft(applied)) return applied;
      options.changed('appEnabled', owner.view.pluginId);
      return E.right(undefined);
    }),

    readRemoteApps: async () => {
      const codex = client();
      if (E.isLeft(codex)) return codex;
      const read = await codex.right.request(ConfigRead, {});
      if (E.isLeft(read)) return E.left({ _tag: 'CodexFailed', method: ConfigRead.method, kind: read.left._tag });
      const features = (read.right.config as Readonly<Record<string, unknown>>)['features'];
      const apps = typeof features === 'object' && features !== null ? (features as Readonly<Record<string, unknown>>)['apps'] : undefined;
      return E.right(typeof apps === 'boolean' ? apps : REMOTE_APPS_DEFAULT);
    },

    writeRemoteApps: serial(async (enabled: boolean): Answer<boolean> => {
      const codex = client();
      if (E.isLeft(codex)) return codex;
      const written = await codex.right.request(ConfigBatchWrite, { edits: [remoteAppsEdit(enabled)], reloadUserConfig: true });
      if (E.isLeft(written)) return E.left({ _tag: 'CodexFailed', method: ConfigBatchWrite.method, kind: written.left._tag });
      const applied = await apply({ _tag: 'RemoteAppsToggled', enabled }, codex.right);
      if (E.isLeft(applied)) return applied;
      options.changed('remoteApps', null);
      return E.right(enabled);
    }),
  };
}
