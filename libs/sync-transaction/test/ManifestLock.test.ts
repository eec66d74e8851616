import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../src/ManifestLock.js';
import { createNodeFileSystem, createNodeHost, processStartTime } from '../src/node/index.js';

const fs = createNodeFileSystem();
const host = createNodeHost();
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sync-tx-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString() as unknown as number;

describe('the manifest lock', () => {
  it('is exclusive within and across holders, and released only by its holder', async () => {
    const path = join(dir, 'manifest.lock');
    const first = await acquireLock(fs, host, path)();
    expect(first).toMatchObject({ right: { waitedMs: 0, attempts: 1, brokeStale: 0 } });
    const second = await acquireLock(fs, host, path, { timeoutMs: 150 })();
    expect(second).toMatchObject({ left: { _tag: 'LockTimeout', owner: { pid: process.pid } } });
    if (E.isRight(first)) await first.right.release();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a waiting acquirer gets the lock once it is released, and says how long it waited', async () => {
    const path = join(dir, 'manifest.lock');
    const first = await acquireLock(fs, host, path)();
    if (E.isLeft(first)) throw new Error('lock');
    setTimeout(() => void first.right.release(), 200);
    const second = await acquireLock(fs, host, path)();
    expect(E.isRight(second) && second.right.waitedMs >= 150 && second.right.attempts > 1).toBe(true);
  });

  it('breaks the lock of a dead process, and of a reused pid with another start time', async () => {
    const path = join(dir, 'manifest.lock');
    writeFileSync(path, JSON.stringify({ pid: Number(deadPid()), startTime: null, token: 'gone' }));
    const taken = await acquireLock(fs, host, path)();
    expect(taken).toMatchObject({ right: { brokeStale: 1, attempts: 2 } });
    if (E.isRight(taken)) await taken.right.release();
    // Our own pid, but a start time this process never had: a previous owner whose pid was reused.
    writeFileSync(path, JSON.stringify({ pid: process.pid, startTime: (processStartTime(process.pid) ?? 0) + 12345, token: 'old' }));
    const again = await acquireLock(fs, host, path)();
    expect(again).toMatchObject({ right: { brokeStale: process.platform === 'linux' ? 1 : 0 } });
  });
});
