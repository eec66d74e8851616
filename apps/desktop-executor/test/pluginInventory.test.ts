/**
 * The executor's inventory service over a scripted Codex and a fake clock: an accepted installation that
 * Codex does not list yet is shown as `installing` for at most five minutes from its original
 * `acceptedAt` (also across a restart of the executor, from the saved receipts); a legacy receipt never
 * overrides Codex; while Codex cannot answer, the durable snapshot answers, without long descriptions.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { RECEIPT_WINDOW_MS, type ListedPlugin, type PluginRef } from '@wework/plugin-inventory';
import { fileSystemError, type FileSystemPort } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import type { LogEntry } from '@wework/ports';
import { pluginInventory, type InventoryCodex, type ListedLocation } from '../src/plugins/PluginInventory.js';
import { fakeClock } from './support/fakeClock.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NOTES: PluginRef = { name: 'notes', marketplace: 'alpha' };
const listedNotes: ListedPlugin & ListedLocation = {
  ref: NOTES,
  marketplacePath: '/markets/alpha/.agents/plugins/marketplace.json',
  enabled: true,
  version: '1.0.0',
  description: 'A long description that stays in memory',
  presentation: { displayName: 'Notes', shortDescription: 'Jots', longDescription: 'LONG-TEXT', defaultPrompt: ['Jot it'], screenshots: ['/shot.png'] },
};

/** A Codex whose `plugin/installed` answers `listed()` (or fails when `null`). */
function scriptedCodex(listed: () => ReadonlyArray<ListedPlugin & ListedLocation> | null): InventoryCodex {
  return {
    installed: async () => {
      const plugins = listed();
      return plugins === null ? E.left('plugin/installed failed (ConnectionClosed)') : E.right(plugins);
    },
    config: async () => (listed() === null ? E.left('config/read failed (ConnectionClosed)') : E.right({ plugins: [], apps: {} })),
    read: async () => E.right({ skills: [{ name: 'notes:jot', path: '/cache/notes/skills/jot/SKILL.md', enabled: true }], apps: [] }),
  };
}

async function directory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'inventory-unit-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const service = (dir: string, codex: InventoryCodex, clock: { now(): number }) =>
  pluginInventory({ codex, directory: dir, cloudPlugins: async () => [], clock, deviceId: 'device-1', log: () => undefined });

const statuses = async (inventory: ReturnType<typeof service>) => {
  const view = await inventory.view();
  if (E.isLeft(view)) throw new Error(view.left.reason);
  return view.right.plugins.map((plugin) => [plugin.pluginId, plugin.status]);
};

/** The Node port with every rename failing as `EXDEV`. */
const renameFailing = (): FileSystemPort => {
  const fs = nodeFileSystem({ durability: 'none' });
  return { ...fs, rename: (_from, to) => async () => E.left(fileSystemError('rename', to, 'EXDEV')) };
};

