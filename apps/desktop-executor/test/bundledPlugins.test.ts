/**
 * The bundled plugins over the real cloud plugin sync on a real disk (the app-server stubbed: a reload
 * or a restart always succeeds): a user's uninstall is recorded by the sync manifest's tombstone in
 * the removal's own transaction, so it holds across restarts — each restart is a new instance over the
 * same homes — until an explicit install; a full disk at the tombstone's write fails the uninstall as
 * a typed value with nothing removed and synchronisation resumed; a check that finds the plugin
 * uninstalled behind the state machine's back never announces `ok`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginRef, StatusChange } from '@wework/plugin-inventory';
import type { Homes } from '@wework/sync-transaction';
import { createNodePorts } from '@wework/sync-transaction/node';
import { instrumentFileSystem } from '@wework/ports/testing';
import { until } from '@wework/test-support';
import type { PluginService } from '../src/host/PluginService.js';
import { bundledPlugins, type BundledPlugins } from '../src/plugins/BundledPlugins.js';
import { pluginHomesOf } from '../src/plugins/PluginDirectoryRecovery.js';
import { pluginSync, type PluginSync } from '../src/plugins/PluginSync.js';
import { syncedPluginService } from '../src/plugins/SyncedPluginService.js';
import type { LogEntry } from '@wework/ports';
import type { RuntimeSupervisor } from '../src/runtime/RuntimeSupervisor.js';
import { treeLines } from './support/treeLines.js';

const REF: PluginRef = { name: 'wework-space', marketplace: 'wework' } as PluginRef;
const PLUGIN_ID = 'wework-space@wework';

/** An app-server that reloads and restarts at once (the sync asks it to apply each change). */
const stubRuntime = { current: () => ({ server: { client: { request: async () => E.right({}) } } }), restart: async () => E.right(undefined) } as unknown as RuntimeSupervisor;

async function writePackage(dir: string, version: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/greet'), { recursive: true });
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'wework-space', version, skills: './skills/' }));
  await writeFile(join(dir, 'skills/greet/SKILL.md'), `---\nname: greet\ndescription: Greets (${version})\n---\n\nHello.\n`);
}

interface Box {
  readonly root: string;
  readonly executorHome: string;
  readonly homes: Homes;
  readonly bundled: string;
  readonly older: string;
  readonly sync: PluginSync;
  readonly service: PluginService;
  /** The next write of the manifest fails as a full disk does (once per call). */
  diskFullOnce(): void;
}

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function newBox(): Promise<Box> {
  const root = await mkdtemp(join(tmpdir(), 'executor-bundled-unit-'));
  roots.push(root);
  const executorHome = join(root, 'executor');
  const codexHome = join(executorHome, 'codex');
  await mkdir(codexHome, { recursive: true });
  await writeFile(join(codexHome, 'config.toml'), '', { mode: 0o600 });
  const homes = pluginHomesOf(executorHome, codexHome);
  const bundled = join(root, 'app/wework-space');
  const older = join(root, 'downloads/wework-space');
  await writePackage(bundled, '2.0.0');
  await writePackage(older, '1.0.0');
  const base = createNodePorts({ durability: 'none' });
  let diskFull = false;
  const fs = instrumentFileSystem(base.fs, async ({ operation, path }) => {
    if (!diskFull || operation !== 'writeFileDurable' || !path.includes('manifest.json')) return true;
    diskFull = false;
    return 'ENOSPC';
  });
  const sync = pluginSync({ ports: { fs, host: base.host }, homes, runtime: stubRuntime, log: () => undefined, now: () => new Date().toISOString() });
  return { root, executorHome, homes, bundled, older, sync, service: syncedPluginService(sync, homes), diskFullOnce: () => (diskFull = true) };
}

interface Instance {
  readonly bundled: BundledPlugins;
  readonly changes: StatusChange[];
  readonly log: LogEntry[];
}

/** One executor start over the box's homes: a new state machine, the same disk. */
function start(box: Box): Instance {
  const changes: StatusChange[] = [];
  const log: LogEntry[] = [];
  const bundled = bundledPlugins({
    directories: [box.bundled],
    sync: async () => box.sync,
    homes: box.homes,
    notify: (change) => changes.push(change),
    inventory: { status: async () => undefined, upgraded: () => undefined },
    log: (entry) => log.push(entry),
  });
  return { bundled, changes, log };
}

const recordStatus = async (box: Box): Promise<unknown> => {
  const manifest = JSON.parse(await readFile(join(box.homes.stateDirectory, 'manifest.json'), 'utf8')) as { plugins: Record<string, { status: string }> };
  return manifest.plugins[PLUGIN_ID]?.status;
};
const kinds = (instance: Instance): ReadonlyArray<string> => instance.changes.map((change) => change.status.kind);
const uninstall = (box: Box, instance: Instance) => instance.bundled.uninstall(REF, () => box.service.uninstall({ pluginId: PLUGIN_ID }));

