/**
 * The capability manifest: which plugins this library installed, which cache directories it owns,
 * and explicit-uninstall tombstones.
 *
 * Pure: a codec for the file (untrusted input) and functions over its value. Fields this library
 * does not know are kept as they are.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { pluginKey, type PluginRef } from '@wework/plugin-inventory';
import type { HomeName } from './Layout.js';

/** A cache directory this library created, relative to its home. */
export const OwnedCache = t.type({ home: t.union([t.literal('codex'), t.literal('claude')]), path: t.string });
/** A cache directory this library created, relative to its home. */
export type OwnedCache = t.TypeOf<typeof OwnedCache>;

/** What the manifest records about one plugin. */
export const ManifestRecord = t.type({
  /** `uninstalled` is a tombstone: an explicit uninstall that retained caches never undo. */
  status: t.union([t.literal('installed'), t.literal('uninstalled')]),
  version: t.union([t.string, t.null]),
  /** Digest of the installed package tree (see `packageDigest`). */
  digest: t.union([t.string, t.null]),
  /** Cache directories this library owns for the plugin: current and retained. */
  caches: t.array(OwnedCache),
  /** ISO time of the last change. */
  updatedAt: t.string,
});
/** What the manifest records about one plugin. */
export type ManifestRecord = t.TypeOf<typeof ManifestRecord>;

/** The manifest file. */
export const Manifest = t.type({ version: t.literal(1), plugins: t.record(t.string, ManifestRecord) });
/** The manifest file. */
export type Manifest = t.TypeOf<typeof Manifest>;

/** The manifest when there is no file yet. */
export const emptyManifest: Manifest = { version: 1, plugins: {} };

/** The manifest file is not valid. */
export interface ManifestParseFailed {
  readonly _tag: 'ParseFailed';
  readonly file: 'manifest.json';
  readonly detail: string;
}

/** Decodes manifest text (`null`: no file yet). */
export const decodeManifest = (text: string | null): E.Either<ManifestParseFailed, Manifest> => {
  if (text === null) return E.right(emptyManifest);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return E.left({ _tag: 'ParseFailed', file: 'manifest.json', detail: error instanceof Error ? error.message : 'invalid JSON' });
  }
  const decoded = Manifest.decode(value);
  return E.isLeft(decoded) ? E.left({ _tag: 'ParseFailed', file: 'manifest.json', detail: 'not a version 1 manifest' }) : E.right(decoded.right);
};

/** The record of a plugin, if any. */
export const recordOf = (manifest: Manifest, plugin: PluginRef): ManifestRecord | undefined => manifest.plugins[pluginKey(plugin)];

/** Whether the manifest holds an explicit-uninstall tombstone for the plugin. */
export const isUninstalled = (manifest: Manifest, plugin: PluginRef): boolean => recordOf(manifest, plugin)?.status === 'uninstalled';

/** Whether the manifest records the cache directory as owned by the plugin. */
export const ownsCache = (manifest: Manifest, plugin: PluginRef, home: HomeName, path: string): boolean =>
  recordOf(manifest, plugin)?.caches.some((cache) => cache.home === home && cache.path === path) ?? false;

/** The manifest with the plugin's record replaced. */
export const withRecord = (manifest: Manifest, plugin: PluginRef, record: ManifestRecord): Manifest => ({
  ...manifest,
  plugins: { ...manifest.plugins, [pluginKey(plugin)]: record },
});
