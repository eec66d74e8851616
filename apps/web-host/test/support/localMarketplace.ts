/**
 * A local marketplace directory for the browser tests, laid out as a user or a team writes one:
 * `<root>/.agents/plugins/marketplace.json` listing plugins with a `local` source, each plugin a
 * `.codex-plugin/plugin.json` with its skills (`skills/<name>/SKILL.md`) and any further manifest
 * fields (such as `connectors`) and files (such as a connector's login bridge). A small copy of the
 * desktop executor's test fixture (apps do not import each other).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A plugin of the fixture marketplace. */
export interface FixturePlugin {
  readonly name: string;
  readonly description: string;
  readonly skills: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  /** `plugin.json`'s `interface` (display name, short and long description, default prompts). */
  readonly interface?: Readonly<Record<string, unknown>>;
  /** Further `plugin.json` fields, such as `connectors` with their `localAuth`. */
  readonly manifest?: Readonly<Record<string, unknown>>;
  /** Further files of the plugin by path below its directory (`bin/bridge.mjs`), written executable. */
  readonly files?: Readonly<Record<string, string>>;
}

/** Writes marketplace `name` with `plugins` into `root`; answers `root` (what a user adds as the source). */
export async function writeLocalMarketplace(root: string, name: string, displayName: string, plugins: ReadonlyArray<FixturePlugin>): Promise<string> {
  const entries = [];
  for (const plugin of plugins) {
    const dir = join(root, 'plugins', plugin.name);
    await mkdir(join(dir, '.codex-plugin'), { recursive: true });
    const manifest = { name: plugin.name, version: '1.0.0', description: plugin.description, skills: './skills/', ...(plugin.interface === undefined ? {} : { interface: plugin.interface }), ...plugin.manifest };
    await writeFile(join(dir, '.codex-plugin', 'plugin.json'), JSON.stringify(manifest));
    for (const [path, content] of Object.entries(plugin.files ?? {})) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content, { mode: 0o755 });
    }
    for (const skill of plugin.skills) {
      await mkdir(join(dir, 'skills', skill.name), { recursive: true });
      await writeFile(join(dir, 'skills', skill.name, 'SKILL.md'), `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\nDo ${skill.name}.\n`);
    }
    entries.push({ name: plugin.name, source: { source: 'local', path: `./plugins/${plugin.name}` }, category: 'Productivity' });
  }
  await mkdir(join(root, '.agents', 'plugins'), { recursive: true });
  await writeFile(join(root, '.agents', 'plugins', 'marketplace.json'), JSON.stringify({ name, interface: { displayName }, plugins: entries }));
  return root;
}
