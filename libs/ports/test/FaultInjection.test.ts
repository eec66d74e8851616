import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PRIVATE_FILE_MODE, writeFileAtomic, type FileSystemPort } from '../src/index.js';
import { nodeFileSystem } from '../src/node/index.js';
import { DISK_FAULT_CODES, failingAt, isTemporaryName, leftOf, MemoryFileSystem, rightOf, snapshotTree, temporaryPathsIn } from '../src/testing.js';

const scratch = mkdtempSync(join(tmpdir(), 'fault-injection-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let runs = 0;
/** A fresh root holding `state/receipts.json` with `before`, on the memory or the real file system. */
const freshRoot = async (onDisk: boolean, before: Uint8Array): Promise<{ fs: FileSystemPort; root: string }> => {
  const base: FileSystemPort = onDisk ? nodeFileSystem({ durability: 'none' }) : new MemoryFileSystem();
  const root = onDisk ? join(scratch, `run-${runs++}`) : '/home';
  await rightOf(base.makeDirectory(`${root}/state`, 0o755));
  await rightOf(base.writeFiles([{ path: `${root}/state/receipts.json`, bytes: before, mode: PRIVATE_FILE_MODE }]));
  return { fs: base, root };
};

describe('failingAt', () => {
  it('counts every mutation of a program when it fails none, and fails exactly the planned one', async () => {
    const fs = new MemoryFileSystem().addDirectory('/state');
    const counted = failingAt(fs, -1, 'ENOSPC');
    await rightOf(writeFileAtomic(counted.fs, '/state/a.json', new Uint8Array([1]), 0o600));
    expect(counted.mutations().map((m) => [m.operation, m.kind])).toEqual([
      ['createTempFile', 'write'],
      ['rename', 'rename'],
    ]);
    expect(counted.fired()).toBe(false);
    const faulty = failingAt(fs, 1, 'EDQUOT');
    expect(await leftOf(writeFileAtomic(faulty.fs, '/state/a.json', new Uint8Array([2]), 0o600))).toMatchObject({ operation: 'rename', code: 'EDQUOT' });
    expect(faulty.fired()).toBe(true);
  });

  it.each([false, true])('writeFileAtomic with each step failing leaves the old file or the new one and no temporary file (real disk: %s)', async (onDisk) => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 32 }), fc.uint8Array({ maxLength: 32 }), fc.constantFrom(...DISK_FAULT_CODES), async (before, after, code) => {
        const clean = await freshRoot(onDisk, before);
        const oldTree = await rightOf(snapshotTree(clean.fs, clean.root));
        const counted = failingAt(clean.fs, -1, code);
        await rightOf(writeFileAtomic(counted.fs, `${clean.root}/state/receipts.json`, after, PRIVATE_FILE_MODE));
        const newTree = await rightOf(snapshotTree(clean.fs, clean.root));
        for (let step = 0; step < counted.mutations().length; step++) {
          const { fs, root } = await freshRoot(onDisk, before);
          const faulty = failingAt(fs, step, code);
          expect(await leftOf(writeFileAtomic(faulty.fs, `${root}/state/receipts.json`, after, PRIVATE_FILE_MODE))).toMatchObject({ code });
          const tree = await rightOf(snapshotTree(fs, root));
          expect(temporaryPathsIn(tree)).toEqual([]);
          expect([oldTree, newTree]).toContainEqual(tree);
          await rightOf(writeFileAtomic(fs, `${root}/state/receipts.json`, after, PRIVATE_FILE_MODE));
          expect(await rightOf(snapshotTree(fs, root))).toEqual(newTree);
        }
      }),
      { numRuns: onDisk ? 10 : 50 },
    );
  });
});

describe('snapshotTree', () => {
  it('reads the same tree from the real and the in-memory file system', async () => {
    const memory = new MemoryFileSystem().addFile('/r/a/b.txt', 'hi', 0o600).addSymlink('a/b.txt', '/r/link').addDirectory('/r/empty', 0o700);
    const disk = nodeFileSystem({ durability: 'none' });
    const root = join(scratch, 'same');
    await rightOf(disk.makeDirectory(`${root}/a`, 0o755));
    await rightOf(disk.makeDirectory(`${root}/empty`, 0o700));
    await rightOf(disk.writeFiles([{ path: `${root}/a/b.txt`, bytes: new TextEncoder().encode('hi'), mode: 0o600 }]));
    await rightOf(disk.symlink('a/b.txt', `${root}/link`));
    expect(await rightOf(snapshotTree(disk, root))).toEqual(await rightOf(snapshotTree(memory, '/r')));
    expect(await rightOf(snapshotTree(memory, '/absent'))).toEqual([]);
  });

  it('names the temporary files of the port and of the libraries', () => {
    expect(['.receipts.json.4f2a.tmp', '.journal.p.json.tmp-1', '.manifest.lock.tmp-12-3', 'a.tmp.json'].every(isTemporaryName)).toBe(true);
    expect(['receipts.json', 'tmp', 'template.md', '.tmpl'].some(isTemporaryName)).toBe(false);
  });
});
