/**
 * What one home holds of a plugin, as the hot-reload decision needs it: the package's manifest and
 * capabilities (skills, MCP servers, hooks, apps), its digest, enablement and registration. Anything
 * that cannot be read makes the state `Uninspectable`, which never reloads in place.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { PluginRef, PluginState } from '@wework/plugin-inventory';
import { readCodexEnablement } from '../ConfigToml.js';
import { cacheDirectoryOf, type Homes } from '../Layout.js';
import { readManifest } from '../ManifestFile.js';
import type { FileSystemPort } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import { listDirectories as listDirectoriesOf, readText as readTextOf } from './HomeFiles.js';

const fs: FileSystemPort = nodeFileSystem();
const readText = (path: string): Promise<string | null> => readTextOf(fs, path);
const listDirectories = (path: string): Promise<string[]> => listDirectoriesOf(fs, path);

const keysOf = (value: unknown): string[] => (typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : []);

/** Names declared under `field` of a JSON file of the package (an object of named entries), if the file exists. */
async function namedEntries(path: string, field: string): Promise<string[]> {
  const text = await readText(path);
  if (text === null) return [];
  const parsed: unknown = JSON.parse(text);
  const inner = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[field] : undefined;
  return keysOf(inner ?? parsed);
}

/**
 * The plugin's state in the Codex home of `homes` (installed by `@wework/sync-transaction`), for
 * {@link decideHotReload}: read before and after a committed change. Never throws.
 */
export async function inspectInstalledPlugin(homes: Homes, plugin: PluginRef): Promise<PluginState> {
  try {
    const manifest = await readManifest(fs, homes)();
    if (E.isLeft(manifest)) return { _tag: 'Uninspectable', reason: 'the plugin manifest of the executor cannot be read' };
    const record = manifest.right.plugins[`${plugin.name}@${plugin.marketplace}`];
    const config = (await readText(join(homes.codexHome, 'config.toml'))) ?? '';
    const enabled = readCodexEnablement(config, `${plugin.name}@${plugin.marketplace}`);
    if (E.isLeft(enabled)) return { _tag: 'Uninspectable', reason: 'config.toml cannot be parsed' };
    if (record === undefined || record.status !== 'installed' || record.version === null) {
      return enabled.right === null ? { _tag: 'NotInstalled' } : { _tag: 'Uninspectable', reason: 'enabled in config.toml but not installed' };
    }
    const root = join(homes.codexHome, cacheDirectoryOf(plugin, record.version));
    const pluginJson = await readText(join(root, '.codex-plugin', 'plugin.json'));
    if (pluginJson === null) return { _tag: 'Uninspectable', reason: 'the installed package has no .codex-plugin/plugin.json' };
    const declared: unknown = JSON.parse(pluginJson);
    const skillsDir = typeof (declared as { skills?: unknown }).skills === 'string' ? String((declared as { skills: string }).skills) : './skills/';
    const marketplace = await readText(join(homes.codexHome, 'plugins/marketplaces', plugin.marketplace, '.agents/plugins/marketplace.json'));
    const registered = marketplace !== null && marketplace.includes(JSON.stringify(plugin.name));
    return {
      _tag: 'Installed',
      manifest: declared,
      packageDigest: record.digest ?? '',
      skills: await listDirectories(join(root, skillsDir)),
      mcpServers: await namedEntries(join(root, '.mcp.json'), 'mcpServers'),
      hooks: await namedEntries(join(root, 'hooks', 'hooks.json'), 'hooks'),
      apps: await namedEntries(join(root, '.app.json'), 'apps'),
      enabled: enabled.right ?? false,
      disabledSkills: [],
      registered,
    };
  } catch {
    return { _tag: 'Uninspectable', reason: 'the installed plugin cannot be read' };
  }
}
