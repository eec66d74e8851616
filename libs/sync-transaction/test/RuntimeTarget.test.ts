/**
 * Codex-only mode (`runtimeTarget: 'codex'`): installs and updates never create or change anything
 * on the Claude side; a removal still deletes what an earlier dual-runtime installation left there —
 * the `installed_plugins.json` entry, the `settings.json` enablement and the Claude caches the
 * manifest records as ours — inside the same transaction (journal, rollback, recovery).
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { compareBundled } from '../src/BundledUpgrade.js';
import type { HostPort } from '../src/HostPort.js';
import type { PluginRef } from '@wework/plugin-inventory';
import { cacheDirectoryOf, runtimeHomes, type Homes } from '../src/Layout.js';
import { decodeManifest, emptyManifest, withRecord, type Manifest } from '../src/Manifest.js';
import { validatePackage } from '../src/Package.js';
import { claudeSideOf, filesToRead } from '../src/Plan.js';
import { recoverAll } from '../src/Recovery.js';
import { commitChange, type SyncChange, type TransactionPorts } from '../src/Transaction.js';
import { createNodeFileSystem, createNodeHost, createNodePorts } from '../src/node/index.js';
import { instrumentFileSystem, type Mutation } from '@wework/ports/testing';
import { pluginPackage, sandbox, sandboxAt, sourceOf, type Sandbox } from './support/homes.js';
import { hashTrees } from '@wework/test-support';

const plugin: PluginRef = { name: 'forms', marketplace: 'wework' };
const other: PluginRef = { name: 'notes', marketplace: 'wework' };
const ports = createNodePorts({ durability: 'none' });
const restarted: HostPort = { ...createNodeHost(), isAlive: () => async () => false };
const install = (version: string, which: PluginRef = plugin): SyncChange => ({ _tag: 'Install', plugin: which, version, source: sourceOf(pluginPackage(version)), at: '2025-07-01T00:00:00.000Z' });
const remove = (which: PluginRef = plugin): SyncChange => ({ _tag: 'Remove', plugin: which, at: '2025-08-01T00:00:00.000Z' });
const codexOnly = (homes: Homes): Homes => ({ ...homes, runtimeTarget: 'codex' });

const boxes: Sandbox[] = [];
const newBox = (): Sandbox => {
  const box = sandbox('sync-tx-target-');
  boxes.push(box);
  return box;
};
afterEach(() => {
  for (const box of boxes.splice(0)) box.remove();
});

const claudeOf = (box: Sandbox): string => box.homes.claudeHome as string;
const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const manifestOf = (box: Sandbox): Record<string, unknown> => json(join(box.homes.stateDirectory, 'manifest.json'));

describe('which homes a change touches', () => {
  const homes: Homes = { codexHome: '/h/codex', claudeHome: '/h/claude', stateDirectory: '/h/state' };
  const dual = withRecord(emptyManifest, plugin, {
    status: 'installed',
    version: '1.0.0',
    digest: 'd',
    caches: [{ home: 'codex', path: cacheDirectoryOf(plugin, '1.0.0') }, { home: 'claude', path: cacheDirectoryOf(plugin, '1.0.0') }],
    updatedAt: 'x',
  });
  const codexOnlyRecord = withRecord(emptyManifest, plugin, { status: 'installed', version: '1.0.0', digest: 'd', caches: [{ home: 'codex', path: cacheDirectoryOf(plugin, '1.0.0') }], updatedAt: 'x' });

  it('runtime homes: both by default, Codex only for the codex target or without a Claude home', () => {
    expect(runtimeHomes(homes)).toEqual(['codex', 'claude']);
    expect(runtimeHomes({ ...homes, runtimeTarget: 'dual' })).toEqual(['codex', 'claude']);
    expect(runtimeHomes(codexOnly(homes))).toEqual(['codex']);
    expect(runtimeHomes({ ...homes, claudeHome: null })).toEqual(['codex']);
  });

  it('the Claude side: written in dual mode, cleaned only by a Codex-only removal of a plugin with recorded Claude caches', () => {
    for (const tag of ['Install', 'Remove'] as const) {
      expect(claudeSideOf(homes, { _tag: tag, plugin }, emptyManifest)).toBe('write');
      expect(claudeSideOf({ ...homes, claudeHome: null, runtimeTarget: 'codex' }, { _tag: tag, plugin }, dual)).toBe('none');
      expect(claudeSideOf(codexOnly(homes), { _tag: tag, plugin }, codexOnlyRecord)).toBe('none');
      expect(claudeSideOf(codexOnly(homes), { _tag: tag, plugin }, emptyManifest)).toBe('none');
    }
    expect(claudeSideOf(codexOnly(homes), { _tag: 'Install', plugin }, dual)).toBe('none');
    expect(claudeSideOf(codexOnly(homes), { _tag: 'Remove', plugin }, dual)).toBe('cleanup');
    expect(claudeSideOf(codexOnly(homes), { _tag: 'Remove', plugin: other }, dual)).toBe('none');
  });

  it('a Codex-only install does not even read the Claude files; a cleanup reads them', () => {
    const pkg = validatePackage(pluginPackage('1.0.0'));
    if (E.isLeft(pkg)) throw new Error(pkg.left._tag);
    const change = { _tag: 'Install' as const, plugin, version: '1.0.0', package: pkg.right, enabled: 'preserve' as const, at: 'x' };
    expect(filesToRead(codexOnly(homes), plugin, { change, manifest: dual }).every((path) => path.startsWith('/h/codex/'))).toBe(true);
    expect(filesToRead(codexOnly(homes), plugin, { change: { _tag: 'Remove', plugin, at: 'x' }, manifest: dual })).toContain('/h/claude/settings.json');
    expect(filesToRead(homes, plugin)).toContain('/h/claude/plugins/installed_plugins.json');
  });
});

describe('Codex-only mode on real homes', () => {
  it('install, update and removal of a plugin never installed for Claude leave the Claude home byte for byte as it was', async () => {
    const box = newBox();
    const homes = codexOnly(box.homes);
    const claudeBefore = hashTrees(claudeOf(box));
    expect(await commitChange(ports, homes, install('1.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(readFileSync(join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'), 'skills/fill/SKILL.md'), 'utf8')).toContain('Fill forms (1.0.0)');
    expect(readFileSync(join(box.homes.codexHome, 'config.toml'), 'utf8')).toContain('[plugins."forms@wework"]\nenabled = true');
    expect(manifestOf(box)).toMatchObject({ plugins: { 'forms@wework': { status: 'installed', caches: [{ home: 'codex', path: cacheDirectoryOf(plugin, '1.0.0') }] } } });
    expect(hashTrees(claudeOf(box))).toBe(claudeBefore);
    expect(await commitChange(ports, homes, install('2.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(readdirSync(join(box.homes.codexHome, 'plugins/cache/wework/forms'))).toEqual(['2.0.0']);
    expect(hashTrees(claudeOf(box))).toBe(claudeBefore);
    expect(await commitChange(ports, homes, remove())()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(hashTrees(claudeOf(box))).toBe(claudeBefore);
    expect(manifestOf(box)).toMatchObject({ plugins: { 'forms@wework': { status: 'uninstalled', caches: [{ home: 'codex' }] } } });
  });

  it('a Codex-only install does not depend on the Claude registries (one a dual install cannot parse)', async () => {
    const box = newBox();
    writeFileSync(join(claudeOf(box), 'plugins/installed_plugins.json'), '[]');
    // A dual install refuses: it would have to edit that file.
    expect(await commitChange(ports, box.homes, install('1.0.0'))()).toMatchObject({ left: { _tag: 'ParseFailed', file: 'installed_plugins.json' } });
    const claudeBefore = hashTrees(claudeOf(box));
    expect(await commitChange(ports, codexOnly(box.homes), install('1.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(hashTrees(claudeOf(box))).toBe(claudeBefore);
  });

  it('an update of a plugin installed for both runtimes changes nothing on the Claude side and keeps its Claude cache recorded', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const claudeBefore = hashTrees(claudeOf(box));
    expect(await commitChange(ports, codexOnly(box.homes), install('2.0.0'))()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(hashTrees(claudeOf(box))).toBe(claudeBefore);
    expect(readdirSync(join(box.homes.codexHome, 'plugins/cache/wework/forms'))).toEqual(['2.0.0']);
    expect(manifestOf(box)).toMatchObject({
      plugins: { 'forms@wework': { version: '2.0.0', caches: [{ home: 'claude', path: cacheDirectoryOf(plugin, '1.0.0') }, { home: 'codex', path: cacheDirectoryOf(plugin, '2.0.0') }] } },
    });
    // Removal then cleans the Claude state the dual install left, whatever version it was.
    expect(await commitChange(ports, codexOnly(box.homes), remove())()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(existsSync(join(claudeOf(box), cacheDirectoryOf(plugin, '1.0.0')))).toBe(false);
    expect(json(join(claudeOf(box), 'plugins/installed_plugins.json'))).toEqual({ version: 2, plugins: {} });
  });

  it('a removal deletes the Claude registration, enablement and recorded caches of an earlier dual install, and nothing else', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0', other))();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const settings = join(claudeOf(box), 'settings.json');
    const installed = join(claudeOf(box), 'plugins/installed_plugins.json');
    const known = join(claudeOf(box), 'plugins/known_marketplaces.json');
    const knownBefore = readFileSync(known, 'utf8');
    const otherCache = join(claudeOf(box), cacheDirectoryOf(other, '1.0.0'));
    const otherCacheBefore = hashTrees(otherCache);
    const codexCacheBefore = hashTrees(join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0')));

    const result = await commitChange(ports, codexOnly(box.homes), remove())();
    expect(result).toMatchObject({ right: { outcome: 'Committed', cleanup: 'done' } });
    const published = E.isRight(result) ? result.right.published : [];
    expect(published).toEqual(expect.arrayContaining([join(claudeOf(box), cacheDirectoryOf(plugin, '1.0.0')), settings, installed]));

    expect(json(settings)).toEqual({ theme: 'dark', enabledPlugins: { 'other@claude-market': true, 'notes@wework': true } });
    expect(Object.keys((json(installed) as { plugins: object }).plugins)).toEqual(['notes@wework']);
    expect(readdirSync(join(claudeOf(box), 'plugins/cache/wework'))).toEqual(['forms', 'notes']);
    expect(readdirSync(join(claudeOf(box), 'plugins/cache/wework/forms'))).toEqual([]);
    expect(readFileSync(known, 'utf8')).toBe(knownBefore);
    expect(hashTrees(otherCache)).toBe(otherCacheBefore);
    // The Codex cache is retained as for every uninstall; the tombstone no longer records the Claude cache.
    expect(hashTrees(join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0')))).toBe(codexCacheBefore);
    expect(manifestOf(box)).toMatchObject({ plugins: { 'forms@wework': { status: 'uninstalled', caches: [{ home: 'codex', path: cacheDirectoryOf(plugin, '1.0.0') }] } } });
    expect((manifestOf(box) as { plugins: Record<string, { caches: unknown[] }> }).plugins['forms@wework']?.caches).toHaveLength(1);
    // No stage, backup or journal left anywhere.
    expect(readdirSync(box.homes.stateDirectory)).toEqual(['manifest.json']);
    expect(readdirSync(join(claudeOf(box), 'plugins')).filter((name) => name.startsWith('.'))).toEqual([]);
    // Cleaned up once: a second removal has no Claude work left and leaves the Claude home alone.
    const manifest = decodeManifest(readFileSync(join(box.homes.stateDirectory, 'manifest.json'), 'utf8'));
    expect(E.map((m: Manifest) => claudeSideOf(codexOnly(box.homes), { _tag: 'Remove', plugin }, m))(manifest)).toEqual(E.right('none'));
    const claudeAfter = hashTrees(claudeOf(box));
    await commitChange(ports, codexOnly(box.homes), remove())();
    expect(hashTrees(claudeOf(box))).toBe(claudeAfter);
  });

  it('a tombstone from a dual removal still records retained Claude caches: a Codex-only removal deletes them', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    await commitChange(ports, box.homes, remove())();
    const claudeCache = join(claudeOf(box), cacheDirectoryOf(plugin, '1.0.0'));
    expect(existsSync(claudeCache)).toBe(true);
    expect(await commitChange(ports, codexOnly(box.homes), remove())()).toMatchObject({ right: { outcome: 'Committed' } });
    expect(existsSync(claudeCache)).toBe(false);
    expect(manifestOf(box)).toMatchObject({ plugins: { 'forms@wework': { status: 'uninstalled', caches: [{ home: 'codex' }] } } });
  });

  it('a recorded Claude cache that is already gone is dropped from the record without a removal', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const claudeCache = join(claudeOf(box), cacheDirectoryOf(plugin, '1.0.0'));
    rmSync(claudeCache, { recursive: true });
    const result = await commitChange(ports, codexOnly(box.homes), remove())();
    expect(result).toMatchObject({ right: { outcome: 'Committed' } });
    expect(E.isRight(result) && result.right.published.includes(claudeCache)).toBe(false);
    expect(json(join(claudeOf(box), 'plugins/installed_plugins.json'))).toEqual({ version: 2, plugins: {} });
  });

  it('bundled comparison in Codex-only mode looks at the Codex cache only', async () => {
    const box = newBox();
    const homes = codexOnly(box.homes);
    await commitChange(ports, homes, install('1.0.0'))();
    const pkg = validatePackage(pluginPackage('1.0.0'));
    if (E.isLeft(pkg)) throw new Error(pkg.left._tag);
    expect(await compareBundled(ports.fs, homes, plugin, '1.0.0', pkg.right)()).toEqual(E.right({ _tag: 'UpToDate' }));
    expect(await compareBundled(ports.fs, box.homes, plugin, '1.0.0', pkg.right)()).toEqual(E.right({ _tag: 'Differs', reason: 'CacheChanged' }));
  });
});

describe('the Codex-only cleanup is one transaction', () => {
  /** Ports whose file system fails the `failAt`-th mutation (0-based) with EIO. */
  const failingPorts = (failAt: number): TransactionPorts & { readonly count: () => number } => {
    let n = 0;
    const fs = instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), async ({ index }) => {
      n = index + 1;
      return index !== failAt;
    });
    return { fs, host: createNodeHost(), count: () => n };
  };

  it('a write failure at any step before the commit mark leaves both homes as before; after it, the removal holds', async () => {
    const base = newBox();
    const at = async (): Promise<Sandbox> => {
      const box = sandboxAt(join(base.root, 'run'));
      await commitChange(ports, box.homes, install('1.0.0'))();
      return box;
    };
    const probe = await at();
    const oldHash = probe.hash();
    const counting = failingPorts(-1);
    expect(await commitChange(counting, codexOnly(probe.homes), remove())()).toMatchObject({ right: { outcome: 'Committed' } });
    const newHash = probe.hash();
    const total = counting.count();
    const outcomes = new Set<string>();
    for (let k = 0; k < total; k++) {
      const box = await at();
      const result = await commitChange(failingPorts(k), codexOnly(box.homes), remove())();
      await recoverAll(ports.fs, restarted, box.homes, { timeoutMs: 1000 })();
      outcomes.add(E.isLeft(result) ? result.left._tag : result.right.cleanup);
      expect(box.hash(), `failure at mutation ${k}`).toBe(E.isLeft(result) ? oldHash : newHash);
    }
    // A failed cleanup step is finished at once: no single failure leaves the cleanup pending.
    expect(outcomes).toEqual(new Set(['TransactionRolledBack', 'done', 'FileSystemError']));
  }, 120_000);

  it('stopped after publishing, before the commit mark: restart recovery puts the Claude registration, enablement and cache back', async () => {
    const box = newBox();
    await commitChange(ports, box.homes, install('1.0.0'))();
    const before = box.hash();
    const claudeCache = join(claudeOf(box), cacheDirectoryOf(plugin, '1.0.0'));
    let reached!: () => void;
    const frozen = new Promise<void>((resolve) => (reached = resolve));
    const stop = (m: Mutation): boolean => m.operation === 'writeFileDurable' && m.path.includes('/.journal.') && !existsSync(claudeCache);
    const fs = instrumentFileSystem(createNodeFileSystem({ durability: 'none' }), (m) => {
      if (!stop(m)) return Promise.resolve(true);
      reached();
      return new Promise<boolean>(() => undefined);
    });
    void commitChange({ fs, host: createNodeHost() }, codexOnly(box.homes), remove())();
    await frozen;
    expect(existsSync(claudeCache)).toBe(false);
    const report = await recoverAll(ports.fs, restarted, box.homes)();
    expect(report).toMatchObject({ right: { plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'RolledBack' } }] } });
    expect(box.hash()).toBe(before);
  });
});
