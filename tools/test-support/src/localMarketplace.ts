/**
 * Local marketplace directories, written the way a user or a team lays them out:
 * `<root>/.agents/plugins/marketplace.json` listing plugins with a `local` source, each plugin a
 * `.codex-plugin/plugin.json` with its skills (`skills/<name>/SKILL.md`) and any other files.
 */
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A skill of a fixture plugin. */
export interface FixtureSkill {
  readonly name: string;
  readonly description: string;
  /** The instructions after the front matter; `Do <name>.` when absent. */
  readonly body?: string;
}

/** A plugin of a fixture marketplace. */
export interface FixturePlugin {
  readonly name: string;
  /** `1.0.0` when absent. */
  readonly version?: string;
  /** `plugin.json`'s `description`; `<name> plugin` when absent. */
  readonly description?: string;
  readonly skills?: ReadonlyArray<FixtureSkill>;
  /** More `plugin.json` fields (`interface`, `connectors`, `mcpServers`, …). */
  readonly manifest?: Readonly<Record<string, unknown>>;
  /** More fields of the plugin's `marketplace.json` entry (`policy`, `category`, …). */
  readonly entry?: Readonly<Record<string, unknown>>;
  /** More files, by path relative to the plugin root (`mode` defaults to 0644). */
  readonly files?: Readonly<Record<string, string | { readonly text: string; readonly mode: number }>>;
}

/** A fixture marketplace. */
export interface FixtureMarketplace {
  readonly name: string;
  /** `marketplace.json`'s `interface`, if any. */
  readonly interface?: Readonly<Record<string, unknown>>;
  readonly plugins: ReadonlyArray<FixturePlugin>;
}

/** The manifest path of the marketplace in `root`. */
export const marketplaceManifest = (root: string): string => join(root, '.agents', 'plugins', 'marketplace.json');

const skillText = (skill: FixtureSkill): string => `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\n${skill.body ?? `Do ${skill.name}.`}\n`;

/** Writes one plugin's directory under `<root>/plugins/<name>` and returns its marketplace entry. */
async function writePlugin(root: string, plugin: FixturePlugin): Promise<Readonly<Record<string, unknown>>> {
  const dir = join(root, 'plugins', plugin.name);
  const skills = plugin.skills ?? [];
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  const manifest = { name: plugin.name, version: plugin.version ?? '1.0.0', description: plugin.description ?? `${plugin.name} plugin`, ...(skills.length > 0 ? { skills: './skills/' } : {}), ...plugin.manifest };
  await writeFile(join(dir, '.codex-plugin', 'plugin.json'), JSON.stringify(manifest));
  for (const skill of skills) {
    await mkdir(join(dir, 'skills', skill.name), { recursive: true });
    await writeFile(join(dir, 'skills', skill.name, 'SKILL.md'), skillText(skill));
  }
  for (const [path, content] of Object.entries(plugin.files ?? {})) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    const { text, mode } = typeof content === 'string' ? { text: content, mode: 0o644 } : content;
    await writeFile(join(dir, path), text, { mode });
  }
  return { name: plugin.name, source: { source: 'local', path: `./plugins/${plugin.name}` }, ...plugin.entry };
}

/** Writes the marketplace into `root` and returns its manifest path. */
export async function writeLocalMarketplace(root: string, marketplace: FixtureMarketplace): Promise<string> {
  const entries = [];
  for (const plugin of marketplace.plugins) entries.push(await writePlugin(root, plugin));
  const path = marketplaceManifest(root);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ name: marketplace.name, ...(marketplace.interface === undefined ? {} : { interface: marketplace.interface }), plugins: entries }));
  return path;
}

/** Adds a plugin to the marketplace already written in `root` (its entry appended to `marketplace.json`). */
export async function addFixturePlugin(root: string, plugin: FixturePlugin): Promise<void> {
  const entry = await writePlugin(root, plugin);
  const path = marketplaceManifest(root);
  const current = JSON.parse(await readFile(path, 'utf8')) as { readonly plugins: ReadonlyArray<unknown> };
  await writeFile(path, JSON.stringify({ ...current, plugins: [...current.plugins, entry] }));
}