describe('the inventory service', () => {
  it('writes its receipts privately and atomically; a failed write keeps the old file, leaves no temporary file and logs only the code', async () => {
    const dir = await directory();
    const clock = fakeClock(1_700_000_000_000);
    await service(dir, scriptedCodex(() => []), clock).accepted(NOTES);
    expect((await stat(join(dir, 'receipts.json'))).mode & 0o777).toBe(0o600);
    const saved = await readFile(join(dir, 'receipts.json'), 'utf8');
    expect(JSON.parse(saved)).toHaveLength(1);

    const logged: LogEntry[] = [];
    const failing = pluginInventory({ codex: scriptedCodex(() => []), directory: dir, cloudPlugins: async () => [], clock, deviceId: 'device-1', log: (entry) => void logged.push(entry), fs: renameFailing() });
    await failing.accepted({ name: 'jots', marketplace: 'alpha' });
    expect(await readFile(join(dir, 'receipts.json'), 'utf8')).toBe(saved);
    expect((await readdir(dir)).sort()).toEqual(['receipts.json']);
    expect(logged).toContainEqual({ event: 'plugin receipts not saved', fields: { error: 'EXDEV' } });
  });

  it('bridges an accepted installation for at most five minutes from acceptedAt, across a restart, then Codex alone decides', async () => {
    const dir = await directory();
    const clock = fakeClock(1_700_000_000_000);
    const acceptedAt = clock.now();
    const first = service(dir, scriptedCodex(() => []), clock);
    await first.accepted(NOTES);
    expect(await statuses(first)).toEqual([['notes@alpha', { kind: 'installing', acceptedAt, expiresAt: acceptedAt + RECEIPT_WINDOW_MS }]]);

    // A new executor reads the saved receipt: the window still runs from the original acceptedAt.
    clock.advance(RECEIPT_WINDOW_MS - 1);
    const restarted = service(dir, scriptedCodex(() => []), clock);
    await restarted.accepted(NOTES); // accepted again: never extends the window
    expect(await statuses(restarted)).toEqual([['notes@alpha', { kind: 'installing', acceptedAt, expiresAt: acceptedAt + RECEIPT_WINDOW_MS }]]);
    clock.advance(1);
    expect(await statuses(restarted)).toEqual([]);
    expect(JSON.parse(await readFile(join(dir, 'receipts.json'), 'utf8'))).toEqual([]);
  });

  it('a receipt Codex confirms is dropped; a legacy receipt (no acceptedAt) never shows anything', async () => {
    const dir = await directory();
    const clock = fakeClock(1_700_000_000_000);
    let listed: ReadonlyArray<ListedPlugin & ListedLocation> = [];
    const inventory = service(dir, scriptedCodex(() => listed), clock);
    await inventory.accepted(NOTES);
    listed = [listedNotes];
    expect(await statuses(inventory)).toEqual([['notes@alpha', { kind: 'ok' }]]);
    expect(JSON.parse(await readFile(join(dir, 'receipts.json'), 'utf8'))).toEqual([]);

    const legacyDir = await directory();
    await writeFile(join(legacyDir, 'receipts.json'), JSON.stringify([{ ref: 'plugin://notes@alpha' }]));
    expect(await statuses(service(legacyDir, scriptedCodex(() => []), clock))).toEqual([]);
  });

  it('answers from the durable snapshot while Codex cannot, without long descriptions or screenshots', async () => {
    const dir = await directory();
    const clock = fakeClock(1_700_000_000_000);
    let up = true;
    const inventory = service(dir, scriptedCodex(() => (up ? [listedNotes] : null)), clock);
    const fresh = await inventory.view();
    expect(fresh).toMatchObject({ right: { fromSnapshot: false, plugins: [{ pluginId: 'notes@alpha', skills: [{ name: 'notes:jot' }] }] } });
    const text = await readFile(join(dir, 'snapshot.json'), 'utf8');
    expect(text).not.toContain('LONG-TEXT');
    expect(text).not.toContain('shot.png');
    expect(text).not.toContain('A long description');

    up = false;
    clock.advance(10_000);
    expect(await inventory.view()).toEqual(
      E.right({
        deviceId: 'device-1',
        fromSnapshot: true,
        savedAt: 1_700_000_000_000,
        plugins: [
          {
            pluginId: 'notes@alpha',
            name: 'notes',
            marketplace: 'alpha',
            source: 'custom',
            enabled: true,
            status: { kind: 'ok' },
            version: '1.0.0',
            displayName: 'Notes',
            shortDescription: 'Jots',
            defaultPrompt: ['Jot it'],
            skills: [],
            apps: [],
          },
        ],
      }),
    );
    expect(await inventory.read()).toMatchObject({ left: { _tag: 'InventoryUnreadable' } });
  });

  it('with neither Codex nor a snapshot the inventory is unreadable', async () => {
    const inventory = service(await directory(), scriptedCodex(() => null), fakeClock());
    expect(await inventory.view()).toMatchObject({ left: { _tag: 'InventoryUnreadable' } });
  });
});
