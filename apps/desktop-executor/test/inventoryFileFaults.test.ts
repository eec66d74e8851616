/**
 * The executor's inventory files with each step of their save failing (`ENOSPC`, `EIO`, `EDQUOT`) on
 * the real file system: the install receipts, the durable inventory snapshot and the marketplace order
 * are the old file (or none) or the new one, byte for byte, with no temporary file and no directory a
 * failed save made; a failed order save answers failure, and the next save succeeds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListedPlugin, PluginRef } from '@wework/plugin-inventory';
import type { FileSystemPort } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import { DISK_FAULT_CODES, failingAt, rightOf, snapshotTree, temporaryPathsIn, type TreeSnapshot } from '@wework/ports/testing';
import { marketplacePreferencesStore } from '../src/plugins/MarketplacePreferencesStore.js';
import { pluginInventory, type InventoryCodex, type ListedLocation } from '../src/plugins/PluginInventory.js';
import { fakeClock } from './support/fakeClock.js';

const NOTES: PluginRef = { name: 'notes', marketplace: 'alpha' };
const listed: ListedPlugin & ListedLocation = {
  ref: NOTES,
  marketplacePath: '/markets/alpha/.agents/plugins/marketplace.json',
  enabled: true,
  version: '1.0.0',
  description: 'Notes',
  presentation: { displayName: 'Notes', shortDescription: 'Jots', longDescription: null, defaultPrompt: ['Jot it'], screenshots: [] },
};
const codex: InventoryCodex = {
  installed: async () => E.right([listed]),
  config: async () => E.right({ plugins: [], apps: {} }),
  read: async () => E.right({ skills: [], apps: [] }),
};

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'inventory-faults-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

const disk = nodeFileSystem({ durability: 'none' });
let runs = 0;

/** A save to check: builds its old state under a fresh home and runs the save through `fs`; `true` when it answered success. */
interface Save {
  readonly name: string;
  readonly setUp: (home: string) => Promise<void>;
  readonly run: (fs: FileSystemPort, home: string) => Promise<boolean>;
}

const inventoryOf = (fs: FileSystemPort, home: string) =>
  pluginInventory({ codex, directory: join(home, 'plugin-inventory'), cloudPlugins: async () => [], clock: fakeClock(1_700_000_000_000), deviceId: 'device-1', log: () => undefined, fs });

const saves: ReadonlyArray<Save> = [
  {
    name: 'the first install receipt (its directory made)',
    setUp: async () => undefined,
    run: async (fs, home) => (await inventoryOf(fs, home).accepted(NOTES), true),
  },
  {
    name: 'a second install receipt',
    setUp: async (home) => inventoryOf(disk, home).accepted({ name: 'jots', marketplace: 'alpha' }),
    run: async (fs, home) => (await inventoryOf(fs, home).accepted(NOTES), true),
  },
  {
    name: 'the first inventory snapshot',
    setUp: async () => undefined,
    run: async (fs, home) => E.isRight(await inventoryOf(fs, home).view()),
  },
  {
    name: 'the marketplace order, in a directory not made yet',
    setUp: async () => undefined,
    run: async (fs, home) => E.isRight(await marketplacePreferencesStore(fs, join(home, 'executor', 'marketplaces.json'), () => undefined).write({ names: ['team', 'tools'], labels: { team: 'Team' } })),
  },
  {
    name: 'a new marketplace order over the old one',
    setUp: async (home) => void (await marketplacePreferencesStore(disk, join(home, 'marketplaces.json'), () => undefined).write({ names: ['tools'], labels: {} })),
    run: async (fs, home) => E.isRight(await marketplacePreferencesStore(fs, join(home, 'marketplaces.json'), () => undefined).write({ names: ['tools', 'team'], labels: { team: 'Team' } })),
  },
];

const freshHome = async (save: Save): Promise<string> => {
  const home = join(scratch, `home-${runs++}`);
  await rightOf(disk.makeDirectory(home, 0o700));
  await save.setUp(home);
  return home;
};
const treeOf = (home: string): Promise<TreeSnapshot> => rightOf(snapshotTree(disk, home));

describe('inventory files with each step of their save failing', () => {
  it.each(saves.map((save) => [save.name, save] as const))('%s', async (_name, save) => {
    const probe = await freshHome(save);
    const oldTree = await treeOf(probe);
    const counted = failingAt(disk, -1, 'EIO');
    expect(await save.run(counted.fs, probe)).toBe(true);
    const newTree = await treeOf(probe);
    expect(newTree).not.toEqual(oldTree);
    expect(counted.mutations().length).toBeGreaterThan(1);
    for (const step of counted.mutations())
      for (const code of DISK_FAULT_CODES) {
        const home = await freshHome(save);
        const faulty = failingAt(disk, step.index, code);
        const answered = await save.run(faulty.fs, home);
        const label = `${step.operation} ${step.path.split(home).join('…')} failing with ${code}`;
        expect(faulty.fired(), label).toBe(true);
        const tree = await treeOf(home);
        expect(temporaryPathsIn(tree), label).toEqual([]);
        expect(tree, label).toEqual(oldTree);
        // The order store answers the failure; the inventory logs it and answers from memory.
        if (save.name.includes('marketplace order')) expect(answered, label).toBe(false);
        expect(await save.run(disk, home), `next save after ${label}`).toBe(true);
        expect(await treeOf(home), `next save after ${label}`).toEqual(newTree);
      }
  });
});
