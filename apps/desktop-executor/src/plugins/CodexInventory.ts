/**
 * The inventory's view of Codex over the supervised app-server: `plugin/installed`, `config/read` and
 * `plugin/read`, each answer decoded by the client with `@wework/codex-protocol`'s codecs. A failure is a
 * sentence naming the method and the error's kind, never Codex's own text.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { ConfigRead, PluginInstalled, PluginRead, SkillsList } from '@wework/codex-protocol';
import { parsePluginKey, pluginKey, pluginRef, type PluginRef } from '@wework/plugin-inventory';
import { decodeManifest } from '@wework/sync-transaction';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { appSwitchesOf, configuredPluginsOf, type InventoryCodex } from './PluginInventory.js';

const failed = (method: string, tag: string): string => `${method} failed (${tag})`;

/** The inventory's Codex port over `runtime`. */
export function codexInventory(runtime: RuntimeSupervisor): InventoryCodex {
  const client = () => {
    const running = runtime.ready();
    return E.isLeft(running) ? null : running.right.server.client;
  };
  return {
    installed: async () => {
      const codex = client();
      if (codex === null) return E.left('the app-server is not running');
      const answered = await codex.request(PluginInstalled, {});
      if (E.isLeft(answered)) return E.left(failed(PluginInstalled.method, answered.left._tag));
      return E.right(
        answered.right.marketplaces.flatMap((marketplace) =>
          marketplace.plugins.flatMap((plugin) => {
            if (!plugin.installed) return [];
            const ref = pluginRef(plugin.name, marketplace.name);
            if (E.isLeft(ref)) return [];
            return [
              {
                ref: ref.right,
                marketplacePath: marketplace.path,
                enabled: plugin.enabled,
                version: plugin.localVersion ?? plugin.version,
                description: null,
                presentation: plugin.interface,
              },
            ];
          }),
        ),
      );
    },
    config: async () => {
      const codex = client();
      if (codex === null) return E.left('the app-server is not running');
      const answered = await codex.request(ConfigRead, {});
      if (E.isLeft(answered)) return E.left(failed(ConfigRead.method, answered.left._tag));
      const config = answered.right.config as Readonly<Record<string, unknown>>;
      return E.right({ plugins: configuredPluginsOf(config['plugins']), apps: appSwitchesOf(config['apps']) });
    },
    read: async (location) => {
      const codex = client();
      if (codex === null) return E.left('the app-server is not running');
      const answered = await codex.request(
        PluginRead,
        location.marketplacePath === null ? { remoteMarketplaceName: location.ref.marketplace, pluginName: location.ref.name } : { marketplacePath: location.marketplacePath, pluginName: location.ref.name },
      );
      if (E.isLeft(answered)) return E.left(failed(PluginRead.method, answered.left._tag));
      const plugin = answered.right.plugin;
      // `plugin/read` names a local plugin's skills by their source path; Codex loads (and switches) the
      // installed copy's, which `skills/list` gives with the plugin's id.
      const loaded = await codex.request(SkillsList, { forceReload: false });
      const id = pluginKey(location.ref);
      const loadedSkills = E.isLeft(loaded) ? [] : loaded.right.data.flatMap((entry) => entry.skills.filter((skill) => skill.pluginId === id));
      return E.right({
        skills: plugin.skills.map((skill) => {
          const copy = loadedSkills.find((candidate) => candidate.name === skill.name);
          return copy === undefined ? { name: skill.name, path: skill.path, enabled: skill.enabled } : { name: skill.name, path: copy.path, enabled: copy.enabled };
        }),
        apps: plugin.apps.map((app) => ({ id: app.id, name: app.name })),
      });
    },
  };
}

/** The Wegent cloud plugins the sync manifest of `stateDirectory` records as installed (none when it is missing or unreadable). */
export async function cloudPluginsOf(stateDirectory: string): Promise<ReadonlyArray<PluginRef>> {
  const text = await readFile(join(stateDirectory, 'manifest.json'), 'utf8').catch(() => null);
  if (text === null) return [];
  const manifest = decodeManifest(text);
  if (E.isLeft(manifest)) return [];
  return Object.entries(manifest.right.plugins).flatMap(([key, record]) => {
    if (record.status !== 'installed') return [];
    const ref = parsePluginKey(key);
    return E.isRight(ref) ? [ref.right] : [];
  });
}
