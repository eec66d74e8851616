/**
 * Whether a committed plugin change can be applied to running app-servers by reloading their user
 * config (`config/batchWrite` with no edits and `reloadUserConfig: true`, keeping the process), or
 * must invalidate them (the existing policy: the process is replaced).
 *
 * Only a verified pure-skill membership change reloads: the installation of a plugin that
 * contributes only skills, or the removal of one, where both states could be inspected, the
 * plugin's enablement and registries agree, and no configuration outside the plugin's own entries
 * changed. Everything else invalidates: package content or version updates, whole-plugin toggles,
 * MCP servers, hooks, apps, unknown manifest capabilities, unrelated configuration changes and
 * uninspectable state. A reload that fails or is cancelled invalidates as well
 * ({@link afterReload}).
 *
 * Every function here is pure: states in, a decision out.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inspectManifest, type InspectedManifest } from './PluginManifest.js';
import { pluginKey, type PluginRef } from './PluginRef.js';

/** The plugin is not installed in this home: no package, no registry entry, no enablement. */
export interface PluginNotInstalled {
  readonly _tag: 'NotInstalled';
}

/** The plugin as installed in this home: its package, as inspected, and its configuration. */
export interface PluginInstalled {
  readonly _tag: 'Installed';
  /** The parsed `.codex-plugin/plugin.json` (untrusted; decoded here). */
  readonly manifest: unknown;
  /** A digest of the whole package content. */
  readonly packageDigest: string;
  /** Skill names found in the package. */
  readonly skills: ReadonlyArray<string>;
  /** MCP server names found (declared in the manifest or in the package's default MCP file). */
  readonly mcpServers: ReadonlyArray<string>;
  /** Hook events found (declared or in the package's default hooks file). */
  readonly hooks: ReadonlyArray<string>;
  /** App connector ids found (declared or in the package's default apps file). */
  readonly apps: ReadonlyArray<string>;
  /** Native enablement: `[plugins."name@marketplace"] enabled` in the home's config. */
  readonly enabled: boolean;
  /** Skill selectors: skills of this plugin switched off in configuration. */
  readonly disabledSkills: ReadonlyArray<string>;
  /** Whether the runtime registries (installed plugins, marketplace metadata) list the plugin. */
  readonly registered: boolean;
}

/** The state could not be read (missing or unreadable files, an interrupted transaction, …). */
export interface PluginUninspectable {
  readonly _tag: 'Uninspectable';
  readonly reason: string;
}

/** One side of the change. */
export type PluginState = PluginNotInstalled | PluginInstalled | PluginUninspectable;

/**
 * One configuration value the transaction changed: the file (`config.toml` of the Codex home,
 * `settings.json` of the Claude home, or any other) and the key path inside it.
 */
export interface ConfigChange {
  readonly file: string;
  readonly path: ReadonlyArray<string>;
}

/** A committed change of one plugin in one home. */
export interface PluginChange {
  readonly plugin: PluginRef;
  readonly before: PluginState;
  readonly after: PluginState;
  readonly configChanges: ReadonlyArray<ConfigChange>;
}

/** Why the running processes must be invalidated. */
export type InvalidateReason =
  | 'Uninspectable'
  | 'IdentityMismatch'
  | 'UnrelatedConfigChange'
  | 'McpServers'
  | 'Hooks'
  | 'Apps'
  | 'UnknownCapabilities'
  | 'RegistryMismatch'
  | 'VersionChanged'
  | 'PackageContentChanged'
  | 'PluginToggled'
  | 'NotInstallOrRemoval'
  | 'NoSkillMembershipChange'
  | 'ReloadFailed'
  | 'ReloadCancelled';

/** Reload the user config of the running app-servers of this home and keep them. */
export interface Reload {
  readonly _tag: 'Reload';
  /** `Added` for an installation, `Removed` for a removal. */
  readonly membership: 'Added' | 'Removed';
  /** The skills that join or leave the catalog, sorted. */
  readonly skills: ReadonlyArray<string>;
}

/** Replace the running app-servers of this home (the existing invalidation policy). */
export interface Invalidate {
  readonly _tag: 'Invalidate';
  readonly reason: InvalidateReason;
  readonly detail: string;
}

/** The decision for a committed change. */
export type HotReloadDecision = Reload | Invalidate;

const invalidate = (reason: InvalidateReason, detail: string): Invalidate => ({ _tag: 'Invalidate', reason, detail });

/** Whether a config change is one of the plugin's own entries (its enablement and component settings). */
export const isOwnConfigChange = (plugin: PluginRef, change: ConfigChange): boolean => {
  const key = pluginKey(plugin);
  const [first, second] = change.path;
  if (change.file === 'config.toml') return first === 'plugins' && second === key;
  if (change.file === 'settings.json') return first === 'enabledPlugins' && second === key;
  return false;
};

interface InspectedSide {
  readonly state: PluginInstalled;
  readonly manifest: InspectedManifest;
}

/** The capability checks of one installed side: MCP, hooks, apps, unknown keys, identity, registry. */
const capabilityProblem = (plugin: PluginRef, side: InspectedSide, which: string): Invalidate | null => {
  const { state, manifest } = side;
  if (manifest.name !== null && manifest.name !== plugin.name) {
    return invalidate('IdentityMismatch', `The ${which} manifest names plugin "${manifest.name}", not "${plugin.name}"`);
  }
  if (manifest.capabilities.mcpServers || state.mcpServers.length > 0) return invalidate('McpServers', `The ${which} package has MCP servers`);
  if (manifest.capabilities.hooks || state.hooks.length > 0) return invalidate('Hooks', `The ${which} package has hooks`);
  if (manifest.capabilities.apps || state.apps.length > 0) return invalidate('Apps', `The ${which} package has apps`);
  if (manifest.capabilities.unknown.length > 0) {
    return invalidate('UnknownCapabilities', `The ${which} manifest declares ${manifest.capabilities.unknown.map((key) => JSON.stringify(key)).join(', ')}`);
  }
  if (!state.registered) return invalidate('RegistryMismatch', `The ${which} plugin is installed but not in the runtime registries`);
  return null;
};

