/**
 * `plugins/trial` ("Try in chat"): reads this device's inventory and lets `@wework/plugin-inventory`'s
 * `preparePluginTrial` decide. A ready answer carries the draft the composer opens with: exactly one
 * plugin mention, serialized by `@wework/mention-serializer`, and the plugin's first default prompt.
 * Nothing is ever installed here.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { TrialResult } from '@wework/host-protocol';
import { plugin as pluginMention, serialize, text } from '@wework/mention-serializer';
import { pluginKey, preparePluginTrial, TRIAL_INVENTORY_FAILED, type PluginRef, type TrialInventory } from '@wework/plugin-inventory';
import type { PluginInventory } from './PluginInventory.js';

/** The draft of a ready trial: `[@name](plugin://name@marketplace)`, then the default prompt when there is one. */
export const trialDraft = (ref: PluginRef, defaultPrompt: string | null): { readonly markdown: string; readonly defaultPrompt: string | null } => ({
  markdown: serialize(defaultPrompt === null ? [pluginMention(ref.name, ref.name, ref.marketplace)] : [pluginMention(ref.name, ref.name, ref.marketplace), text(` ${defaultPrompt}`)]),
  defaultPrompt,
});

/** Answers `plugins/trial` for `plugin` on `deviceId` from `inventory`. */
export async function preparePluginTrialOn(inventory: PluginInventory, plugin: PluginRef, deviceId: string): Promise<TrialResult> {
  const read = await inventory.read();
  const local: TrialInventory = E.isLeft(read)
    ? { _tag: 'Unreadable' }
    : {
        _tag: 'Read',
        deviceId: inventory.deviceId,
        plugins: read.right.map((entry) => ({
          ref: entry.item.ref,
          installed: entry.item.status.kind === 'ok' || entry.item.status.kind === 'updateFailed',
          enabled: entry.item.enabled,
          defaultPrompt: entry.view.defaultPrompt,
        })),
      };
  const decision = preparePluginTrial(local, { plugin, deviceId });
  switch (decision.kind) {
    case 'ready':
      return { kind: 'ready', pluginId: pluginKey(decision.plugin), draft: trialDraft(decision.plugin, decision.defaultPrompt) };
    case 'needsInstall':
      return { kind: 'needsInstall', pluginId: pluginKey(decision.plugin), reason: decision.reason };
    case 'failed':
      return { kind: 'failed', message: TRIAL_INVENTORY_FAILED };
  }
}
