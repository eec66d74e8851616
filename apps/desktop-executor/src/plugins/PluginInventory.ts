/**
 * The one installed inventory of this device (`plugins/installed`), assembled by
 * `@wework/plugin-inventory`'s `assembleInventory` from what Codex lists (`plugin/installed`), what
 * config.toml configures (`config/read`), the Wegent cloud plugins the sync recorded, failed cloud
 * updates and the install receipts. Details (skills and apps, from `plugin/read`) stay in memory; a read
 * that finds anything new saves a durable snapshot of presentation and recovery fields, all or nothing, under
 * the executor home (a read finding the same leaves the file alone), answered while the app-server is
 * not running. Receipts are kept in the same
 * directory, so a restart does not lose the bridge of an accepted installation.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Clock, FileSystemError, FileSystemPort, Log } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import type { InstalledInventory, InstalledPlugin, InventorySkill, InventoryApp } from '@wework/host-protocol';
import {
  assembleInventory,
  decodeReceipts,
  decodeSnapshot,
  dropReceipt,
  encodeReceipts,
  encodeSnapshot,
  originOf,
  parsePluginKey,
  pluginKey,
  pruneReceipts,
  recordReceipt,
  samePlugin,
  saveStateFile,
  snapshotInventory,
  type ConfiguredPlugin,
  type FailedUpdate,
  type InstallReceipt,
  type InventoryItem,
  type ListedPlugin,
  type PluginRef,
  type PluginRepair,
} from '@wework/plugin-inventory';
import { readUntrustedJson } from './UntrustedJson.js';

/** Where Codex keeps a listed plugin: the marketplace file (local) or none (remote catalog). */
export interface ListedLocation {
  readonly ref: PluginRef;
  readonly marketplacePath: string | null;
}

/** A plugin's details as `plugin/read` answers them (kept in memory only). */
export interface PluginDetails {
  readonly skills: ReadonlyArray<{ readonly name: string; readonly path: string | null; readonly enabled: boolean }>;
  readonly apps: ReadonlyArray<{ readonly id: string; readonly name: string }>;
}

/** What the inventory asks of Codex; every answer may fail with a sentence. */
export interface InventoryCodex {
  /** `plugin/installed`: the installed plugins and where they come from. */
  installed(): Promise<E.Either<string, ReadonlyArray<ListedPlugin & ListedLocation>>>;
  /** `config/read`: the `[plugins]` entries and the app switches (`[apps.<id>] enabled`). */
  config(): Promise<E.Either<string, { readonly plugins: ReadonlyArray<ConfiguredPlugin>; readonly apps: Readonly<Record<string, boolean>> }>>;
  /** `plugin/read` of one listed plugin. */
  read(location: ListedLocation): Promise<E.Either<string, PluginDetails>>;
}

/** One inventory plugin with what the executor needs to act on it. */
export interface InventoryEntry {
  readonly item: InventoryItem;
  readonly marketplacePath: string | null;
  readonly view: InstalledPlugin;
}

/** The inventory could not be read from Codex (the snapshot may still answer). */
export interface InventoryUnreadable {
  readonly _tag: 'InventoryUnreadable';
  readonly reason: string;
}

/** The inventory service. */
export interface PluginInventory {
  readonly deviceId: string;
  /** Reads the inventory from Codex now (and saves the snapshot). */
  read(): Promise<E.Either<InventoryUnreadable, ReadonlyArray<InventoryEntry>>>;
  /** The host's view: a fresh read, or the durable snapshot when Codex cannot answer. */
  view(): Promise<E.Either<InventoryUnreadable, InstalledInventory>>;
  /** Codex accepted the installation of `ref` now. */
  accepted(ref: PluginRef): Promise<void>;
  /** `ref` was uninstalled: its receipt and failure are forgotten. */
  forget(ref: PluginRef): Promise<void>;
  /** An update of `ref` (a bundled upgrade) is running: it shows `updating` until it fails or succeeds. */
  updateStarted(ref: PluginRef): void;
  /** A cloud update of `ref` failed (`reason`: a typed error's tag). */
  updateFailed(ref: PluginRef, reason: string): void;
  /** A cloud update of `ref` succeeded. */
  updateSucceeded(ref: PluginRef): void;
}

/** What the inventory needs. */
export interface PluginInventoryOptions {
  readonly codex: InventoryCodex;
  /** The directory of the snapshot and the receipts (`<executor home>/plugin-inventory`). */
  readonly directory: string;
  /** The Wegent cloud plugins the sync recorded as installed. */
  readonly cloudPlugins: () => Promise<ReadonlyArray<PluginRef>>;
  /** The plugins start-up recovery left to repair (default none). */
  readonly repairs?: () => ReadonlyArray<PluginRepair>;
  readonly clock: Clock;
  readonly deviceId: string;
  readonly log: Log;
  /** Where the snapshot and the receipts are written; default the Node port (durable). */
  readonly fs?: FileSystemPort;
}

