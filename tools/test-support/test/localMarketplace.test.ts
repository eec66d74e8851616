import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFixturePlugin, marketplaceManifest, writeLocalMarketplace } from '../src/index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'test-support-market-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const json = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8')) as unknown;

describe('writeLocalMarketplace', () => {
  it('writes marketplace.json with local entries, each plugin with its manifest, skills and files', async () => {
    const path = await writeLocalMarketplace(root, {
      name: 'team',
      interface: { displayName: 'Team' },
      plugins: [
        { name: 'notes', skills: [{ name: 'standup', description: 'Daily note' }], entry: { category: 'Productivity' }, files: { 'bin/run.sh': { text: '#!/bin/sh\n', mode: 0o755 } } },
        { name: 'bare', version: '2.0.0', description: 'Nothing', manifest: { keywords: ['x'] } },
      ],
    });
    expect(path).toBe(marketplaceManifest(root));
    expect(await json(path)).toEqual({
      name: 'team',
      interface: { displayName: 'Team' },
      plugins: [
        { name: 'notes', source: { source: 'local', path: './plugins/notes' }, category: 'Productivity' },
        { name: 'bare', source: { source: 'local', path: './plugins/bare' } },
      ],
    });
    expect(await json(join(root, 'plugins/notes/.codex-plugin/plugin.json'))).toEqual({ name: 'notes', version: '1.0.0', description: 'notes plugin', skills: './skills/' });
    expect(await json(join(root, 'plugins/bare/.codex-plugin/plugin.json'))).toEqual({ name: 'bare', version: '2.0.0', description: 'Nothing', keywords: ['x'] });
    expect(await readFile(join(root, 'plugins/notes/skills/standup/SKILL.md'), 'utf8')).toBe('---\nname: standup\ndescription: Daily note\n---\n\nDo standup.\n');
    expect((await stat(join(root, 'plugins/notes/bin/run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('adds a plugin to a marketplace already written', async () => {
    await writeLocalMarketplace(root, { name: 'team', plugins: [{ name: 'one' }] });
    await addFixturePlugin(root, { name: 'two' });
    expect(await json(marketplaceManifest(root))).toMatchObject({ plugins: [{ name: 'one' }, { name: 'two' }] });
    expect(await json(join(root, 'plugins/two/.codex-plugin/plugin.json'))).toMatchObject({ name: 'two' });
  });
});
