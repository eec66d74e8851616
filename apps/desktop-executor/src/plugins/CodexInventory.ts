/**
 * The inventory's view of Codex over the supervised app-server: `plugin/installed`, `config/read` and
 * `plugin/read`, each answer decoded by the client with `@wework/codex-protocol`'s codecs. A failure is a
 * sentence naming the method and the error's kind, never Codex's own text.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ConfigRead, PluginInstalled, PluginRead, SkillsList } from '@wework/codex-protocol';
import type { AppServerClient } from '@wework/app-server-client';
import { inspectManifest, parsePluginKey, pluginKey, PluginManifest, pluginRef, samePlugin, type ListedPlugin, type PluginPresentation, type PluginRef, type PluginState } from '@wework/plugin-inventory';
import { readManifest, type Homes } from '@wework/sync-transaction';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { appSwitchesOf, configuredPluginsOf, type InventoryCodex, type ListedLocation, type PluginDetails } from './PluginInventory.js';
import { untrustedReads } from './UntrustedJson.js';

const failed = (method: string, tag: string): string => `${method} failed (${tag})`;

/** How a Wegent cloud plugin is read: the sync's own inspection of the homes (`inspectInstalledPlugin`). */
export type InspectCloudPlugin = (ref: PluginRef) => Promise<PluginState>;

const presentationOf = (manifest: unknown): PluginPresentation | null => {
  const decoded = PluginManifest.decode(manifest);
  if (E.isLeft(decoded) || decoded.right.interface == null) return null;
  const face = decoded.right.interface;
  const prompts = typeof face.defaultPrompt === 'string' ? [face.defaultPrompt] : Array.isArray(face.defaultPrompt) ? face.defaultPrompt.filter((entry): entry is string => typeof entry === 'string') : null;
  return { displayName: face.displayName ?? null, shortDescription: face.shortDescription ?? null, defaultPrompt: prompts };
};

/**
 * The inventory's Codex port over `runtime`. Codex does not list the Wegent cloud plugins the sync
 * published (their marketplace is not one of config.toml's `[marketplaces]`, and `plugin/read` refuses its
 * package path outside the marketplace root), though their skills load: those plugins (`cloud.plugins`) are
 * read from the sync's own state (`cloud.inspect`), their skills' loaded paths from `skills/list`.
 */
export function codexInventory(runtime: RuntimeSupervisor, cloud: { readonly plugins: () => Promise<ReadonlyArray<PluginRef>>; readonly inspect: InspectCloudPlugin }): InventoryCodex {
  /** The details of the cloud plugins of the last `installed()`, by identity. */
  let cloudDetails = new Map<string, PluginDetails>();
  const loadedSkills = async (codex: AppServerClient, ref: PluginRef) => {
    const loaded = await codex.request(SkillsList, { forceReload: false });
    const id = pluginKey(ref);
    return E.isLeft(loaded) ? [] : loaded.right.data.flatMap((entry) => entry.skills.filter((skill) => skill.pluginId === id));
  };
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
      const listed: Array<ListedPlugin & ListedLocation> = answered.right.marketplaces.flatMap((marketplace) =>
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
        );
      const details = new Map<string, PluginDetails>();
      for (const ref of await cloud.plugins()) {
        if (listed.some((plugin) => samePlugin(plugin.ref, ref))) continue;
        const state = await cloud.inspect(ref);
        if (state._tag !== 'Installed') continue;
        const manifest = inspectManifest(state.manifest);
        const skills = await loadedSkills(codex, ref);
        details.set(pluginKey(ref), {
          skills: state.skills.map((name) => {
            const qualified = `${ref.name}:${name}`;
            const copy = skills.find((skill) => skill.name === qualified);
            return { name: qualified, path: copy?.path ?? null, enabled: copy?.enabled ?? !state.disabledSkills.includes(name) };
          }),
          apps: state.apps.map((id) => ({ id, name: id })),
        });
        listed.push({ ref, marketplacePath: null, enabled: state.enabled, version: E.isRight(manifest) ? manifest.right.version : null, description: null, presentation: presentationOf(state.manifest) });
      }
      cloudDetails = details;
      return E.right(listed);
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
      const fromCloud = cloudDetails.get(pluginKey(location.ref));
      if (fromCloud !== undefined) return E.right(fromCloud);
      const answered = await codex.request(
        PluginRead,
        location.marketplacePath === null ? { remoteMarketplaceName: location.ref.marketplace, pluginName: location.ref.name } : { marketplacePath: location.marketplacePath, pluginName: location.ref.name },
      );
      if (E.isLeft(answered)) return E.left(failed(PluginRead.method, answered.left._tag));
      const plugin = answered.right.plugin;
      // `plugin/read` names a local plugin's skills by their source path; Codex loads (and switches) the
      // installed copy's, which `skills/list` gives with the plugin's id.
      const copies = await loadedSkills(codex, location.ref);
      return E.right({
        skills: plugin.skills.map((skill) => {
          const copy = copies.find((candidate) => candidate.name === skill.name);
          return copy === undefined ? { name: skill.name, path: skill.path, enabled: skill.enabled } : { name: skill.name, path: copy.path, enabled: copy.enabled };
        }),
        apps: plugin.apps.map((app) => ({ id: app.id, name: app.name })),
      });
    },
  };
}

/** The Wegent cloud plugins the sync manifest of `homes` records as installed (none when it is missing or unreadable). */
export async function cloudPluginsOf(homes: Homes): Promise<ReadonlyArray<PluginRef>> {
  const manifest = await readManifest(untrustedReads, homes)();
  if (E.isLeft(manifest)) return [];
  return Object.entries(manifest.right.plugins).flatMap(([key, record]) => {
    if (record.status !== 'installed') return [];
    const ref = parsePluginKey(key);
    return E.isRight(ref) ? [ref.right] : [];
  });
}