const durableFiles: FileSystemPort = nodeFileSystem();


const SNAPSHOT_FILE = 'snapshot.json';
const RECEIPTS_FILE = 'receipts.json';

/** Writes `value` as JSON to `path`, all or nothing (`saveStateFile`: a failed write leaves the old file and nothing new). */
const writeJsonFile = (fs: FileSystemPort, path: string, value: unknown): Promise<E.Either<FileSystemError, void>> =>
  saveStateFile(fs, path, new TextEncoder().encode(`${JSON.stringify(value)}\n`))();

/** The most bytes of a stored snapshot or receipts file that are read (a larger one reads as absent and is rebuilt). */
const MAX_STATE_FILE_BYTES = 8 * 1024 * 1024;

/** Reads a JSON file (untrusted, bounded); `undefined` when it is missing, unreadable or not JSON. */
async function readJson(path: string): Promise<unknown> {
  const read = await readUntrustedJson(path, MAX_STATE_FILE_BYTES);
  return E.isLeft(read) ? undefined : read.right;
}

/** Whether two encoded snapshots are equal but for their `savedAt`. */
const sameApartFromTime = (stored: unknown, next: unknown): boolean =>
  typeof stored === 'object' && stored !== null && JSON.stringify({ ...stored, savedAt: 0 }) === JSON.stringify({ ...(next as object), savedAt: 0 });

const viewOf = (item: InventoryItem, details: PluginDetails | null, apps: Readonly<Record<string, boolean>>): InstalledPlugin => {
  const face = item.listed?.presentation ?? null;
  const skills: InventorySkill[] = (details?.skills ?? []).map((skill) => ({ name: skill.name, path: skill.path, enabled: skill.enabled }));
  const appViews: InventoryApp[] = (details?.apps ?? []).map((app) => ({ id: app.id, name: app.name, enabled: apps[app.id] ?? true }));
  return {
    pluginId: pluginKey(item.ref),
    name: item.ref.name,
    marketplace: item.ref.marketplace,
    source: item.origin,
    enabled: item.enabled,
    status: item.status,
    version: item.listed?.version ?? null,
    displayName: face?.displayName ?? null,
    shortDescription: face?.shortDescription ?? null,
    defaultPrompt: face?.defaultPrompt == null ? null : [...face.defaultPrompt],
    skills,
    apps: appViews,
  };
};

