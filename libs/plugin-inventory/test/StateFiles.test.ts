/**
 * Saving a state file with each of its steps failing (`ENOSPC`, `EIO`, `EDQUOT`), over the in-memory
 * and the real file system: the old file or the new one, byte for byte, no temporary file and no
 * directory left by a failed save, and the next save succeeds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileSystemPort } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import { DISK_FAULT_CODES, MemoryFileSystem, failingAt, rightOf, snapshotTree, temporaryPathsIn } from '@wework/ports/testing';
import { saveStateFile } from '../src/StateFiles.js';

const scratch = mkdtempSync(join(tmpdir(), 'state-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let runs = 0;
/** A fresh executor home; `before` (when not null) already saved at `relative`. */
const freshHome = async (onDisk: boolean, relative: string, before: Uint8Array | null): Promise<{ fs: FileSystemPort; root: string; path: string }> => {
  const fs: FileSystemPort = onDisk ? nodeFileSystem({ durability: 'none' }) : new MemoryFileSystem();
  const root = onDisk ? join(scratch, `run-${runs++}`) : '/executor';
  await rightOf(fs.makeDirectory(root, 0o700));
  const path = join(root, relative);
  if (before !== null) await rightOf(saveStateFile(fs, path, before));
  return { fs, root, path };
};

describe('saveStateFile', () => {
  it.each([false, true])('with each step failing leaves the old file or the new one, no temporary file or new directory, and the next save succeeds (real disk: %s)', async (onDisk) => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('receipts.json', 'plugin-inventory/snapshot.json', 'state/plugin-inventory/receipts.json'),
        fc.option(fc.uint8Array({ maxLength: 32 }), { nil: null }),
        fc.uint8Array({ maxLength: 32 }),
        async (relative, before, after) => {
          const clean = await freshHome(onDisk, relative, before);
          const oldTree = await rightOf(snapshotTree(clean.fs, clean.root));
          const counted = failingAt(clean.fs, -1, 'EIO');
          await rightOf(saveStateFile(counted.fs, clean.path, after));
          const newTree = await rightOf(snapshotTree(clean.fs, clean.root));
          for (const step of counted.mutations())
            for (const code of DISK_FAULT_CODES) {
              const { fs, root, path } = await freshHome(onDisk, relative, before);
              const faulty = failingAt(fs, step.index, code);
              const saved = await saveStateFile(faulty.fs, path, after)();
              expect(faulty.fired()).toBe(true);
              expect(saved).toMatchObject({ _tag: 'Left', left: { code } });
              const tree = await rightOf(snapshotTree(fs, root));
              expect(temporaryPathsIn(tree)).toEqual([]);
              expect(tree, `${step.operation} ${step.path} failing with ${code}`).toEqual(oldTree);
              expect(await saveStateFile(fs, path, after)()).toEqual(E.right(undefined));
              expect(await rightOf(snapshotTree(fs, root))).toEqual(newTree);
            }
        },
      ),
      { numRuns: onDisk ? 8 : 40 },
    );
  });

  it('writes a private file in private directories it creates', async () => {
    const fs = new MemoryFileSystem().addDirectory('/executor', 0o700);
    await rightOf(saveStateFile(fs, '/executor/plugin-inventory/receipts.json', new TextEncoder().encode('[]\n')));
    expect(fs.entryAt('/executor/plugin-inventory')).toEqual({ kind: 'directory', mode: 0o700 });
    expect(fs.entryAt('/executor/plugin-inventory/receipts.json')).toMatchObject({ kind: 'file', mode: 0o600 });
    expect(fs.textAt('/executor/plugin-inventory/receipts.json')).toBe('[]\n');
  });
});
