/**
 * The JSON registries a plugin installation touches: Claude's `installed_plugins.json`,
 * `known_marketplaces.json` and `settings.json` (`enabledPlugins`), and the Codex managed marketplace's
 * `marketplace.json`.
 *
 * Every function is pure: the current text (or `null` when the file is absent) in, the new text or a
 * typed error out. Unrelated keys are kept in their order; output is two-space indented JSON with a
 * final newline.
 */
import * as E from 'fp-ts/lib/Either.js';
import { isRecord } from '@wework/decode-issues';

/** A registry file is not a JSON object of the expected shape. */
export interface RegistryParseFailed {
  readonly _tag: 'ParseFailed';
  readonly file: 'installed_plugins.json' | 'known_marketplaces.json' | 'settings.json' | 'marketplace.json';
  readonly detail: string;
}

type Json = Record<string, unknown>;

const parseObject = (file: RegistryParseFailed['file'], text: string | null, empty: () => Json): E.Either<RegistryParseFailed, Json> => {
  if (text === null) return E.right(empty());
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return E.left({ _tag: 'ParseFailed', file, detail: error instanceof Error ? error.message : 'invalid JSON' });
  }
  return isRecord(value) ? E.right(value) : E.left({ _tag: 'ParseFailed', file, detail: 'not a JSON object' });
};

const field = (file: RegistryParseFailed['file'], doc: Json, key: string, fallback: () => Json): E.Either<RegistryParseFailed, Json> => {
  const value = doc[key];
  if (value === undefined) return E.right(fallback());
  return isRecord(value) ? E.right(value) : E.left({ _tag: 'ParseFailed', file, detail: `"${key}" is not an object` });
};

/** Serializes a registry document. */
export const formatJson = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

/** What Claude records about an installed plugin. */
export interface ClaudeInstallation {
  readonly installPath: string;
  readonly version: string;
  /** ISO time of this change; `installedAt` of an existing record is kept. */
  readonly at: string;
}

/**
 * Sets (or with `null` removes) the plugin's record in Claude's `installed_plugins.json` (version 2
 * layout: `plugins[key]` is a list of user-scope installations).
 */
export const editClaudeInstalledPlugins = (text: string | null, key: string, installation: ClaudeInstallation | null): E.Either<RegistryParseFailed, string> => {
  const file = 'installed_plugins.json';
  const doc = parseObject(file, text, () => ({ version: 2, plugins: {} }));
  if (E.isLeft(doc)) return doc;
  const plugins = field(file, doc.right, 'plugins', () => ({}));
  if (E.isLeft(plugins)) return plugins;
  const next = { ...plugins.right };
  if (installation === null) {
    if (!(key in next)) return E.right(text ?? formatJson(doc.right));
    delete next[key];
  } else {
    const previous = Array.isArray(next[key]) ? (next[key] as unknown[]).find(isRecord) : undefined;
    const installedAt = typeof previous?.['installedAt'] === 'string' ? previous['installedAt'] : installation.at;
    next[key] = [{ scope: 'user', installPath: installation.installPath, version: installation.version, installedAt, lastUpdated: installation.at }];
  }
  return E.right(formatJson({ ...doc.right, plugins: next }));
};

/** Registers the marketplace in Claude's `known_marketplaces.json` when it is not known yet. */
export const editClaudeKnownMarketplaces = (text: string | null, marketplace: string, installLocation: string, at: string): E.Either<RegistryParseFailed, string> => {
  const doc = parseObject('known_marketplaces.json', text, () => ({}));
  if (E.isLeft(doc)) return doc;
  if (marketplace in doc.right && text !== null) return E.right(text);
  return E.right(formatJson({ ...doc.right, [marketplace]: { source: { source: 'directory', path: installLocation }, installLocation, lastUpdated: at } }));
};

/** Sets (or with `null` removes) `enabledPlugins[key]` in Claude's `settings.json`. */
export const editClaudeSettings = (text: string | null, key: string, enabled: boolean | null): E.Either<RegistryParseFailed, string> => {
  const file = 'settings.json';
  const doc = parseObject(file, text, () => ({}));
  if (E.isLeft(doc)) return doc;
  const enabledPlugins = field(file, doc.right, 'enabledPlugins', () => ({}));
  if (E.isLeft(enabledPlugins)) return enabledPlugins;
  if (text !== null && (enabled === null ? !(key in enabledPlugins.right) : enabledPlugins.right[key] === enabled)) return E.right(text);
  const next = { ...enabledPlugins.right };
  if (enabled === null) delete next[key];
  else next[key] = enabled;
  return E.right(formatJson({ ...doc.right, enabledPlugins: next }));
};

/** The plugin's `enabledPlugins` value in Claude's `settings.json` text: `null` when not set. */
export const readClaudeEnablement = (text: string | null, key: string): E.Either<RegistryParseFailed, boolean | null> => {
  const doc = parseObject('settings.json', text, () => ({}));
  if (E.isLeft(doc)) return doc;
  const enabledPlugins = doc.right['enabledPlugins'];
  const value = isRecord(enabledPlugins) ? enabledPlugins[key] : undefined;
  return E.right(typeof value === 'boolean' ? value : null);
};

/**
 * Sets (or with `null` removes) the plugin's entry in the Codex managed marketplace's `marketplace.json`
 * (`{ name, plugins: [{ name, source: { source: 'local', path } }] }`); `path` is relative to the
 * marketplace root.
 */
export const editCodexMarketplace = (text: string | null, marketplace: string, plugin: string, path: string | null): E.Either<RegistryParseFailed, string> => {
  const file = 'marketplace.json';
  const doc = parseObject(file, text, () => ({ name: marketplace, plugins: [] }));
  if (E.isLeft(doc)) return doc;
  const plugins = doc.right['plugins'] ?? [];
  if (!Array.isArray(plugins)) return E.left({ _tag: 'ParseFailed', file, detail: '"plugins" is not an array' });
  const others = plugins.filter((entry) => !(isRecord(entry) && entry['name'] === plugin));
  const entry = { name: plugin, source: { source: 'local', path } };
  const unchanged = path === null ? others.length === plugins.length : plugins.some((p) => JSON.stringify(p) === JSON.stringify(entry));
  if (unchanged && text !== null) return E.right(text);
  const next = path === null ? others : [...others, entry];
  return E.right(formatJson({ ...doc.right, plugins: next }));
};
