/**
 * The stored marketplace order is read as an untrusted file: a named pipe or a directory where the file
 * was expected is answered at once as no order (and logged with its kind, never its content), a missing
 * file is no order without a log line, and a stored order reads back.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFileSystem } from '@wework/ports/node';
import type { LogEntry } from '@wework/ports';
import { marketplacePreferencesStore } from '../src/plugins/MarketplacePreferencesStore.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function storeAt(name: string) {
  const dir = await mkdtemp(join(tmpdir(), 'marketplace-order-'));
  dirs.push(dir);
  const path = join(dir, name);
  const entries: LogEntry[] = [];
  return { path, entries, store: marketplacePreferencesStore(nodeFileSystem(), path, (entry) => entries.push(entry)) };
}

describe('marketplacePreferencesStore', () => {
  it('reads a named pipe or a directory at its path as no order, at once, and says what it found', async () => {
    const pipe = await storeAt('order.json');
    execFileSync('mkfifo', [pipe.path]);
    expect(await pipe.store.read()).toEqual({ names: [], labels: {} });
    expect(pipe.entries).toEqual([{ event: 'marketplace order unreadable', fields: { code: 'EINVAL' } }]);
    const folder = await storeAt('order.json');
    await mkdir(folder.path);
    expect(await folder.store.read()).toEqual({ names: [], labels: {} });
    expect(folder.entries).toEqual([{ event: 'marketplace order unreadable', fields: { code: 'EISDIR' } }]);
  });

  it('reads a missing file as no order without a log line, and a written order back', async () => {
    const { store, entries } = await storeAt('order.json');
    expect(await store.read()).toEqual({ names: [], labels: {} });
    expect(entries).toEqual([]);
    const order = { names: ['team', 'tools'], labels: { team: 'Team' } };
    expect(await store.write(order)).toEqual(E.right(undefined));
    expect(await store.read()).toEqual(order);
  });
});