/** The inventory of this device over `options.codex`. */
export function pluginInventory(options: PluginInventoryOptions): PluginInventory {
  const { codex, directory, clock, log } = options;
  const fs = options.fs ?? durableFiles;
  const snapshotPath = join(directory, SNAPSHOT_FILE);
  const receiptsPath = join(directory, RECEIPTS_FILE);
  let receipts: Promise<ReadonlyArray<InstallReceipt>> = readJson(receiptsPath).then(decodeReceipts);
  let failures: ReadonlyArray<FailedUpdate> = [];
  let updating: ReadonlyArray<PluginRef> = [];
  const without = (list: ReadonlyArray<PluginRef>, ref: PluginRef): ReadonlyArray<PluginRef> => list.filter((entry) => !samePlugin(entry, ref));

  const updateReceipts = async (change: (current: ReadonlyArray<InstallReceipt>) => ReadonlyArray<InstallReceipt>): Promise<void> => {
    const next = receipts.then(change);
    receipts = next;
    const saved = await writeJsonFile(fs, receiptsPath, encodeReceipts(await next));
    if (E.isLeft(saved)) log({ event: 'plugin receipts not saved', fields: { error: saved.left.code } });
  };

  const read: PluginInventory['read'] = async () => {
    const [installed, config] = await Promise.all([codex.installed(), codex.config()]);
    if (E.isLeft(installed)) return E.left({ _tag: 'InventoryUnreadable', reason: installed.left });
    if (E.isLeft(config)) return E.left({ _tag: 'InventoryUnreadable', reason: config.left });
    const now = clock.now();
    const held = await receipts;
    const listed = installed.right;
    const assembled = assembleInventory(
      { listed, configured: config.right.plugins, cloud: await options.cloudPlugins(), failedUpdates: failures, updating, receipts: held, repairs: options.repairs?.() ?? [] },
      now,
    );
    // Receipts Codex confirmed, and expired or legacy ones, are dropped.
    const kept = pruneReceipts(held, listed.map((plugin) => ({ ref: plugin.ref, installed: true })), now);
    if (kept.length !== held.length) await updateReceipts(() => kept);
    const entries: InventoryEntry[] = [];
    for (const item of assembled.plugins) {
      const location = listed.find((plugin) => samePlugin(plugin.ref, item.ref)) ?? null;
      let details: PluginDetails | null = null;
      if (location !== null) {
        const answered = await codex.read(location);
        if (E.isRight(answered)) details = answered.right;
        else log({ event: 'plugin details unreadable', fields: { plugin: pluginKey(item.ref), reasonBytes: Buffer.byteLength(answered.left) } });
      }
      entries.push({ item, marketplacePath: location?.marketplacePath ?? null, view: viewOf(item, details, config.right.apps) });
    }
    const snapshot = snapshotInventory(
      assembled.plugins.map((item) => ({
        ref: item.ref,
        installed: item.status.kind !== 'repairRequired',
        enabled: item.enabled,
        version: item.listed?.version ?? null,
        description: item.listed?.description ?? null,
        interface: item.listed?.presentation ?? null,
      })),
      now,
    );
    try {
      // Written only when it would say something new: a read (also one for a request that is then refused)
      // leaves the file as it is when nothing but the time changed.
      const encoded = encodeSnapshot(snapshot);
      const saved = sameApartFromTime(await readJson(snapshotPath), encoded) ? E.right(undefined) : await writeJsonFile(fs, snapshotPath, encoded);
      if (E.isLeft(saved)) log({ event: 'plugin inventory snapshot not saved', fields: { error: saved.left.code } });
    } catch (error) {
      log({ event: 'plugin inventory snapshot not saved', fields: { error: error instanceof Error ? error.name : typeof error } });
    }
    log({ event: 'plugin inventory read', fields: { plugins: entries.length } });
    return E.right(entries);
  };

  const fromSnapshot = async (): Promise<E.Either<InventoryUnreadable, InstalledInventory>> => {
    const stored = decodeSnapshot(await readJson(snapshotPath));
    if (E.isLeft(stored)) return E.left({ _tag: 'InventoryUnreadable', reason: 'Codex is not running and no inventory snapshot is readable' });
    const plugins: InstalledPlugin[] = stored.right.snapshot.plugins.map((plugin) => ({
      pluginId: pluginKey(plugin.ref),
      name: plugin.ref.name,
      marketplace: plugin.ref.marketplace,
      source: originOf(plugin.ref, []),
      enabled: plugin.enabled,
      status: plugin.installed ? { kind: 'ok' } : { kind: 'repairRequired', reason: 'MarketplaceUnavailable' },
      version: plugin.version,
      displayName: plugin.displayName,
      shortDescription: plugin.shortDescription,
      defaultPrompt: plugin.defaultPrompt,
      skills: [],
      apps: [],
    }));
    return E.right({ deviceId: options.deviceId, plugins, fromSnapshot: true, savedAt: stored.right.snapshot.savedAt });
  };

  return {
    deviceId: options.deviceId,
    read,
    view: async () => {
      const fresh = await read();
      if (E.isRight(fresh)) return E.right({ deviceId: options.deviceId, plugins: fresh.right.map((entry) => entry.view), fromSnapshot: false, savedAt: null });
      const stored = await fromSnapshot();
      return E.isRight(stored) ? stored : fresh;
    },
    accepted: (ref) => updateReceipts((current) => recordReceipt(current, { ref, acceptedAt: clock.now() }, clock.now())),
    forget: async (ref) => {
      failures = failures.filter((failed) => !samePlugin(failed.ref, ref));
      updating = without(updating, ref);
      await updateReceipts((current) => dropReceipt(current, ref));
    },
    updateStarted: (ref) => {
      updating = [...without(updating, ref), ref];
    },
    updateFailed: (ref, reason) => {
      updating = without(updating, ref);
      failures = [...failures.filter((failed) => !samePlugin(failed.ref, ref)), { ref, reason }];
    },
    updateSucceeded: (ref) => {
      updating = without(updating, ref);
      failures = failures.filter((failed) => !samePlugin(failed.ref, ref));
    },
  };
}

const ConfiguredPlugins = t.record(t.string, t.unknown);
const Enabled = t.type({ enabled: t.boolean });

/** The `[plugins]` table of a `config/read` answer (untrusted): entries whose key is a plugin identity. */
export const configuredPluginsOf = (plugins: unknown): ReadonlyArray<ConfiguredPlugin> => {
  const decoded = ConfiguredPlugins.decode(plugins);
  if (E.isLeft(decoded)) return [];
  const out: ConfiguredPlugin[] = [];
  for (const [key, value] of Object.entries(decoded.right)) {
    const ref = parsePluginKey(key);
    if (E.isLeft(ref)) continue;
    out.push({ ref: ref.right, enabled: Enabled.is(value) ? value.enabled : true });
  }
  return out;
};

/** The app switches of a `config/read` answer's `[apps]` table (untrusted): `id → enabled`. */
export const appSwitchesOf = (apps: unknown): Readonly<Record<string, boolean>> => {
  const decoded = ConfiguredPlugins.decode(apps);
  if (E.isLeft(decoded)) return {};
  return Object.fromEntries(Object.entries(decoded.right).flatMap(([id, value]) => (id !== '_default' && Enabled.is(value) ? [[id, value.enabled]] : [])));
};
