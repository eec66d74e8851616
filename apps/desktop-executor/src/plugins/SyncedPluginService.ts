/**
 * The host's plugin management (`plugins/list`, `plugins/install`, `plugins/uninstall`) over the cloud
 * plugin sync: the host hands over the package it downloaded from the Wework backend (an unpacked
 * directory), the executor commits it as one transaction and applies it to the running app-server.
 * Plugins are listed from the sync manifest — the ones this executor installed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { parsePluginKey } from '@wework/plugin-inventory';
import { inspectInstalledPlugin } from '@wework/plugin-inventory/node';
import { decodeManifest, type Homes } from '@wework/sync-transaction';
import { directoryPackageSource } from '@wework/sync-transaction/node';
import type { PluginService, PluginServiceError, PluginSummary } from '../host/PluginService.js';
import { describePluginSyncError, type PluginSync } from './PluginSync.js';

const descriptionOf = (manifest: unknown): string | null =>
  typeof manifest === 'object' && manifest !== null && typeof (manifest as { description?: unknown }).description === 'string'
    ? (manifest as { description: string }).description
    : null;

/** The plugin service of an executor whose plugins come from the cloud sync. */
export function syncedPluginService(sync: PluginSync, homes: Homes): PluginService {
  const summary = async (name: string, marketplace: string): Promise<PluginSummary> => {
    const state = await inspectInstalledPlugin(homes, { name, marketplace });
    return {
      pluginId: `${name}@${marketplace}`,
      name,
      marketplace,
      installed: state._tag === 'Installed',
      enabled: state._tag === 'Installed' && state.enabled,
      description: state._tag === 'Installed' ? descriptionOf(state.manifest) : null,
    };
  };

  const list = async (): Promise<E.Either<PluginServiceError, ReadonlyArray<PluginSummary>>> => {
    const text = await readFile(join(homes.stateDirectory, 'manifest.json'), 'utf8').catch(() => null);
    if (text === null) return E.right([]);
    const manifest = decodeManifest(text);
    if (E.isLeft(manifest)) return E.left({ _tag: 'PluginOperationFailed', message: 'the plugin manifest of this executor cannot be read' });
    const installed = Object.entries(manifest.right.plugins).filter(([, record]) => record.status === 'installed');
    const out: PluginSummary[] = [];
    for (const [key] of installed.sort(([a], [b]) => a.localeCompare(b))) {
      const ref = parsePluginKey(key);
      if (E.isRight(ref)) out.push(await summary(ref.right.name, ref.right.marketplace));
    }
    return E.right(out);
  };

  return {
    list,
    install: async ({ marketplace, plugin, version, packagePath }) => {
      const installed = await sync.install({ name: plugin, marketplace }, version, directoryPackageSource(packagePath));
      if (E.isLeft(installed)) return E.left({ _tag: 'PluginOperationFailed', message: describePluginSyncError(installed.left) });
      return E.right(await summary(plugin, marketplace));
    },
    uninstall: async ({ pluginId }) => {
      const ref = parsePluginKey(pluginId);
      if (E.isLeft(ref)) return E.left({ _tag: 'PluginNotFound', pluginId });
      const current = await inspectInstalledPlugin(homes, ref.right);
      if (current._tag === 'NotInstalled') return E.left({ _tag: 'PluginNotFound', pluginId });
      const removed = await sync.remove(ref.right);
      return E.isLeft(removed) ? E.left({ _tag: 'PluginOperationFailed', message: describePluginSyncError(removed.left) }) : E.right(undefined);
    },
  };
}
