import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { upgradeBundled } from '../src/BundledUpgrade.js';
import type { PluginRef } from '@wework/plugin-inventory';
import { cacheDirectoryOf } from '../src/Layout.js';
import { commitChange } from '../src/Transaction.js';
import { createNodeFileSystem, createNodeHost, createNodePorts } from '../src/node/index.js';
import { instrumentFileSystem } from '@wework/ports/testing';
import { pluginPackage, sandbox, sourceOf, type Sandbox } from './support/homes.js';

const plugin: PluginRef = { name: 'wework-space', marketplace: 'wework' };
const ports = createNodePorts({ durability: 'none' });
const boxes: Sandbox[] = [];
afterEach(() => {
  for (const box of boxes.splice(0)) box.remove();
});
const bundled = (version: string, variant = version) => ({ plugin, version, source: sourceOf(pluginPackage(variant)), at: '2025-05-01T00:00:00.000Z' });

describe('bundled plugin upgrades', () => {
  it('installs, then reports up to date, and upgrades a same-version content fix keeping the plugin disabled', async () => {
    const box = sandbox();
    boxes.push(box);
    expect(await upgradeBundled(ports, box.homes, bundled('1.0.0'))()).toMatchObject({ right: { _tag: 'Upgraded', reason: 'NotInstalled' } });
    expect(await upgradeBundled(ports, box.homes, bundled('1.0.0'))()).toEqual(E.right({ _tag: 'UpToDate' }));
    const config = join(box.homes.codexHome, 'config.toml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('[plugins."wework-space@wework"]\nenabled = true', '[plugins."wework-space@wework"]\nenabled = false'));
    expect(await upgradeBundled(ports, box.homes, bundled('1.0.0', '1.0.0-fix'))()).toMatchObject({ right: { _tag: 'Upgraded', reason: 'ContentChanged' } });
    expect(readFileSync(join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'), 'skills/fill/SKILL.md'), 'utf8')).toContain('1.0.0-fix');
    expect(readFileSync(config, 'utf8')).toContain('[plugins."wework-space@wework"]\nenabled = false');
  });

  it('notices a damaged cache (full contents, not just the version)', async () => {
    const box = sandbox();
    boxes.push(box);
    await upgradeBundled(ports, box.homes, bundled('1.0.0'))();
    writeFileSync(join(box.homes.claudeHome as string, cacheDirectoryOf(plugin, '1.0.0'), 'bin/run.sh'), 'tampered');
    expect(await upgradeBundled(ports, box.homes, bundled('1.0.0'))()).toMatchObject({ right: { _tag: 'Upgraded', reason: 'CacheChanged' } });
    expect(await upgradeBundled(ports, box.homes, bundled('1.0.0'))()).toEqual(E.right({ _tag: 'UpToDate' }));
  });

  it('keeps the previous cache until configuration commits: a failed manifest write after the new caches are in place restores them', async () => {
    const box = sandbox();
    boxes.push(box);
    await upgradeBundled(ports, box.homes, bundled('1.0.0'))();
    const before = box.hash();
    // Fail the publication of the manifest, the last step before the commit mark.
    const fs = instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), async ({ operation, path }) => !(operation === 'rename' && path.endsWith('/manifest.json')));
    const result = await upgradeBundled({ fs, host: createNodeHost() }, box.homes, bundled('1.0.0', '1.0.0-fix'))();
    expect(result).toMatchObject({ left: { _tag: 'TransactionRolledBack', failedStep: 'Rename' } });
    expect(box.hash()).toBe(before);
  });

  it('never reinstalls a bundled plugin the user uninstalled', async () => {
    const box = sandbox();
    boxes.push(box);
    await upgradeBundled(ports, box.homes, bundled('1.0.0'))();
    await commitChange(ports, box.homes, { _tag: 'Remove', plugin, at: '2025-05-02T00:00:00.000Z' })();
    const before = box.hash();
    expect(await upgradeBundled(ports, box.homes, bundled('2.0.0'))()).toEqual(E.right({ _tag: 'Uninstalled' }));
    expect(box.hash()).toBe(before);
  });

  it('a beforeCommit refusal rolls the upgrade back to the previous cache byte for byte; the source is released whatever the outcome', async () => {
    const box = sandbox();
    boxes.push(box);
    await upgradeBundled(ports, box.homes, bundled('1.0.0'))();
    const before = box.hash();
    let released = 0;
    const counted = (version: string, variant: string) => {
      const base = bundled(version, variant);
      return { ...base, source: { ...base.source, release: () => async () => void (released += 1) } };
    };
    const refused = await upgradeBundled(ports, box.homes, counted('1.0.0', '1.0.0-fix'), { beforeCommit: async () => E.left('refused by the check') })();
    expect(refused).toMatchObject({ left: { _tag: 'TransactionAborted' } });
    expect(box.hash()).toBe(before);
    expect(await upgradeBundled(ports, box.homes, counted('1.0.0', '1.0.0'))()).toEqual(E.right({ _tag: 'UpToDate' }));
    expect(await upgradeBundled(ports, box.homes, counted('1.0.0', '1.0.0-fix'))()).toMatchObject({ right: { _tag: 'Upgraded', reason: 'ContentChanged' } });
    expect(released).toBe(3);
  });
});
