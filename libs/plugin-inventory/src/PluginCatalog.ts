/**
 * Marketplace catalog summaries: what one plugin of a marketplace's list looks like once it crosses the
 * executor ⇄ host connection. A catalog lists many plugins and details are read with `plugin/read` when
 * one is opened, so a summary keeps the identity (`name@marketplace`), the name, the display name and
 * short description, the category, the version, the installed/enabled state, the install and
 * authorization policies and the default prompts — never the long description, screenshots, logos,
 * legal or website links, keywords or remote bundle data.
 *
 * Every function here is pure: data in, data out.
 */
import { pluginKey, type PluginRef } from './PluginRef.js';
import type { PluginPresentation } from './InventorySnapshot.js';

/**
 * A plugin of a marketplace's list as Codex's `plugin/list` reports it (the fields read here; any other
 * field is ignored and never copied).
 */
export interface CatalogSource {
  readonly name: string;
  /** The version advertised by a remote catalog. */
  readonly version?: string | null;
  /** The version of the local package. */
  readonly localVersion?: string | null;
  readonly installed: boolean;
  readonly enabled: boolean;
  readonly installPolicy?: string | null;
  readonly authPolicy?: string | null;
  readonly availability?: string | null;
  readonly interface?: PluginPresentation | null;
}

/** One plugin of a catalog, projected for the host. */
export interface CatalogPlugin {
  /** `name@marketplace`: the identity used by install, uninstall and details. */
  readonly pluginId: string;
  readonly name: string;
  readonly marketplace: string;
  readonly displayName: string | null;
  readonly shortDescription: string | null;
  readonly category: string | null;
  /** The remote catalog's version, else the local package's. */
  readonly version: string | null;
  readonly installed: boolean;
  readonly enabled: boolean;
  /** Codex's install policy (`AVAILABLE`, `INSTALLED_BY_DEFAULT`, `NOT_AVAILABLE`, …), `null` when not given. */
  readonly installPolicy: string | null;
  /** Codex's authorization policy (`ON_INSTALL`, `ON_USE`), `null` when not given. */
  readonly authPolicy: string | null;
  /** `AVAILABLE` or why it is not, `null` when not given. */
  readonly availability: string | null;
  /** The plugin's starter prompts (empty when it has none). */
  readonly defaultPrompts: ReadonlyArray<string>;
}

/** The fields of Codex's plugin summary (and its interface) that a catalog summary never carries. */
export const CATALOG_DROPPED_FIELDS: ReadonlyArray<string> = [
  'longDescription',
  'description',
  'screenshots',
  'screenshotUrls',
  'logo',
  'logoDark',
  'logoUrl',
  'logoUrlDark',
  'composerIcon',
  'composerIconUrl',
  'websiteUrl',
  'privacyPolicyUrl',
  'termsOfServiceUrl',
  'keywords',
  'source',
  'shareContext',
];

/**
 * Projects one plugin of `marketplace`'s list to its catalog summary; only the listed fields are read,
 * so nothing else of the source (whatever it holds) reaches the result.
 * @example
 * ```ts
 * const summary = projectCatalogPlugin(ref, { name: 'hello', installed: false, enabled: false, interface: { longDescription: '…' } });
 * summary.pluginId; // 'hello@team-tools'
 * 'longDescription' in summary; // false
 * ```
 */
export const projectCatalogPlugin = (ref: PluginRef, source: CatalogSource): CatalogPlugin => {
  const face = source.interface ?? {};
  return {
    pluginId: pluginKey(ref),
    name: ref.name,
    marketplace: ref.marketplace,
    displayName: face.displayName ?? null,
    shortDescription: face.shortDescription ?? null,
    category: face.category ?? null,
    version: source.version ?? source.localVersion ?? null,
    installed: source.installed,
    enabled: source.enabled,
    installPolicy: source.installPolicy ?? null,
    authPolicy: source.authPolicy ?? null,
    availability: source.availability ?? null,
    defaultPrompts: [...(face.defaultPrompt ?? [])],
  };
};

/** The byte counts of a catalog's text fields, for a log line that never carries their contents. */
export interface CatalogByteCounts {
  readonly plugins: number;
  readonly displayNameBytes: number;
  readonly shortDescriptionBytes: number;
  readonly defaultPromptBytes: number;
  /** What the projection left out: long descriptions and screenshot references of the source. */
  readonly droppedLongDescriptionBytes: number;
  readonly droppedScreenshotBytes: number;
}

const utf8Length = (text: string | null | undefined): number => {
  if (text == null) return 0;
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
};

const sum = (values: ReadonlyArray<number>): number => values.reduce((total, value) => total + value, 0);

/** Counts the UTF-8 bytes of what a catalog kept and what it dropped (no content, only sizes). */
export const catalogByteCounts = (sources: ReadonlyArray<CatalogSource>): CatalogByteCounts => ({
  plugins: sources.length,
  displayNameBytes: sum(sources.map((source) => utf8Length(source.interface?.displayName))),
  shortDescriptionBytes: sum(sources.map((source) => utf8Length(source.interface?.shortDescription))),
  defaultPromptBytes: sum(sources.map((source) => sum((source.interface?.defaultPrompt ?? []).map(utf8Length)))),
  droppedLongDescriptionBytes: sum(sources.map((source) => utf8Length(source.interface?.longDescription))),
  droppedScreenshotBytes: sum(sources.map((source) => sum([...(source.interface?.screenshots ?? []), ...(source.interface?.screenshotUrls ?? [])].map(utf8Length)))),
});
