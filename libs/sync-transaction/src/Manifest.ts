/**
 * The capability manifest (version 2): which plugins this library installed, which cache directories
 * it owns, explicit-uninstall tombstones, and what start-up recovery of the managed directories needs
 * — the homes a plugin was installed for (a hint only), the verified package record, the last written
 * enablement, and the associations other parts of the executor keep with an installation (cloud
 * installation id, authorization connectors, component settings).
 *
 * Pure: a codec for the file (untrusted input), the migration of version 1 files (what earlier
 * executors wrote) and functions over the value. Fields this library does not know — at the top and
 * in each record — are kept as they are, also across a change of the record.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { pluginKey, type PluginRef } from '@wework/plugin-inventory';
import type { HomeName } from './Layout.js';

/** A cache directory this library created, relative to its home. */
export const OwnedCache = t.type({ home: t.union([t.literal('codex'), t.literal('claude')]), path: t.string });
/** A cache directory this library created, relative to its home. */
export type OwnedCache = t.TypeOf<typeof OwnedCache>;

/**
 * The homes a plugin was installed for (absolute paths at the time). A hint: a record whose homes are
 * not the current ones was moved with them and is rebuilt from its verified package; these paths never
 * authorize reading, claiming or removing anything.
 */
export const InstalledFor = t.type({ codexHome: t.string, claudeHome: t.union([t.string, t.null]) });
/** The homes a plugin was installed for (a hint). */
export type InstalledFor = t.TypeOf<typeof InstalledFor>;

/**
 * The verified package an installation was published from, retained in the package store: its
 * version, its package digest (`packageDigest`) and its directory relative to the package store.
 */
export const PackageRecord = t.type({ version: t.string, digest: t.string, path: t.string });
/** The verified package record of an installation. */
export type PackageRecord = t.TypeOf<typeof PackageRecord>;

/** The enablement this library last wrote per home (`null`: not written there). */
export const RecordedEnablement = t.partial({ codex: t.union([t.boolean, t.null]), claude: t.union([t.boolean, t.null]) });
/** The enablement this library last wrote per home. */
export type RecordedEnablement = t.TypeOf<typeof RecordedEnablement>;

const RecordRequired = t.type({
  /** `uninstalled` is a tombstone: an explicit uninstall that retained caches never undo. */
  status: t.union([t.literal('installed'), t.literal('uninstalled')]),
  version: t.union([t.string, t.null]),
  /** Digest of the installed package tree (see `packageDigest`). */
  digest: t.union([t.string, t.null]),
  /** Cache directories this library owns for the plugin: current (those of `version`) and retained. */
  caches: t.array(OwnedCache),
  /** ISO time of the last change. */
  updatedAt: t.string,
});

const RecordOptional = t.partial({
  /** The homes of the last publication (a hint, see {@link InstalledFor}); absent in version 1 records. */
  installedFor: t.union([InstalledFor, t.null]),
  /** The verified package retained for recovery; absent when none was retained. */
  package: t.union([PackageRecord, t.null]),
  /** What this library last wrote as the plugin's enablement. */
  enabled: RecordedEnablement,
  /** The cloud installation id(s) of this installation, kept through updates and recovery. */
  cloudInstallationId: t.union([t.string, t.null]),
  /** Connector slugs whose device authorization belongs to this installation. */
  authorizations: t.array(t.string),
  /** Component settings (skills, apps) the host associates with the installation; opaque here. */
  components: t.UnknownRecord,
});

/** What the manifest records about one plugin. */
export const ManifestRecord = t.intersection([RecordRequired, RecordOptional]);
/** What the manifest records about one plugin. */
export type ManifestRecord = t.TypeOf<typeof ManifestRecord>;

/** The current manifest file (version 2). */
export const Manifest = t.type({ version: t.literal(2), plugins: t.record(t.string, ManifestRecord) });
/** The current manifest file (version 2). */
export type Manifest = t.TypeOf<typeof Manifest>;

/** The version 1 manifest (written by earlier versions of this library): records without the recovery fields. */
export const ManifestV1 = t.type({ version: t.literal(1), plugins: t.record(t.string, RecordRequired) });
/** The version 1 manifest. */
export type ManifestV1 = t.TypeOf<typeof ManifestV1>;

/** The current manifest version. */
export const MANIFEST_VERSION = 2;

/** The manifest when there is no file yet. */
export const emptyManifest: Manifest = { version: 2, plugins: {} };

/** The manifest file is not valid. */
export interface ManifestParseFailed {
  readonly _tag: 'ParseFailed';
  readonly file: 'manifest.json';
  readonly detail: string;
}

/**
 * Migrates a version 1 manifest to version 2: every record and every unknown field is kept; the new
 * fields stay absent (a record without `installedFor` counts as installed for unknown homes, so
 * start-up recovery checks it like a moved one). Idempotent on its output's shape.
 * @example
 * ```ts
 * migrateManifest({ version: 1, plugins: {} }); // { version: 2, plugins: {} }
 * ```
 */
export const migrateManifest = (v1: ManifestV1): Manifest => ({ ...v1, version: 2 });

/** Decodes a manifest value: version 2 as it is, version 1 migrated; anything else is refused. */
export const decodeManifestValue = (value: unknown): E.Either<ManifestParseFailed, Manifest> => {
  const current = Manifest.decode(value);
  if (E.isRight(current)) return E.right(current.right);
  const v1 = ManifestV1.decode(value);
  if (E.isRight(v1)) return E.right(migrateManifest(v1.right));
  return E.left({ _tag: 'ParseFailed', file: 'manifest.json', detail: 'not a version 1 or 2 manifest' });
};

/** Decodes manifest text (`null`: no file yet); a version 1 file is migrated. */
export const decodeManifest = (text: string | null): E.Either<ManifestParseFailed, Manifest> => {
  if (text === null) return E.right(emptyManifest);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return E.left({ _tag: 'ParseFailed', file: 'manifest.json', detail: error instanceof Error ? error.message : 'invalid JSON' });
  }
  return decodeManifestValue(value);
};

/** The manifest as its file holds it (two-space JSON, final newline). */
export const encodeManifest = (manifest: Manifest): string => `${JSON.stringify(manifest, null, 2)}\n`;

/** The record of a plugin, if any. */
export const recordOf = (manifest: Manifest, plugin: PluginRef): ManifestRecord | undefined => manifest.plugins[pluginKey(plugin)];

/** Whether the manifest holds an explicit-uninstall tombstone for the plugin. */
export const isUninstalled = (manifest: Manifest, plugin: PluginRef): boolean => recordOf(manifest, plugin)?.status === 'uninstalled';

/** Whether the manifest records the cache directory as owned by the plugin. */
export const ownsCache = (manifest: Manifest, plugin: PluginRef, home: HomeName, path: string): boolean =>
  recordOf(manifest, plugin)?.caches.some((cache) => cache.home === home && cache.path === path) ?? false;

/** The manifest with the plugin's record replaced (the record as given, nothing kept). */
export const withRecord = (manifest: Manifest, plugin: PluginRef, record: ManifestRecord): Manifest => ({
  ...manifest,
  version: 2,
  plugins: { ...manifest.plugins, [pluginKey(plugin)]: record },
});

/**
 * The manifest with the plugin's record changed: the fields of `change` replace the old record's, and
 * every other field of the old record (associations, unknown fields) is kept.
 */
export const updateRecord = (manifest: Manifest, plugin: PluginRef, change: ManifestRecord): Manifest => {
  const previous = recordOf(manifest, plugin);
  return withRecord(manifest, plugin, previous === undefined ? change : { ...previous, ...change });
};
