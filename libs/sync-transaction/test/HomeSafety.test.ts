/**
 * Writes inside the homes never follow a link out of them, and re-installing the installed version is
 * an idempotent success — a repair when the cache no longer matches the package — also when a check
 * runs before the commit (it sees only the cache directories that were republished).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginRef } from '@wework/plugin-inventory';
import { cacheDirectoryOf } from '../src/Layout.js';
import { commitChange, type SyncChange } from '../src/Transaction.js';
import { createNodePorts } from '../src/node/index.js';
import { pluginPackage, sandbox, sourceOf, type Sandbox } from './support/homes.js';
import { hashTrees, listTree } from '@wework/test-support';

const plugin: PluginRef = { name: 'forms', marketplace: 'wework' };
const install = (version: string, at = '2025-01-01T00:00:00.000Z'): SyncChange => ({ _tag: 'Install', plugin, version, source: sourceOf(pluginPackage(version)), at });
const ports = createNodePorts({ durability: 'none' });

const cleanups: string[] = [];
const boxes: Sandbox[] = [];
afterEach(() => {
  for (const box of boxes.splice(0)) box.remove();
  for (const dir of cleanups.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const newBox = (): Sandbox => {
  const box = sandbox();
  boxes.push(box);
  return box;
};
const outside = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'sync-tx-outside-'));
  cleanups.push(dir);
  return dir;
};

describe('links planted in the homes', () => {
  it.each([
    ['the Codex cache of the marketplace', (box: Sandbox) => join(box.homes.codexHome, 'plugins/cache', plugin.marketplace)],
    ['the Claude cache of the plugin', (box: Sandbox) => join(box.homes.claudeHome as string, 'plugins/cache', plugin.marketplace, plugin.name)],
    ['the Codex marketplaces directory', (box: Sandbox) => join(box.homes.codexHome, 'plugins/marketplaces')],
  ])('a link at %s is refused: nothing is written outside, the homes are unchanged', async (_name, at) => {
    const box = newBox();
    const target = outside();
    const link = at(box);
    mkdirSync(join(link, '..'), { recursive: true });
    symlinkSync(target, link);
    const before = hashTrees(box.root, target);
    const result = await commitChange(ports, box.homes, install('1.0.0'))();
    expect(result).toMatchObject({ left: { _tag: 'LinkInHome', path: link } });
    expect(readdirSync(target)).toEqual([]);
    expect(hashTrees(box.root, target)).toBe(before);
  });

  it('a home reached through a link of its own is fine (only links below the roots are refused)', async () => {
    const box = newBox();
    const alias = join(outside(), 'alias');
    symlinkSync(box.root, alias);
    const homes = { codexHome: join(alias, 'codex-home'), claudeHome: join(alias, 'claude-home'), stateDirectory: join(alias, 'codex-home', 'wework-plugins') };
    expect(await commitChange(ports, homes, install('1.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
  });
});

describe('re-installing the installed version', () => {
  it('is an idempotent success: the caches stay, the check before the commit sees no cache, and the state is the same', async () => {
    const box = newBox();
    const seen: Array<ReadonlyArray<string>> = [];
    const options = { beforeCommit: async (published: ReadonlyArray<string>) => (seen.push(published), E.right(undefined)) };
    expect(await commitChange(ports, box.homes, install('1.0.0'), options)()).toMatchObject({ right: { outcome: 'Committed' } });
    const cache = join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'));
    const tree = listTree(cache);
    const again = await commitChange(ports, box.homes, install('1.0.0', '2025-01-02T00:00:00.000Z'), options)();
    expect(again).toMatchObject({ right: { outcome: 'Committed' } });
    if (E.isLeft(again)) return;
    expect(again.right.published.some((p) => p.includes('/plugins/cache/'))).toBe(false);
    expect(seen[1]).toEqual([]);
    expect(listTree(cache)).toEqual(tree);
    // The very same request twice: nothing left to change.
    expect(await commitChange(ports, box.homes, install('1.0.0', '2025-01-02T00:00:00.000Z'), options)()).toMatchObject({ right: { outcome: 'Unchanged' } });
  });

  it('repairs a tampered cache: the package is published again, exactly', async () => {
    const box = newBox();
    expect(await commitChange(ports, box.homes, install('1.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    const cache = join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'));
    const tree = listTree(cache);
    writeFileSync(join(cache, 'skills/fill/SKILL.md'), 'tampered');
    writeFileSync(join(cache, 'extra.txt'), 'planted');
    const seen: Array<ReadonlyArray<string>> = [];
    const repaired = await commitChange(ports, box.homes, install('1.0.0'), { beforeCommit: async (published) => (seen.push(published), E.right(undefined)) })();
    expect(repaired).toMatchObject({ right: { outcome: 'Committed' } });
    expect(seen[0]).toEqual([cache]);
    expect(listTree(cache)).toEqual(tree);
    expect(existsSync(join(cache, 'extra.txt'))).toBe(false);
  });
});
