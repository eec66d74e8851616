/**
 * Plugin identity and where a plugin's files live in the isolated Codex and Claude homes and in the
 * transaction state directory. Pure.
 *
 * - Codex: `<codexHome>/plugins/cache/<marketplace>/<plugin>/<version>/`, enablement in
 *   `<codexHome>/config.toml` (`[plugins."<plugin>@<marketplace>"] enabled = …`), marketplace metadata in
 *   `<codexHome>/plugins/marketplaces/<marketplace>/.agents/plugins/marketplace.json`.
 * - Claude: `<claudeHome>/plugins/cache/<marketplace>/<plugin>/<version>/`, registries
 *   `<claudeHome>/plugins/installed_plugins.json` and `known_marketplaces.json`, enablement in
 *   `<claudeHome>/settings.json` (`enabledPlugins`).
 * - State: `<stateDirectory>/manifest.json`, `manifest.lock`, `journal.<plugin>@<marketplace>.json`.
 */
import * as E from 'fp-ts/lib/Either.js';
import { pluginKey, type PluginRef } from '@wework/plugin-inventory';
import { joinPath } from './internal/Paths.js';

/** A plugin name, marketplace or version is not a plain file-name-safe identifier. */
export interface InvalidIdentifier {
  readonly _tag: 'InvalidIdentifier';
  readonly field: 'name' | 'marketplace' | 'version';
  readonly value: string;
}

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/** Checks one identifier: letters, digits, `.`, `_`, `+`, `-`, starting with a letter or digit. */
export const checkIdentifier = (field: InvalidIdentifier['field'], value: string): E.Either<InvalidIdentifier, string> =>
  IDENTIFIER.test(value) ? E.right(value) : E.left({ _tag: 'InvalidIdentifier', field, value });

/** Checks that a plugin's names are file-name-safe identifiers (they name cache directories and journals). */
export const checkPluginId = (plugin: PluginRef): E.Either<InvalidIdentifier, PluginRef> => {
  const name = checkIdentifier('name', plugin.name);
  if (E.isLeft(name)) return name;
  const marketplace = checkIdentifier('marketplace', plugin.marketplace);
  return E.isLeft(marketplace) ? marketplace : E.right(plugin);
};

/**
 * Which runtimes plugins are installed for (the executor's `WEGENT_PLUGIN_RUNTIME_TARGET`):
 *
 * - `'dual'`: the Codex and the Claude home;
 * - `'codex'`: the Codex home only. Installs and updates never create or change anything on the
 *   Claude side; a removal still deletes what an earlier dual-runtime installation left there and the
 *   manifest records as ours (the `installed_plugins.json` entry, the `settings.json` enablement and
 *   the recorded Claude caches), so a removed plugin cannot stay enabled in later Claude conversations.
 */
export type RuntimeTarget = 'dual' | 'codex';

/** The homes and the state directory one transaction works in (absolute paths). */
export interface Homes {
  /** The isolated Codex home. */
  readonly codexHome: string;
  /**
   * The isolated Claude home; `null` when there is none (nothing on the Claude side is read or
   * written, not even to clean up — use `runtimeTarget: 'codex'` for Codex-only mode with cleanup).
   */
  readonly claudeHome: string | null;
  /** Where the manifest, its lock and the journals live; created when missing (and removed again, with the parents it needed, when the change that created it fails). */
  readonly stateDirectory: string;
  /** Default `'dual'`. See {@link RuntimeTarget}. */
  readonly runtimeTarget?: RuntimeTarget;
  /**
   * Where installs retain each verified package (`<packageStore>/<marketplace>/<plugin>/<version>/`),
   * published in the same transaction, so start-up recovery can rebuild caches and registrations
   * from it. Absent: no package is retained (and recovery can only repair what needs no package).
   */
  readonly packageStore?: string;
}

/** Which home a path belongs to. */
export type HomeName = 'codex' | 'claude';

/**
 * The homes an installation or update writes: the Codex home, and the Claude home when there is one
 * and the runtime target is `'dual'`.
 */
export const runtimeHomes = (homes: Homes): ReadonlyArray<HomeName> =>
  homes.claudeHome !== null && (homes.runtimeTarget ?? 'dual') === 'dual' ? ['codex', 'claude'] : ['codex'];

/** The cache directory of a plugin version, relative to its home. */
export const cacheDirectoryOf = (plugin: PluginRef, version: string): string =>
  joinPath('plugins/cache', plugin.marketplace, plugin.name, version);

/** The directory of a plugin version's retained package, relative to the package store. */
export const packageDirectoryOf = (plugin: PluginRef, version: string): string => joinPath(plugin.marketplace, plugin.name, version);

/** The absolute path of a home's root. */
export const homeRoot = (homes: Homes, home: HomeName): string | null => (home === 'codex' ? homes.codexHome : homes.claudeHome);

/** Absolute paths of the files a transaction reads and replaces. */
export const layoutOf = (homes: Homes, plugin: PluginRef) => ({
  codexConfig: joinPath(homes.codexHome, 'config.toml'),
  codexMarketplace: joinPath(homes.codexHome, 'plugins/marketplaces', plugin.marketplace, '.agents/plugins/marketplace.json'),
  codexMarketplaceRoot: joinPath(homes.codexHome, 'plugins/marketplaces', plugin.marketplace),
  claudeInstalled: homes.claudeHome === null ? null : joinPath(homes.claudeHome, 'plugins/installed_plugins.json'),
  claudeMarketplaces: homes.claudeHome === null ? null : joinPath(homes.claudeHome, 'plugins/known_marketplaces.json'),
  claudeMarketplaceRoot: homes.claudeHome === null ? null : joinPath(homes.claudeHome, 'plugins/marketplaces', plugin.marketplace),
  claudeSettings: homes.claudeHome === null ? null : joinPath(homes.claudeHome, 'settings.json'),
  manifest: manifestPath(homes),
  journal: journalPath(homes, pluginKey(plugin)),
});

/** The manifest file. */
export const manifestPath = (homes: Homes): string => joinPath(homes.stateDirectory, 'manifest.json');

/** The manifest lock file. */
export const lockPath = (homes: Homes): string => joinPath(homes.stateDirectory, 'manifest.lock');

/** The journal of one plugin (by key). */
export const journalPath = (homes: Homes, key: string): string => joinPath(homes.stateDirectory, `journal.${key}.json`);

/** The plugin key of a journal file name, or `null` when the name is not a journal's. */
export const journalKeyOf = (fileName: string): string | null => {
  const match = /^journal\.(.+)\.json$/.exec(fileName);
  return match?.[1] ?? null;
};
