import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { afterEach, expect, it } from 'vitest';
import { decideHotReload, pluginRef } from '@wework/plugin-inventory';
import { commitChange } from '../src/index.js';
import { commitAndDecide, createNodePorts, inspectInstalledPlugin } from '../src/node/index.js';

let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

const plugin = { name: 'team-skills', marketplace: 'wegent' };
const file = (path: string, text: string) => ({ kind: 'file' as const, path, mode: 0o644, bytes: new TextEncoder().encode(text) });
const skillPackage = (extra: ReadonlyArray<ReturnType<typeof file>> = []) => [
  file('.codex-plugin/plugin.json', JSON.stringify({ name: plugin.name, version: '1.0.0', skills: './skills/' })),
  file('skills/standup/SKILL.md', '---\nname: standup\ndescription: d\n---\n'),
  ...extra,
];

it('reads a home before and after an install: not installed, then installed with its skills, enabled and registered', async () => {
  root = await mkdtemp(join(tmpdir(), 'inspect-plugin-'));
  const homes = { codexHome: join(root, 'codex'), claudeHome: join(root, 'claude'), stateDirectory: join(root, 'state') };
  await Promise.all([homes.codexHome, homes.claudeHome].map((dir) => mkdir(dir, { recursive: true })));
  await writeFile(join(homes.codexHome, 'config.toml'), 'model = "x"\n');
  const before = await inspectInstalledPlugin(homes, plugin);
  expect(before).toEqual({ _tag: 'NotInstalled' });
  const ports = createNodePorts({ durability: 'none' });
  const installed = await commitChange(ports, homes, { _tag: 'Install', plugin, version: '1.0.0', source: { extract: () => TE.right(skillPackage()) }, at: '2026-01-01T00:00:00.000Z' })();
  expect(E.isRight(installed)).toBe(true);
  const after = await inspectInstalledPlugin(homes, plugin);
  expect(after).toMatchObject({ _tag: 'Installed', skills: ['standup'], mcpServers: [], enabled: true, registered: true });
  const ref = pluginRef(plugin.name, plugin.marketplace);
  if (E.isLeft(ref)) throw new Error('ref');
  expect(decideHotReload({ plugin: ref.right, before, after, configChanges: [{ file: 'config.toml', path: ['plugins', 'team-skills@wegent'] }] })).toMatchObject({ _tag: 'Reload' });
});

it('sees MCP servers in the package, and an unreadable state as Uninspectable', async () => {
  root = await mkdtemp(join(tmpdir(), 'inspect-plugin-'));
  const homes = { codexHome: join(root, 'codex'), claudeHome: null, stateDirectory: join(root, 'state') };
  await mkdir(homes.codexHome, { recursive: true });
  const ports = createNodePorts({ durability: 'none' });
  const mcp = file('.mcp.json', JSON.stringify({ mcpServers: { chat: { command: 'node' } } }));
  await commitChange(ports, homes, { _tag: 'Install', plugin, version: '1.0.0', source: { extract: () => TE.right(skillPackage([mcp])) }, at: '2026-01-01T00:00:00.000Z' })();
  expect(await inspectInstalledPlugin(homes, plugin)).toMatchObject({ _tag: 'Installed', mcpServers: ['chat'] });
  await writeFile(join(homes.stateDirectory, 'manifest.json'), 'not json');
  expect(await inspectInstalledPlugin(homes, plugin)).toMatchObject({ _tag: 'Uninspectable' });
});

it('commitAndDecide: an install reloads, an update invalidates, a no-op commit needs nothing', async () => {
  root = await mkdtemp(join(tmpdir(), 'inspect-plugin-'));
  const homes = { codexHome: join(root, 'codex'), claudeHome: join(root, 'claude'), stateDirectory: join(root, 'state') };
  await Promise.all([homes.codexHome, homes.claudeHome].map((dir) => mkdir(dir, { recursive: true })));
  const ports = createNodePorts({ durability: 'none' });
  const install = (version: string) => () =>
    commitChange(ports, homes, { _tag: 'Install', plugin, version, source: { extract: () => TE.right(skillPackage()) }, at: '2026-01-01T00:00:00.000Z' })();
  expect(await commitAndDecide(homes, plugin, install('1.0.0'))).toMatchObject({ right: { result: { outcome: 'Committed' }, decision: { _tag: 'Reload', membership: 'Added', skills: ['standup'] } } });
  expect(await commitAndDecide(homes, plugin, install('1.0.0'))).toMatchObject({ right: { result: { outcome: 'Unchanged' }, decision: null } });
  // An update of an installed plugin is neither an installation nor a removal: never reloaded in place.
  expect(await commitAndDecide(homes, plugin, install('2.0.0'))).toMatchObject({ right: { decision: { _tag: 'Invalidate', reason: 'NotInstallOrRemoval' } } });
  expect(await commitAndDecide(homes, plugin, async () => E.left('refused'))).toEqual(E.left('refused'));
});
