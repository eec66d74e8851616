/**
 * The plugins area of the host protocol: the installed inventory and its management (install, uninstall,
 * switch plugins and apps, the remote Apps / Connectors switch), "Try in chat", and the retry of a bundled
 * plugin's update.
 */
import * as E from 'fp-ts/lib/Either.js';
import { HostErrorCode, type HostHandlersPart, type PluginSummary } from '@wework/host-protocol';
import { parsePluginKey, pluginRef } from '@wework/plugin-inventory';
import { preparePluginTrialOn } from '../../plugins/DeviceTrial.js';
import { inventoryFailure, managementFailure, pluginServiceFailure } from '@wework/host-errors';
import { ok, type HostCall, type HandlerKit } from './HandlerKit.js';

type PluginMethod =
  | 'plugins/list'
  | 'plugins/install'
  | 'plugins/uninstall'
  | 'plugins/installed'
  | 'plugins/setEnabled'
  | 'apps/setEnabled'
  | 'integrations/apps/read'
  | 'integrations/apps/write'
  | 'plugins/trial'
  | 'plugins/retryUpdate';

/** `plugins/list`, `plugins/install`, `plugins/uninstall`, `plugins/installed`, `plugins/setEnabled`, `apps/setEnabled`, `integrations/apps/*`, `plugins/trial`, `plugins/retryUpdate`. */
export function pluginHandlers(kit: HandlerKit): HostHandlersPart<PluginMethod, HostCall> {
  const { plugins, pluginInventory, bundled, inventoryChanged } = kit.services;
  const management = async () => (await pluginInventory()).management;
  return {
    'plugins/list': async () => E.bimap(pluginServiceFailure, (list: ReadonlyArray<PluginSummary>) => ({ plugins: list }))(await plugins.list()),
    'plugins/install': async (params) => {
      const { management: manage, inventory } = await pluginInventory();
      if (params.packagePath !== undefined && params.version !== undefined) {
        const request = { marketplace: params.marketplace, plugin: params.plugin, version: params.version, packagePath: params.packagePath };
        const installed = await plugins.install(request);
        const ref = pluginRef(params.plugin, params.marketplace);
        if (E.isRight(ref)) (E.isRight(installed) ? inventory.updateSucceeded : (target: typeof ref.right) => inventory.updateFailed(target, installed.left._tag))(ref.right);
        if (E.isRight(installed)) inventoryChanged('installed', installed.right.pluginId);
        // An explicit install resumes the background synchronisation of a bundled plugin the user had uninstalled.
        if (E.isRight(installed) && E.isRight(ref)) bundled?.reinstalled(ref.right);
        return E.bimap(pluginServiceFailure, (plugin: PluginSummary) => ({ plugin }))(installed);
      }
      return E.bimap(managementFailure, (plugin: PluginSummary) => ({ plugin }))(await manage.install({ marketplace: params.marketplace, plugin: params.plugin }));
    },
    'plugins/uninstall': async (params) => {
      // A manual uninstall stops the background synchronisation of that plugin (across restarts) and waits for an admitted one.
      const ref = parsePluginKey(params.pluginId);
      const uninstall = async () => (await management()).uninstall(params.pluginId);
      const removed = E.isRight(ref) && bundled !== undefined ? await bundled.uninstall(ref.right, uninstall) : await uninstall();
      return E.bimap(managementFailure, () => ({}))(removed);
    },
    'plugins/installed': async () => {
      const viewed = await (await pluginInventory()).inventory.view();
      return E.isLeft(viewed) ? E.left(inventoryFailure(viewed.left)) : ok(viewed.right);
    },
    'plugins/setEnabled': async ({ pluginId, enabled }) => E.bimap(managementFailure, () => ({}))(await (await management()).setPluginEnabled(pluginId, enabled)),
    'apps/setEnabled': async ({ id, enabled }) => E.bimap(managementFailure, () => ({}))(await (await management()).setAppEnabled(id, enabled)),
    'integrations/apps/read': async () => E.bimap(managementFailure, (enabled: boolean) => ({ enabled }))(await (await management()).readRemoteApps()),
    'integrations/apps/write': async ({ enabled }) => E.bimap(managementFailure, (now: boolean) => ({ enabled: now }))(await (await management()).writeRemoteApps(enabled)),
    'plugins/trial': async ({ plugin, marketplace, deviceId }) => {
      const ref = pluginRef(plugin, marketplace);
      if (E.isLeft(ref)) return E.left(managementFailure({ _tag: 'PluginNotFound', pluginId: `${plugin}@${marketplace}` }));
      return ok(await preparePluginTrialOn((await pluginInventory()).inventory, ref.right, deviceId));
    },
    'plugins/retryUpdate': async ({ pluginId }) => {
      if (bundled === undefined) return E.left(managementFailure({ _tag: 'PluginNotFound', pluginId }));
      const retried = await bundled.retry(pluginId);
      if (E.isRight(retried)) return ok({ status: retried.right });
      return E.left(
        retried.left._tag === 'NotBundled'
          ? managementFailure({ _tag: 'PluginNotFound', pluginId })
          : { code: HostErrorCode.UpdatePaused, message: 'the plugin was uninstalled: its background synchronisation is paused until it is installed again', tag: 'UpdatePaused' },
      );
    },
  };
}
