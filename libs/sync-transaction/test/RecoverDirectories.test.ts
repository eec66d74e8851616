/**
 * Start-up directory recovery over real directories: unchanged homes cost no package read; moved homes
 * are rebuilt for the new place (registrations rewritten, the old place untouched); a plugin whose
 * package is gone, or whose destination is occupied, needs repair while the others recover; a
 * tombstone stays uninstalled; a version 1 manifest goes through the same flow; a disabled plugin stays
 * disabled; recovering twice is recovering once.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileSystemPort } from '@wework/ports';
import type { PluginRef } from '@wework/plugin-inventory';
import { cacheDirectoryOf, type Homes } from '../src/Layout.js';
import { recoverDirectories, type DirectoryRecoveryPorts } from '../src/RecoverDirectories.js';
import { commitChange, type PackageSource } from '../src/Transaction.js';
import { createNodePorts, directoryPackageSource } from '../src/node/index.js';
import { pluginPackage, sourceOf } from './support/homes.js';
import { hashTrees } from '@wework/test-support';

const forms: PluginRef = { name: 'forms', marketplace: 'wework' };
const notes: PluginRef = { name: 'notes', marketplace: 'wework' };
const at = '2025-06-01T00:00:00.000Z';
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const homesAt = (root: string): Homes => ({
  codexHome: join(root, 'executor', 'codex'),
  claudeHome: join(root, 'executor', 'claude'),
  stateDirectory: join(root, 'executor', 'plugin-state'),
  packageStore: join(root, 'executor', 'plugin-state', 'packages'),
});

/** A package as the host hands them over (the directory intake refuses links, so retained packages have none). */
const packageOf = (plugin: PluginRef, version: string) =>
  pluginPackage(version).filter((entry) => entry.kind !== 'symlink').map((entry) =>
    entry.kind === 'file' && entry.path === '.codex-plugin/plugin.json' ? { ...entry, bytes: new TextEncoder().encode(JSON.stringify({ name: plugin.name, version })) } : entry,
  );

/** Node ports that count package opens and content reads. */
const countingPorts = () => {
  const base = createNodePorts({ durability: 'none' });
  const counts = { opened: 0, readFile: 0, digestFile: 0 };
  const fs: FileSystemPort = {
    ...base.fs,
    readFile: (path, options) => (counts.readFile++, base.fs.readFile(path, options)),
    digestFile: (path) => (counts.digestFile++, base.fs.digestFile(path)),
  };
  const ports: DirectoryRecoveryPorts = {
    fs,
    host: base.host,
    openPackage: (path): PackageSource => {
      counts.opened++;
      return directoryPackageSource(path);
    },
  };
  return { ports, counts };
};

async function installed(): Promise<{ root: string; homes: Homes }> {
  const root = mkdtempSync(join(tmpdir(), 'sync-dir-recovery-'));
  roots.push(root);
  const homes = homesAt(root);
  mkdirSync(homes.codexHome, { recursive: true });
  writeFileSync(join(homes.codexHome, 'config.toml'), '# mine\nmodel = "m"\n\n[[skills.config]]\nname = "forms:fill"\nenabled = false\n');
  const ports = createNodePorts({ durability: 'none' });
  for (const plugin of [forms, notes]) expect(await commitChange(ports, homes, { _tag: 'Install', plugin, version: '1.0.0', source: sourceOf(packageOf(plugin, '1.0.0')), at })()).toMatchObject({ right: { outcome: 'Committed' } });
  return { root, homes };
}

/** Moves the whole executor directory to a new root. */
function moved(from: string, keepOld = false): { root: string; homes: Homes } {
  const root = mkdtempSync(join(tmpdir(), 'sync-dir-moved-'));
  roots.push(root);
  cpSync(join(from, 'executor'), join(root, 'executor'), { recursive: true, verbatimSymlinks: true });
  if (!keepOld) rmSync(from, { recursive: true, force: true });
  return { root, homes: homesAt(root) };
}

