/**
 * `preparePluginTrial`: whether "Try in chat" (Create Site, Create Mini Program, Continue developing)
 * can reuse a plugin already on the target device. A plugin is reused only when the inventory was read
 * from the target device itself and lists the plugin under the same name and marketplace, installed
 * and enabled. A plugin that this device confirms missing or disabled needs installation (no stale
 * cloud record can override that); an inventory read from another device leaves the decision to the
 * target device's cloud inventory; an inventory that could not be read never leads to an installation.
 *
 * Every function here is pure: the inventory and the request in, a decision out.
 */
import { samePlugin, type PluginRef } from './PluginRef.js';

/** The sentence shown when the target device's inventory could not be checked. */
export const TRIAL_INVENTORY_FAILED = 'Could not check plugin installation on the target device. Try again.';

/** What the trial needs of one inventory plugin. */
export interface TrialPlugin {
  readonly ref: PluginRef;
  readonly installed: boolean;
  readonly enabled: boolean;
  /** The plugin's default prompts (`interface.defaultPrompt`), first one used for the draft. */
  readonly defaultPrompt: ReadonlyArray<string> | null;
}

/** The local inventory as read for the trial. */
export type TrialInventory =
  /** Read: whose device it belongs to and its plugins. */
  | { readonly _tag: 'Read'; readonly deviceId: string; readonly plugins: ReadonlyArray<TrialPlugin> }
  /** Could not be read (the runtime is down, the read failed or timed out). */
  | { readonly _tag: 'Unreadable' };

/** What the person asked to try, on which device. */
export interface TrialRequest {
  readonly plugin: PluginRef;
  readonly deviceId: string;
}

/** Why the plugin cannot be reused locally. */
export type NeedsInstallReason =
  /** This device's inventory does not list the plugin as installed. */
  | 'missing'
  /** Installed on this device, but disabled. */
  | 'disabled'
  /** The inventory belongs to another device: the target device's cloud inventory decides. */
  | 'otherDevice';

/** The decision of {@link preparePluginTrial}. */
export type TrialDecision =
  | { readonly kind: 'ready'; readonly plugin: PluginRef; readonly defaultPrompt: string | null }
  | { readonly kind: 'needsInstall'; readonly plugin: PluginRef; readonly reason: NeedsInstallReason }
  | { readonly kind: 'failed'; readonly message: typeof TRIAL_INVENTORY_FAILED };

/**
 * Decides the trial:
 *
 * | inventory | plugin (same name and marketplace) | decision |
 * |---|---|---|
 * | unreadable | — | `failed` with {@link TRIAL_INVENTORY_FAILED} |
 * | another device's | — | `needsInstall` `otherDevice` |
 * | this device's | not listed, or listed not installed | `needsInstall` `missing` |
 * | this device's | installed, disabled | `needsInstall` `disabled` |
 * | this device's | installed, enabled | `ready` with its first default prompt |
 *
 * A plugin of the same name in another marketplace never counts.
 * @example
 * ```ts
 * preparePluginTrial({ _tag: 'Unreadable' }, { plugin, deviceId: 'd1' });
 * // { kind: 'failed', message: 'Could not check plugin installation on the target device. Try again.' }
 * ```
 */
export const preparePluginTrial = (inventory: TrialInventory, request: TrialRequest): TrialDecision => {
  if (inventory._tag === 'Unreadable') return { kind: 'failed', message: TRIAL_INVENTORY_FAILED };
  if (inventory.deviceId !== request.deviceId) return { kind: 'needsInstall', plugin: request.plugin, reason: 'otherDevice' };
  const found = inventory.plugins.find((plugin) => samePlugin(plugin.ref, request.plugin));
  if (found === undefined || !found.installed) return { kind: 'needsInstall', plugin: request.plugin, reason: 'missing' };
  if (!found.enabled) return { kind: 'needsInstall', plugin: request.plugin, reason: 'disabled' };
  return { kind: 'ready', plugin: found.ref, defaultPrompt: found.defaultPrompt?.[0] ?? null };
};
