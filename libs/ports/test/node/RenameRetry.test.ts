import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { RetrySchedule } from '../../src/Retry.js';
import { nodeFileSystem, renameWithRetry, withRetry } from '../../src/node/index.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'rename-retry-'));
  dirs.push(dir);
  return dir;
};

/**
 * A stand-in for the program that holds a file on Windows: the source appears only after `tries`
 * sleeps, so each rename before that fails (with `ENOENT` on Linux, the code these schedules retry).
 */
const appearsAfter = (tries: number, path: string) => {
  const slept: number[] = [];
  const sleep = async (ms: number): Promise<void> => {
    slept.push(ms);
    if (slept.length === tries) writeFileSync(path, 'ready');
  };
  return { slept, sleep };
};

const retryMissing: RetrySchedule = { retryOn: ['ENOENT'], delaysMs: [1, 2, 4, 8] };

describe('renameWithRetry', () => {
  it('renames a file that appears while the schedule lasts', async () => {
    const dir = tempDir();
    const from = join(dir, 'staged');
    const to = join(dir, 'final');
    const { slept, sleep } = appearsAfter(3, from);
    await renameWithRetry(from, to, { schedule: retryMissing, sleep });
    expect(slept).toEqual([1, 2, 4]);
    expect(readFileSync(to, 'utf8')).toBe('ready');
    expect(existsSync(from)).toBe(false);
  });

  it('rejects with the real error once the schedule is used up, and at once for codes it does not retry', async () => {
    const dir = tempDir();
    const { slept, sleep } = appearsAfter(99, join(dir, 'never'));
    await expect(renameWithRetry(join(dir, 'never'), join(dir, 'final'), { schedule: retryMissing, sleep })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(slept).toEqual([1, 2, 4, 8]);
    const other = appearsAfter(99, join(dir, 'never'));
    await expect(renameWithRetry(join(dir, 'never'), join(dir, 'final'), { schedule: { retryOn: ['EBUSY'], delaysMs: [1] }, sleep: other.sleep })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(other.slept).toEqual([]);
  });

  it('does not retry on Unix by default and retries the Windows codes on Windows', async () => {
    const dir = tempDir();
    const unix = appearsAfter(1, join(dir, 'a'));
    await expect(renameWithRetry(join(dir, 'a'), join(dir, 'b'), { platform: 'unix', sleep: unix.sleep })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(unix.slept).toEqual([]);
    // The Windows branch, on this machine: an operation failing with EBUSY twice, as a held file does.
    const slept: number[] = [];
    let tries = 0;
    const result = await withRetry(
      async () => {
        if (tries++ < 2) throw Object.assign(new Error('held'), { code: 'EBUSY' });
        return tries;
      },
      { platform: 'windows', sleep: async (ms) => void slept.push(ms) },
    );
    expect({ result, slept }).toEqual({ result: 3, slept: [10, 20] });
  });
});

describe('nodeFileSystem retries', () => {
  it('rename and publishExclusive retry with the configured schedule', async () => {
    const dir = tempDir();
    const staged = join(dir, 'staged');
    const { slept, sleep } = appearsAfter(2, staged);
    const fs = nodeFileSystem({ renameRetry: retryMissing, sleep });
    expect(await fs.rename(staged, join(dir, 'final'))()).toEqual(E.right(undefined));
    expect(slept).toEqual([1, 2]);
    expect(readFileSync(join(dir, 'final'), 'utf8')).toBe('ready');

    const later = appearsAfter(1, join(dir, 'next'));
    const publishing = nodeFileSystem({ renameRetry: retryMissing, sleep: later.sleep });
    expect(await publishing.publishExclusive(join(dir, 'next'), join(dir, 'published'))()).toEqual(E.right(undefined));
    expect(readFileSync(join(dir, 'published'), 'utf8')).toBe('ready');
    expect(existsSync(join(dir, 'next'))).toBe(false);
  });

  it('publishExclusive never retries over an existing target, and errors keep only the code', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'source'), 'new');
    writeFileSync(join(dir, 'taken'), 'old');
    const slept: number[] = [];
    const fs = nodeFileSystem({ platform: 'windows', renameRetry: { retryOn: ['EBUSY', 'EEXIST'], delaysMs: [] }, sleep: async (ms) => void slept.push(ms) });
    expect(await fs.publishExclusive(join(dir, 'source'), join(dir, 'taken'))()).toMatchObject(E.left({ code: 'EEXIST', operation: 'publishExclusive' }));
    expect(readFileSync(join(dir, 'taken'), 'utf8')).toBe('old');
    const unix = nodeFileSystem({ platform: 'unix', sleep: async (ms) => void slept.push(ms) });
    expect(await unix.rename(join(dir, 'missing'), join(dir, 'x'))()).toMatchObject(E.left({ code: 'ENOENT', operation: 'rename' }));
    expect(slept).toEqual([]);
  });
});