const json = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('start-up directory recovery', () => {
  it('unchanged homes with complete caches: every plugin Unchanged, no package opened, no file content read', async () => {
    const { homes } = await installed();
    const { ports, counts } = countingPorts();
    const report = await recoverDirectories(ports, homes, { at })();
    expect(report).toEqual(E.right({ plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Unchanged' } }, { plugin: 'notes@wework', outcome: { _tag: 'Unchanged' } }] }));
    // One read: the manifest itself.
    expect(counts).toEqual({ opened: 0, readFile: 1, digestFile: 0 });
  });

  it('a moved home is rebuilt for the new place: Claude registrations point into it, settings kept; a second check is Unchanged', async () => {
    const before = await installed();
    // The old place is still there (a copy, not a move): recovery never reads, claims or changes it.
    const { root, homes } = moved(before.root, true);
    const oldHash = hashTrees(before.root);
    const config = readFileSync(join(homes.codexHome, 'config.toml'), 'utf8');
    const { ports, counts } = countingPorts();
    const report = await recoverDirectories(ports, homes, { at })();
    expect(report).toEqual(E.right({ plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Rebuilt', reason: 'HomeMoved' } }, { plugin: 'notes@wework', outcome: { _tag: 'Rebuilt', reason: 'HomeMoved' } }] }));
    expect(counts.opened).toBe(2);
    const registry = json(join(homes.claudeHome as string, 'plugins/installed_plugins.json')) as { plugins: Record<string, Array<{ installPath: string }>> };
    expect(registry.plugins['forms@wework']?.[0]?.installPath).toBe(join(homes.claudeHome as string, cacheDirectoryOf(forms, '1.0.0')));
    expect(JSON.stringify(registry)).not.toContain(before.root);
    expect(json(join(homes.stateDirectory, 'manifest.json'))).toMatchObject({ version: 2, plugins: { 'forms@wework': { installedFor: { codexHome: homes.codexHome } } } });
    // config.toml: enablement and component settings (the skill switch) kept byte for byte.
    expect(readFileSync(join(homes.codexHome, 'config.toml'), 'utf8')).toBe(config);
    expect(hashTrees(before.root)).toBe(oldHash);

    const hash = hashTrees(root);
    const again = countingPorts();
    expect(await recoverDirectories(again.ports, homes, { at })()).toMatchObject({ right: { plugins: [{ outcome: { _tag: 'Unchanged' } }, { outcome: { _tag: 'Unchanged' } }] } });
    expect(again.counts.opened).toBe(0);
    expect(hashTrees(root)).toBe(hash);
  });

  it('a plugin whose package is gone needs repair (and nothing of it changes) while the other is rebuilt', async () => {
    const { homes } = moved((await installed()).root);
    rmSync(join(homes.packageStore as string, 'wework/notes'), { recursive: true });
    const registryBefore = readFileSync(join(homes.claudeHome as string, 'plugins/installed_plugins.json'), 'utf8');
    const report = await recoverDirectories(countingPorts().ports, homes, { at })();
    expect(report).toEqual(E.right({ plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'Rebuilt', reason: 'HomeMoved' } }, { plugin: 'notes@wework', outcome: { _tag: 'RepairRequired', reason: 'PackageMissing' } }] }));
    const registry = json(join(homes.claudeHome as string, 'plugins/installed_plugins.json')) as { plugins: Record<string, Array<{ installPath: string }>> };
    expect(registry.plugins['notes@wework']).toEqual((JSON.parse(registryBefore) as typeof registry).plugins['notes@wework']);
  });

  it('a package whose content no longer matches its record needs repair (PackageInvalid)', async () => {
    const { homes } = moved((await installed()).root);
    writeFileSync(join(homes.packageStore as string, 'wework/forms/1.0.0/bin/run.sh'), '#!/bin/sh\necho changed\n');
    const report = await recoverDirectories(countingPorts().ports, homes, { at })();
    expect(report).toMatchObject({ right: { plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'RepairRequired', reason: 'PackageInvalid' } }, { outcome: { _tag: 'Rebuilt' } }] } });
  });

  it('an occupied destination the manifest does not record as ours needs repair; nothing is overwritten', async () => {
    const { homes } = moved((await installed()).root);
    const manifestPath = join(homes.stateDirectory, 'manifest.json');
    const manifest = json(manifestPath) as { plugins: Record<string, { caches: Array<{ home: string }> }> };
    const record = manifest.plugins['forms@wework'];
    if (record !== undefined) record.caches = record.caches.filter((cache) => cache.home !== 'claude');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const occupied = join(homes.claudeHome as string, cacheDirectoryOf(forms, '1.0.0'));
    writeFileSync(join(occupied, 'mine.txt'), 'not the plugin');
    const hash = hashTrees(occupied);
    const report = await recoverDirectories(countingPorts().ports, homes, { at })();
    expect(report).toMatchObject({ right: { plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'RepairRequired', reason: 'DestinationOccupied' } }, { outcome: { _tag: 'Rebuilt' } }] } });
    expect(hashTrees(occupied)).toBe(hash);
  });

  it('an uninstalled plugin stays uninstalled after a move, although its caches and package are retained', async () => {
    const first = await installed();
    expect(await commitChange(createNodePorts({ durability: 'none' }), first.homes, { _tag: 'Remove', plugin: notes, at })()).toMatchObject({ right: { outcome: 'Committed' } });
    const { homes } = moved(first.root);
    const report = await recoverDirectories(countingPorts().ports, homes, { at })();
    expect(report).toMatchObject({ right: { plugins: [{ outcome: { _tag: 'Rebuilt' } }, { plugin: 'notes@wework', outcome: { _tag: 'Tombstone' } }] } });
    expect(readFileSync(join(homes.codexHome, 'config.toml'), 'utf8')).not.toContain('notes@wework');
    expect(json(join(homes.stateDirectory, 'manifest.json'))).toMatchObject({ plugins: { 'notes@wework': { status: 'uninstalled' } } });
  });

  it('a version 1 manifest (as earlier executors wrote it, no package store) is migrated and rebuilt from its verified cache', async () => {
    const { homes } = await installed();
    const manifestPath = join(homes.stateDirectory, 'manifest.json');
    const v2 = json(manifestPath) as { plugins: Record<string, Record<string, unknown>> };
    const v1 = {
      version: 1,
      plugins: Object.fromEntries(Object.entries(v2.plugins).map(([key, r]) => [key, { status: r['status'], version: r['version'], digest: r['digest'], caches: r['caches'], updatedAt: r['updatedAt'] }])),
    };
    writeFileSync(manifestPath, `${JSON.stringify(v1, null, 2)}\n`);
    rmSync(homes.packageStore as string, { recursive: true });
    const report = await recoverDirectories(countingPorts().ports, homes, { at })();
    expect(report).toMatchObject({ right: { plugins: [{ outcome: { _tag: 'Rebuilt', reason: 'HomeUnknown' } }, { outcome: { _tag: 'Rebuilt', reason: 'HomeUnknown' } }] } });
    expect(json(manifestPath)).toMatchObject({ version: 2, plugins: { 'forms@wework': { package: { version: '1.0.0' }, installedFor: { codexHome: homes.codexHome } } } });
    expect(await recoverDirectories(countingPorts().ports, homes, { at })()).toMatchObject({ right: { plugins: [{ outcome: { _tag: 'Unchanged' } }, { outcome: { _tag: 'Unchanged' } }] } });
  });

  it('a disabled plugin stays disabled through a rebuild of a missing cache', async () => {
    const { homes } = await installed();
    const configPath = join(homes.codexHome, 'config.toml');
    writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('[plugins."forms@wework"]\nenabled = true', '[plugins."forms@wework"]\nenabled = false'));
    rmSync(join(homes.codexHome, cacheDirectoryOf(forms, '1.0.0')), { recursive: true });
    const report = await recoverDirectories(countingPorts().ports, homes, { at })();
    expect(report).toMatchObject({ right: { plugins: [{ outcome: { _tag: 'Rebuilt', reason: 'CacheIncomplete' } }, { outcome: { _tag: 'Unchanged' } }] } });
    expect(readFileSync(configPath, 'utf8')).toContain('[plugins."forms@wework"]\nenabled = false');
    expect(readFileSync(join(homes.codexHome, cacheDirectoryOf(forms, '1.0.0'), '.codex-plugin/plugin.json'), 'utf8')).toContain('"forms"');
  });
});