describe('bundled plugins over the real sync', () => {
  it('an uninstall holds across two restarts: retries refused, nothing checked or announced; an explicit install resumes', async () => {
    const box = await newBox();
    const first = start(box);
    await first.bundled.checkAll();
    await first.bundled.idle();
    expect(kinds(first)).toEqual(['updating', 'ok']);

    expect(await uninstall(box, first)).toEqual(E.right(undefined));
    expect(await recordStatus(box)).toBe('uninstalled');
    expect(await first.bundled.retry(PLUGIN_ID)).toEqual(E.left({ _tag: 'UpdatePaused', pluginId: PLUGIN_ID }));

    for (const restart of [1, 2]) {
      const again = start(box);
      // A retry before the start-up check already knows: the pause is restored before anything is admitted.
      expect(await again.bundled.retry(PLUGIN_ID), `restart ${restart}`).toEqual(E.left({ _tag: 'UpdatePaused', pluginId: PLUGIN_ID }));
      await again.bundled.checkAll();
      await again.bundled.idle();
      expect(await again.bundled.retry(PLUGIN_ID)).toEqual(E.left({ _tag: 'UpdatePaused', pluginId: PLUGIN_ID }));
      expect(again.changes).toEqual([]);
      expect(again.log.find((entry) => entry.event === 'bundled plugins checked')?.fields).toMatchObject({ packages: 1, admitted: 0, paused: 1 });
      expect(await recordStatus(box)).toBe('uninstalled');
      expect(await box.service.list()).toEqual(E.right([]));
    }

    const last = start(box);
    await last.bundled.checkAll();
    expect(await box.service.install({ marketplace: 'wework', plugin: 'wework-space', version: '1.0.0', packagePath: box.older })).toMatchObject({ right: { installed: true } });
    last.bundled.reinstalled(REF);
    // The reinstall's check runs in the background: wait for its two changes.
    await until("the reinstall's two changes", () => last.changes.length >= 2, 5_000);
    await last.bundled.idle();
    expect(last.changes.map((change) => [change.status.kind, change.version])).toEqual([
      ['updating', '2.0.0'],
      ['ok', '2.0.0'],
    ]);
    expect(await recordStatus(box)).toBe('installed');
  });

  it('a full disk at the tombstone write: the uninstall fails as a typed value, nothing is removed, synchronisation resumes (also after a restart)', async () => {
    const box = await newBox();
    const first = start(box);
    await first.bundled.checkAll();
    await first.bundled.idle();
    const before = treeLines(box.executorHome).join('\n');

    box.diskFullOnce();
    const removed = await uninstall(box, first);
    expect(removed).toMatchObject({ _tag: 'Left', left: { _tag: 'PluginOperationFailed' } });
    expect(treeLines(box.executorHome).join('\n')).toBe(before);
    expect(await recordStatus(box)).toBe('installed');
    // Not paused: a retry is admitted and ends ok (the plugin is there).
    expect(await first.bundled.retry(PLUGIN_ID)).toEqual(E.right({ kind: 'updating' }));
    await first.bundled.idle();
    expect(kinds(first)).toEqual(['updating', 'ok', 'updating', 'ok']);

    const again = start(box);
    await again.bundled.checkAll();
    expect(await again.bundled.retry(PLUGIN_ID)).toEqual(E.right({ kind: 'updating' }));
    await again.bundled.idle();
    expect(kinds(again)).toEqual(['updating', 'ok']);
  });

  it('a check that finds the plugin uninstalled behind the state machine never announces ok, and pauses it', async () => {
    const box = await newBox();
    const instance = start(box);
    await instance.bundled.checkAll();
    await instance.bundled.idle();
    // The tombstone is written without this instance hearing of it.
    expect(await box.sync.remove(REF)).toMatchObject({ _tag: 'Right' });
    expect(await instance.bundled.retry(PLUGIN_ID)).toEqual(E.right({ kind: 'updating' }));
    await instance.bundled.idle();
    expect(instance.changes.slice(2)).toEqual([
      { pluginId: PLUGIN_ID, status: { kind: 'updating' }, version: '2.0.0' },
      { pluginId: PLUGIN_ID, status: { kind: 'updateFailed', reason: 'Uninstalled' }, version: null },
    ]);
    expect(await instance.bundled.retry(PLUGIN_ID)).toEqual(E.left({ _tag: 'UpdatePaused', pluginId: PLUGIN_ID }));
  });
});
