import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileSystemError } from '@wework/ports';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostPort } from '../src/HostPort.js';
import type { PluginRef } from '@wework/plugin-inventory';
import { cacheDirectoryOf } from '../src/Layout.js';
import { recoverAll } from '../src/Recovery.js';
import { commitChange, type SyncChange, type TransactionPorts } from '../src/Transaction.js';
import { createNodeFileSystem, createNodeHost, createNodePorts } from '../src/node/index.js';
import { instrumentFileSystem } from '@wework/ports/testing';
import { pluginPackage, sandbox, sandboxAt, sourceOf, type Sandbox } from './support/homes.js';

const plugin: PluginRef = { name: 'forms', marketplace: 'wework' };
const install = (version: string, variant = version, extra: Partial<Extract<SyncChange, { _tag: 'Install' }>> = {}): SyncChange => ({
  _tag: 'Install',
  plugin,
  version,
  source: sourceOf(pluginPackage(variant)),
  at: `2025-01-0${version.length}T00:00:00.000Z`,
  ...extra,
});
const remove: SyncChange = { _tag: 'Remove', plugin, at: '2025-02-01T00:00:00.000Z' };

const boxes: Sandbox[] = [];
const newBox = (): Sandbox => {
  const box = sandbox();
  boxes.push(box);
  return box;
};
afterEach(() => {
  for (const box of boxes.splice(0)) box.remove();
});

const ports = createNodePorts({ durability: 'none' });
const read = (path: string): string => readFileSync(path, 'utf8');
const json = (path: string): Record<string, unknown> => JSON.parse(read(path)) as Record<string, unknown>;

/** Ports whose file system fails the `failAt`-th mutation (0-based) with EIO. */
function failingPorts(failAt: number): TransactionPorts & { readonly count: () => number } {
  let n = 0;
  const fs = instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), async ({ index }) => {
    n = index + 1;
    return index !== failAt;
  });
  return { fs, host: createNodeHost(), count: () => n };
}

/**
 * Ports on a full disk at the `failAt`-th durable write (0-based): the file is created, nothing is written into
 * it, and the write fails with ENOSPC — as a real file system does once its space runs out.
 */
function fullDiskPorts(failAt: number): TransactionPorts & { readonly count: () => number } {
  const inner = createNodeFileSystem({ durability: 'none' });
  let n = 0;
  const fs = {
    ...inner,
    writeFileDurable: (file: Parameters<typeof inner.writeFileDurable>[0]) => async () => {
      if (n++ !== failAt) return inner.writeFileDurable(file)();
      await inner.writeFileDurable({ ...file, bytes: new Uint8Array() })();
      return E.left(fileSystemError('writeFileDurable', file.path, 'ENOSPC'));
    },
  };
  return { fs, host: createNodeHost(), count: () => n };
}

/** The temporary files left anywhere under `root`. */
const tempFilesUnder = (root: string): ReadonlyArray<string> =>
  readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((path) => /\.tmp-|\.tmp$/.test(path));

/** This process seen after a restart: every earlier lock owner (this very process included) is gone. */
const restartedHost: HostPort = { ...createNodeHost(), isAlive: () => async () => false };