const selectedSkills = (state: PluginInstalled): ReadonlyArray<string> =>
  [...new Set(state.skills.filter((skill) => !state.disabledSkills.includes(skill)))].sort();

/**
 * Decides how running app-servers take a committed change of one plugin. The checks, in order:
 *
 * | # | condition | decision |
 * |---|---|---|
 * | 1 | a side is `Uninspectable`, or its manifest does not decode | Invalidate `Uninspectable` |
 * | 2 | a configuration change outside the plugin's own entries | Invalidate `UnrelatedConfigChange` |
 * | 3 | an installed side's manifest names another plugin | Invalidate `IdentityMismatch` |
 * | 4 | an installed side has MCP servers / hooks / apps / unknown manifest keys | Invalidate `McpServers` / `Hooks` / `Apps` / `UnknownCapabilities` |
 * | 5 | an installed side is missing from the registries | Invalidate `RegistryMismatch` |
 * | 6 | installed before and after, versions differ | Invalidate `VersionChanged` |
 * | 7 | installed before and after, package digests differ | Invalidate `PackageContentChanged` |
 * | 8 | installed before and after, enablement differs | Invalidate `PluginToggled` |
 * | 9 | installed before and after otherwise, or not installed on either side | Invalidate `NotInstallOrRemoval` |
 * | 10 | installed or removed while disabled, or with no selected skill | Invalidate `NoSkillMembershipChange` |
 * | 11 | otherwise: an enabled pure-skill plugin installed / removed | Reload (`Added` / `Removed`, its selected skills) |
 * @example
 * ```ts
 * decideHotReload({ plugin, before: { _tag: 'NotInstalled' }, after: installedPureSkill, configChanges: [
 *   { file: 'config.toml', path: ['plugins', 'notes@wegent', 'enabled'] },
 * ] }); // { _tag: 'Reload', membership: 'Added', skills: [...] }
 * ```
 */
export const decideHotReload = (change: PluginChange): HotReloadDecision => {
  const { plugin, before, after } = change;
  const inspect = (state: PluginState, which: string): E.Either<Invalidate, InspectedSide | null> => {
    if (state._tag === 'NotInstalled') return E.right(null);
    if (state._tag === 'Uninspectable') return E.left(invalidate('Uninspectable', `The ${which} state could not be inspected: ${state.reason}`));
    const manifest = inspectManifest(state.manifest);
    return E.isLeft(manifest)
      ? E.left(invalidate('Uninspectable', `The ${which} manifest is not readable: ${manifest.left.message}`))
      : E.right({ state, manifest: manifest.right });
  };
  const old = inspect(before, 'previous');
  if (E.isLeft(old)) return old.left;
  const current = inspect(after, 'new');
  if (E.isLeft(current)) return current.left;

  const unrelated = change.configChanges.find((config) => !isOwnConfigChange(plugin, config));
  if (unrelated !== undefined) {
    return invalidate('UnrelatedConfigChange', `The change also edits ${unrelated.file} at ${unrelated.path.map((key) => JSON.stringify(key)).join('.')}`);
  }

  for (const [side, which] of [
    [old.right, 'previous'],
    [current.right, 'new'],
  ] as const) {
    const problem = side === null ? null : capabilityProblem(plugin, side, which);
    if (problem !== null) return problem;
  }

  const was = old.right;
  const is = current.right;
  if (was !== null && is !== null) {
    if (was.manifest.version !== is.manifest.version) {
      return invalidate('VersionChanged', `The version changes from ${was.manifest.version ?? 'none'} to ${is.manifest.version ?? 'none'}`);
    }
    if (was.state.packageDigest !== is.state.packageDigest) return invalidate('PackageContentChanged', 'The package content changes');
    if (was.state.enabled !== is.state.enabled) return invalidate('PluginToggled', `The plugin is ${is.state.enabled ? 'enabled' : 'disabled'}`);
    return invalidate('NotInstallOrRemoval', 'The plugin stays installed: this is not an installation or removal');
  }
  if (was === null && is === null) return invalidate('NotInstallOrRemoval', 'The plugin is installed neither before nor after');

  const side = (is ?? was) as InspectedSide;
  const membership = is !== null ? 'Added' : 'Removed';
  if (!side.state.enabled) return invalidate('NoSkillMembershipChange', `The ${membership === 'Added' ? 'installed' : 'removed'} plugin is disabled`);
  const skills = selectedSkills(side.state);
  if (skills.length === 0) return invalidate('NoSkillMembershipChange', 'The plugin contributes no selected skill');
  return { _tag: 'Reload', membership, skills };
};

/** How a reload request ended. */
export type ReloadOutcome = 'Succeeded' | 'Failed' | 'Cancelled';

/** Keep the process: the reload completed. */
export interface KeepProcess {
  readonly _tag: 'KeepProcess';
}

/**
 * What to do after a reload was requested: keep the process only if it succeeded; a failed or
 * cancelled reload invalidates rather than acknowledging an incomplete reload.
 */
export const afterReload = (outcome: ReloadOutcome): KeepProcess | Invalidate => {
  switch (outcome) {
    case 'Succeeded':
      return { _tag: 'KeepProcess' };
    case 'Failed':
      return invalidate('ReloadFailed', 'The configuration reload failed');
    case 'Cancelled':
      return invalidate('ReloadCancelled', 'The configuration reload was cancelled');
  }
};
