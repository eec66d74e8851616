/**
 * Every platform branch of the process-tree port, run on this machine: the `ps` table for real (Linux's
 * `ps` takes macOS's options), and the Windows branch through a recording command runner over a
 * simulated process list.
 */
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parsePsOutput,
  procTable,
  psTable,
  taskkillArguments,
  terminateProcessTree,
  unixProcessPlatform,
  windowsProcessPlatform,
  type CommandRunner,
  type ProcessPlatform,
} from '../../src/node/index.js';

const psLine = (pid: number, ppid: number, pgid: number, stat: string, start: string): string =>
  `${String(pid).padStart(6)} ${String(ppid).padStart(6)} ${String(pgid).padStart(6)} ${stat.padEnd(4)} ${start}`;

describe('parsePsOutput', () => {
  it('reads pid, parent, group, state and start time from every line, whatever the padding', () => {
    const start = fc.tuple(fc.constantFrom('Mon', 'Wed'), fc.constantFrom('Jan', 'Dec'), fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 86_399 })).map(
      ([day, month, date, seconds]) => `${day} ${month} ${String(date).padStart(2)} ${new Date(seconds * 1000).toISOString().slice(11, 19)} 2026`,
    );
    const row = fc.record({ pid: fc.nat(), ppid: fc.nat(), pgrp: fc.nat(), stat: fc.constantFrom('S', 'Ss', 'R+', 'Z', 'S<Ll', 'T'), start });
    fc.assert(
      fc.property(fc.array(row), (rows) => {
        const text = rows.map((r) => psLine(r.pid, r.ppid, r.pgrp, r.stat, r.start)).join('\n') + '\n';
        expect(parsePsOutput(text)).toEqual(rows.map((r) => ({ pid: r.pid, ppid: r.ppid, pgrp: r.pgrp, state: r.stat.charAt(0), startTime: r.start.replace(/\s+/g, ' ') })));
      }),
    );
  });

  it('skips what does not fit and never throws', () => {
    fc.assert(fc.property(fc.string(), (text) => void parsePsOutput(text)));
    expect(parsePsOutput('PID PPID\nnot a line\n  12 1 12 S\n')).toEqual([]);
  });

  it('agrees with /proc about this process (the real ps)', async () => {
    const fromPs = (await psTable().list()).find((info) => info.pid === process.pid);
    const fromProc = (await procTable.list()).find((info) => info.pid === process.pid);
    expect(fromPs).toMatchObject({ pid: process.pid, ppid: process.ppid, pgrp: fromProc?.pgrp });
    expect(await psTable().alive([{ pid: process.pid, startTime: fromPs?.startTime }, { pid: process.pid, startTime: 'Mon Jan 1 00:00:00 1990' }])).toEqual([
      { pid: process.pid, startTime: fromPs?.startTime },
    ]);
  });
});

/** A detached node process with a child of its own (which leaves the group), both waiting forever; resolves with their pids. */
async function spawnTree(): Promise<{ readonly root: number; readonly grandchild: number }> {
  const grandchildCode = 'setInterval(() => {}, 1000)';
  const rootCode = `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ['-e', ${JSON.stringify(grandchildCode)}], { detached: true, stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);`;
  const root = spawn(process.execPath, ['-e', rootCode], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const grandchild = await new Promise<number>((resolve) => root.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString('utf8').trim()))));
  return { root: root.pid ?? -1, grandchild };
}

/** Whether `pid` runs; a zombie (exited, not reaped yet by whoever adopted it) does not. */
const runs = async (pid: number): Promise<boolean> => (await procTable.alive([{ pid, startTime: (await procTable.list()).find((info) => info.pid === pid)?.startTime ?? 'gone' }])).length > 0;

describe('terminateProcessTree on each platform branch', () => {
  it('the ps branch (macOS) finds a descendant outside the group and ends the whole tree', async () => {
    const tree = await spawnTree();
    const report = await terminateProcessTree(tree.root, { graceMs: 200, platform: unixProcessPlatform(psTable()) });
    expect(report.survivors).toEqual([]);
    expect([await runs(tree.root), await runs(tree.grandchild)]).toEqual([false, false]);
  });

  it('the Windows branch asks taskkill to end the tree, then forces it, and waits until the root is gone', async () => {
    const alive = new Set([4242]);
    const calls: Array<ReadonlyArray<string>> = [];
    // A simulated Windows: taskkill without /F is ignored by the stubborn root, /F ends it.
    const runner: CommandRunner = {
      run: (file, args) => {
        calls.push([file, ...args]);
        if (file === 'taskkill' && args.includes('/F')) alive.delete(Number(args[1]));
        return Promise.resolve({ code: 0, stdout: '' });
      },
      runSync: () => ({ code: 0, stdout: '' }),
    };
    const platform: ProcessPlatform = { ...windowsProcessPlatform(runner), runs: (pid) => alive.has(pid), signal: () => undefined };
    const report = await terminateProcessTree(4242, { graceMs: 50, pollMs: 5, platform });
    expect(report.survivors).toEqual([]);
    expect(calls).toEqual([
      ['taskkill', '/PID', '4242', '/T'],
      ['taskkill', '/PID', '4242', '/T', '/F'],
    ]);
  });

  it('the Windows branch never runs taskkill for a root that already exited (its pid may be another process now)', async () => {
    const calls: Array<ReadonlyArray<string>> = [];
    const runner: CommandRunner = { run: (file, args) => (calls.push([file, ...args]), Promise.resolve({ code: 0, stdout: '' })), runSync: () => ({ code: 0, stdout: '' }) };
    const platform: ProcessPlatform = { ...windowsProcessPlatform(runner), runs: () => true, signal: () => undefined };
    expect(await terminateProcessTree(77, { graceMs: 0, rootExited: true, pollMs: 5, platform })).toEqual({ survivors: [] });
    expect(calls).toEqual([]);
  });

  it('taskkill arguments address one pid and its tree', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), fc.boolean(), (pid, force) => {
        expect(taskkillArguments(pid, force)).toEqual(['/PID', String(pid), '/T', ...(force ? ['/F'] : [])]);
      }),
    );
  });
});