describe('commitChange on real homes', () => {
  it('installs into both caches, registries and enablement, keeping unrelated config bytes', async () => {
    const box = newBox();
    const configBefore = read(join(box.homes.codexHome, 'config.toml'));
    const result = await commitChange(ports, box.homes, install('1.0.0'))();
    expect(result).toMatchObject({ _tag: 'Right', right: { outcome: 'Committed', cleanup: 'done', recovered: { _tag: 'Nothing' } } });
    for (const home of [box.homes.codexHome, box.homes.claudeHome as string]) {
      const cache = join(home, cacheDirectoryOf(plugin, '1.0.0'));
      expect(read(join(cache, 'skills/fill/SKILL.md'))).toContain('Fill forms (1.0.0)');
      expect(lstatSync(join(cache, 'bin/run.sh')).mode & 0o777).toBe(0o755);
      expect(lstatSync(join(cache, 'bin/latest')).isSymbolicLink()).toBe(true);
    }
    expect(read(join(box.homes.codexHome, 'config.toml'))).toBe(`${configBefore}\n[plugins."forms@wework"]\nenabled = true\n`);
    expect(lstatSync(join(box.homes.codexHome, 'config.toml')).mode & 0o777).toBe(0o640);
    expect(json(join(box.homes.claudeHome as string, 'settings.json'))).toEqual({ theme: 'dark', enabledPlugins: { 'other@claude-market': true, 'forms@wework': true } });
    expect(json(join(box.homes.claudeHome as string, 'plugins/installed_plugins.json'))).toMatchObject({
      version: 2,
      plugins: { 'forms@wework': [{ scope: 'user', version: '1.0.0', installPath: join(box.homes.claudeHome as string, 'plugins/cache/wework/forms/1.0.0') }] },
    });
    expect(json(join(box.homes.claudeHome as string, 'plugins/known_marketplaces.json'))).toHaveProperty('wework');
    expect(json(join(box.homes.codexHome, 'plugins/marketplaces/wework/.agents/plugins/marketplace.json'))).toEqual({
      name: 'wework',
      plugins: [{ name: 'forms', source: { source: 'local', path: '../../cache/wework/forms/1.0.0' } }],
    });
    expect(json(join(box.homes.stateDirectory, 'manifest.json'))).toMatchObject({ plugins: { 'forms@wework': { status: 'installed', version: '1.0.0' } } });
    // Nothing left behind: no journal, lock, stage, backup or temporary file.
    expect(readdirSync(box.homes.stateDirectory)).toEqual(['manifest.json']);
    expect(readdirSync(join(box.homes.codexHome, 'plugins/cache/wework/forms'))).toEqual(['1.0.0']);
  });

  it('an identical second install changes nothing', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const before = box.hash();
    expect(await commitChange(ports, box.homes, install('1.0.0'))()).toMatchObject({ right: { outcome: 'Unchanged' } });
    expect(box.hash()).toBe(before);
  });

  it('an update replaces the cache, removes the old version after commit and keeps a disabled plugin disabled', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const config = join(box.homes.codexHome, 'config.toml');
    writeFileSync(config, read(config).replace('[plugins."forms@wework"]\nenabled = true', '[plugins."forms@wework"]\nenabled = false # user said no'));
    const settings = join(box.homes.claudeHome as string, 'settings.json');
    writeFileSync(settings, read(settings).replace('"forms@wework": true', '"forms@wework": false'));
    expect(await commitChange(ports, box.homes, install('2.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(read(config)).toContain('[plugins."forms@wework"]\nenabled = false # user said no');
    expect(json(settings)).toMatchObject({ enabledPlugins: { 'forms@wework': false } });
    for (const home of [box.homes.codexHome, box.homes.claudeHome as string])
      expect(readdirSync(join(home, 'plugins/cache/wework/forms'))).toEqual(['2.0.0']);
    expect(json(join(box.homes.stateDirectory, 'manifest.json'))).toMatchObject({
      plugins: { 'forms@wework': { version: '2.0.0', caches: [{ home: 'codex', path: 'plugins/cache/wework/forms/2.0.0' }, { home: 'claude', path: 'plugins/cache/wework/forms/2.0.0' }] } },
    });
  });

  it('remove drops enablement and registrations, retains the caches and writes a tombstone', async () => {
    const box = newBox();
    const configBefore = read(join(box.homes.codexHome, 'config.toml'));
    await commitChange(ports, box.homes, install('1.0.0'))();
    expect(await commitChange(ports, box.homes, remove)()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(read(join(box.homes.codexHome, 'config.toml'))).toBe(configBefore);
    expect(json(join(box.homes.claudeHome as string, 'settings.json'))).toEqual({ theme: 'dark', enabledPlugins: { 'other@claude-market': true } });
    expect(json(join(box.homes.claudeHome as string, 'plugins/installed_plugins.json'))).toEqual({ version: 2, plugins: {} });
    expect(existsSync(join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'), 'skills/fill/SKILL.md'))).toBe(true);
    expect(json(join(box.homes.stateDirectory, 'manifest.json'))).toMatchObject({ plugins: { 'forms@wework': { status: 'uninstalled', caches: [{}, {}] } } });
  });

  it('a full disk at the tombstone write fails the removal as a typed value: nothing removed, no tombstone', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const before = box.hash();
    const failed: string[] = [];
    const diskFull = instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), async ({ operation, path }) => {
      if (operation !== 'writeFileDurable' || !path.includes('manifest.json')) return true;
      failed.push(path);
      return 'ENOSPC';
    });
    const removed = await commitChange({ fs: diskFull, host: createNodeHost() }, box.homes, remove)();
    expect(failed).toHaveLength(1);
    expect(removed).toMatchObject({ _tag: 'Left', left: { _tag: 'TransactionRolledBack', cause: { code: 'ENOSPC' }, failedStep: 'StageFile' } });
    expect(box.hash()).toBe(before);
    expect(json(join(box.homes.stateDirectory, 'manifest.json'))).toMatchObject({ plugins: { 'forms@wework': { status: 'installed' } } });
  });

  it('retained caches never resurrect an uninstalled plugin; an explicit reinstall reuses them', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    await commitChange(ports, box.homes, remove)();
    const afterRemove = box.hash();
    const report = await recoverAll(ports.fs, ports.host, box.homes)();
    expect(report).toEqual(E.right({ plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Nothing' } }], brokeStaleLock: 0 }));
    expect(await commitChange(ports, box.homes, install('1.0.0', '1.0.0', { respectUninstall: true }))()).toMatchObject({ right: { outcome: 'SkippedUninstalled' } });
    expect(box.hash()).toBe(afterRemove);
    expect(await commitChange(ports, box.homes, install('1.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(read(join(box.homes.codexHome, 'config.toml'))).toContain('[plugins."forms@wework"]\nenabled = true');
  });

  it('never replaces a destination it does not own', async () => {
    const box = newBox();
    const foreign = join(box.homes.claudeHome as string, cacheDirectoryOf(plugin, '1.0.0'));
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, 'mine.txt'), 'user data');
    const before = box.hash();
    expect(await commitChange(ports, box.homes, install('1.0.0'))()).toEqual(E.left({ _tag: 'OwnershipConflict', path: foreign }));
    expect(box.hash()).toBe(before);
  });

  it('a config.toml that does not parse aborts before anything is written', async () => {
    const box = newBox();
    writeFileSync(join(box.homes.codexHome, 'config.toml'), 'model = "unterminated\n');
    const before = box.hash();
    expect(await commitChange(ports, box.homes, install('1.0.0'))()).toMatchObject({ left: { _tag: 'ParseFailed', file: 'config.toml' } });
    expect(box.hash()).toBe(before);
  });

  it('an extraction failure aborts before anything is written', async () => {
    const box = newBox();
    const before = box.hash();
    const change: SyncChange = { _tag: 'Install', plugin, version: '1.0.0', at: 'x', source: { extract: () => async () => E.left({ _tag: 'ExtractionFailed', detail: 'truncated zip' }) } };
    expect(await commitChange(ports, box.homes, change)()).toEqual(E.left({ _tag: 'ExtractionFailed', detail: 'truncated zip' }));
    expect(box.hash()).toBe(before);
  });

  it.each([
    ['zip-slip path', { kind: 'file', path: '../../../.bashrc', mode: 0o644, bytes: new Uint8Array([1]) }, 'ParentSegment'],
    ['absolute path', { kind: 'file', path: '/etc/passwd', mode: 0o644, bytes: new Uint8Array([1]) }, 'AbsolutePath'],
    ['backslash traversal', { kind: 'file', path: 'skills\\..\\..\\x', mode: 0o644, bytes: new Uint8Array([1]) }, 'Backslash'],
    ['escaping symlink', { kind: 'symlink', path: 'skills/out', target: '../../..' }, 'EscapingSymlink'],
    ['absolute symlink', { kind: 'symlink', path: 'home', target: '/home' }, 'EscapingSymlink'],
    ['device entry', { kind: 'other', path: 'dev/sda', description: 'block device' }, 'SpecialFile'],
  ] as const)('rejects a hostile package (%s) and changes nothing on disk', async (_name, hostile, reason) => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const before = box.hash();
    const change: SyncChange = { _tag: 'Install', plugin, version: '2.0.0', at: 'x', source: sourceOf([...pluginPackage('2.0.0'), hostile]) };
    expect(await commitChange(ports, box.homes, change)()).toEqual(E.left({ _tag: 'PackageRejected', reason, entry: hostile.path }));
    expect(box.hash()).toBe(before);
  });

  it('a write failure at any step before the commit mark rolls everything back; after it, the change holds', async () => {
    // Every run happens at the same path, so trees compare byte for byte.
    const base = newBox();
    const at = (): Sandbox => sandboxAt(join(base.root, 'run'));
    // Count the mutations of a successful update, and its final state.
    const probe = at();
    await commitChange(ports, probe.homes, install('1.0.0'))();
    const oldHash = probe.hash();
    const counting = failingPorts(-1);
    expect(await commitChange(counting, probe.homes, install('2.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    const newHash = probe.hash();
    const total = counting.count();
    expect(total).toBeGreaterThan(30);
    const outcomes = new Set<string>();
    for (let k = 0; k < total; k++) {
      const box = at();
      await commitChange(ports, box.homes, install('1.0.0'))();
      expect(box.hash()).toBe(oldHash);
      const result = await commitChange(failingPorts(k), box.homes, install('2.0.0'))();
      const hash = box.hash();
      if (E.isLeft(result)) {
        expect(result.left._tag === 'TransactionRolledBack' || result.left._tag === 'FileSystemError').toBe(true);
        outcomes.add(result.left._tag);
        // A failed lock release leaves the lock of this (live) process: recover as a restarted process would.
        await recoverAll(ports.fs, restartedHost, box.homes, { timeoutMs: 1000 })();
        expect(box.hash(), `failure at mutation ${k}`).toBe(oldHash);
      } else {
        outcomes.add(result.right.cleanup);
        await recoverAll(ports.fs, restartedHost, box.homes, { timeoutMs: 1000 })();
        expect(box.hash(), `failure at mutation ${k}`).toBe(newHash);
      }
      expect(hash === oldHash || hash === newHash || E.isRight(result) || result.left._tag !== 'TransactionRolledBack').toBe(true);
    }
    // A failed cleanup step is finished at once: no single failure leaves the cleanup pending.
    expect(outcomes).toEqual(new Set(['TransactionRolledBack', 'done', 'FileSystemError']));
  }, 300_000);

  it('a cleanup step that fails after the commit mark is finished at once; when finishing fails too, the cleanup is pending and restart recovery finishes it', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    let failures = 0;
    const backupsFail = (): TransactionPorts => ({
      fs: instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), async ({ operation, path }) => !(operation === 'removeTree' && path.includes('.backup-')) || (failures++, 'EIO')),
      host: createNodeHost(),
    });
    const result = await commitChange(backupsFail(), box.homes, install('2.0.0'))();
    expect(result).toMatchObject({ right: { outcome: 'Committed', cleanup: 'pending' } });
    expect(failures).toBeGreaterThan(1);
    expect(readdirSync(box.homes.stateDirectory)).toContain('journal.forms@wework.json');
    expect(await recoverAll(ports.fs, ports.host, box.homes)()).toMatchObject({ right: { plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Finished' } }] } });
    expect(readdirSync(box.root, { recursive: true, encoding: 'utf8' }).filter((path) => path.includes('.backup-'))).toEqual([]);
    expect(readdirSync(box.homes.stateDirectory)).toEqual(['manifest.json']);
  });

  it('a full disk at any durable write (lock, journal, manifest) leaves no temporary file behind, answered at once, and the next install succeeds', async () => {
    const probe = fullDiskPorts(-1);
    const probeBox = newBox();
    expect(await commitChange(probe, probeBox.homes, install('1.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    const writes = probe.count();
    expect(writes).toBeGreaterThan(2);
    for (let k = 0; k < writes; k++) {
      const box = newBox();
      const before = box.hash();
      const result = await commitChange(fullDiskPorts(k), box.homes, install('1.0.0'))();
      expect(tempFilesUnder(box.root), `full disk at durable write ${k}`).toEqual([]);
      if (E.isLeft(result)) expect(box.hash(), `full disk at durable write ${k}`).toBe(before);
      expect(await commitChange(ports, box.homes, install('1.0.0'))(), `after a full disk at write ${k}`).toMatchObject({ right: { outcome: 'Committed' } });
      expect(tempFilesUnder(box.root)).toEqual([]);
    }
  }, 120_000);

  it('a check before the commit sees the published package, and its refusal leaves the homes exactly as before', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const before = box.hash();
    const seen: string[] = [];
    const refused = await commitChange(ports, box.homes, install('2.0.0'), {
      beforeCommit: async (published) => {
        seen.push(...published);
        // The new version is in place while the check runs.
        expect(existsSync(join(box.homes.codexHome, cacheDirectoryOf(plugin, '2.0.0')))).toBe(true);
        return E.left('authorization cancelled');
      },
    })();
    expect(refused).toEqual(E.left({ _tag: 'TransactionAborted', reason: 'authorization cancelled' }));
    expect(seen[0]).toBe(join(box.homes.codexHome, cacheDirectoryOf(plugin, '2.0.0')));
    expect(box.hash()).toBe(before);
    expect(await recoverAll(ports.fs, restartedHost, box.homes, { timeoutMs: 1000 })()).toMatchObject({ right: {} });
    expect(box.hash()).toBe(before);

    // A first install refused by the check leaves no trace either; an accepting check commits.
    const fresh = newBox();
    const empty = fresh.hash();
    expect(await commitChange(ports, fresh.homes, install('1.0.0'), { beforeCommit: async () => E.left('no') })()).toMatchObject({ left: { _tag: 'TransactionAborted' } });
    expect(fresh.hash()).toBe(empty);
    expect(await commitChange(ports, fresh.homes, install('1.0.0'), { beforeCommit: async () => E.right(undefined) })()).toMatchObject({ right: { outcome: 'Committed' } });
  });
});
