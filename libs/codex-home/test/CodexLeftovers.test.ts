import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { failingAt, MemoryFileSystem, rightOf } from '@wework/ports/testing';
import { isInterruptedShellSnapshot, sweepInterruptedShellSnapshots } from '../src/CodexLeftovers.js';
import { prepareHomeForStart } from '../src/CodexHome.js';
import { layoutOf } from '../src/HomeLayout.js';

const layout = layoutOf('unix', '/exec/codex', '/home/ada/.codex');

describe('sweepInterruptedShellSnapshots', () => {
  it('removes only the shell snapshots Codex began and did not finish', async () => {
    const fs = new MemoryFileSystem()
      .addFile('/exec/codex/shell_snapshots/019a.tmp-17', '')
      .addFile('/exec/codex/shell_snapshots/019b.tmp-3', 'partial')
      .addFile('/exec/codex/shell_snapshots/019c.sh', 'export A=1')
      .addFile('/exec/codex/shell_snapshots/019d.tmp-x', 'not ours');
    expect(await rightOf(sweepInterruptedShellSnapshots(fs, layout))).toBe(2);
    expect(fs.tree('/exec/codex/shell_snapshots').map(([path]) => path)).toEqual([
      '/exec/codex/shell_snapshots',
      '/exec/codex/shell_snapshots/019c.sh',
      '/exec/codex/shell_snapshots/019d.tmp-x',
    ]);
  });

  it('has nothing to do without the directory, and reports a removal that fails', async () => {
    expect(await rightOf(sweepInterruptedShellSnapshots(new MemoryFileSystem(), layout))).toBe(0);
    const fs = new MemoryFileSystem().addFile('/exec/codex/shell_snapshots/019a.tmp-1', '');
    const failed = await sweepInterruptedShellSnapshots(failingAt(fs, 0, 'EIO').fs, layout)();
    expect(E.isLeft(failed) && failed.left.code).toBe('EIO');
    expect(fs.entryAt('/exec/codex/shell_snapshots/019a.tmp-1')).toBeDefined();
  });

  it('names `<thread>.tmp-<digits>` only', () => {
    expect(['019a.tmp-0', 'x.tmp-123'].every(isInterruptedShellSnapshot)).toBe(true);
    expect(['019a.sh', 'x.tmp-', 'x.tmp-1a', '.tmp-1/..', 'a/b.tmp-1'].some(isInterruptedShellSnapshot)).toBe(false);
  });

  it('runs when a home is prepared for a start, and a failure does not stop the start', async () => {
    const fs = new MemoryFileSystem().addFile('/exec/codex/shell_snapshots/019a.tmp-4', '');
    const prepared = await rightOf(prepareHomeForStart(fs, layout, () => async () => ({ config: 'fresh', remoteApps: true })));
    expect(prepared.interruptedShellSnapshots).toEqual(E.right(1));
    expect(fs.entryAt('/exec/codex/shell_snapshots/019a.tmp-4')).toBeUndefined();
  });
});
