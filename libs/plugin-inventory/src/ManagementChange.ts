/**
 * How a switch of the management view reaches the running app-servers, by the same rule as a
 * committed plugin change ({@link decideHotReload}): only a change of pure-skill membership — one
 * skill switched on or off — reloads the user config in place (`config/batchWrite` with no edits and
 * `reloadUserConfig: true`); a whole plugin switched on or off, an app switched, or the remote
 * Apps / Connectors switch follow the invalidation policy (the process is replaced).
 *
 * Every function here is pure.
 */
import type { HotReloadDecision } from './HotReloadDecision.js';
import { pluginKey, type PluginRef } from './PluginRef.js';

/** One switch of the management view. */
export type ManagementChange =
  | { readonly _tag: 'SkillToggled'; readonly skill: string; readonly enabled: boolean }
  | { readonly _tag: 'PluginToggled'; readonly plugin: PluginRef; readonly enabled: boolean }
  | { readonly _tag: 'AppToggled'; readonly app: string; readonly enabled: boolean }
  | { readonly _tag: 'RemoteAppsToggled'; readonly enabled: boolean };

/**
 * The decision for a management switch.
 * @example
 * ```ts
 * decideManagementChange({ _tag: 'SkillToggled', skill: 'notes:jot', enabled: false });
 * // { _tag: 'Reload', membership: 'Removed', skills: ['notes:jot'] }
 * ```
 */
export const decideManagementChange = (change: ManagementChange): HotReloadDecision => {
  switch (change._tag) {
    case 'SkillToggled':
      return { _tag: 'Reload', membership: change.enabled ? 'Added' : 'Removed', skills: [change.skill] };
    case 'PluginToggled':
      return { _tag: 'Invalidate', reason: 'PluginToggled', detail: `The plugin ${pluginKey(change.plugin)} is ${change.enabled ? 'enabled' : 'disabled'}` };
    case 'AppToggled':
      return { _tag: 'Invalidate', reason: 'Apps', detail: `An app is ${change.enabled ? 'enabled' : 'disabled'}` };
    case 'RemoteAppsToggled':
      return { _tag: 'Invalidate', reason: 'UnrelatedConfigChange', detail: `Remote apps are ${change.enabled ? 'on' : 'off'}` };
  }
};
