import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRunning, listProcesses, parseProcStat, treeOf } from '../../src/node/index.js';
import type { ProcessInfo } from '../../src/node/index.js';

const stat = (pid: number, comm: string, state: string, ppid: number, pgrp: number, start: number): string =>
  `${pid} (${comm}) ${state} ${ppid} ${pgrp} ${pgrp} 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 ${start} 1000 200 18446744073709551615`;

describe('parseProcStat', () => {
  it('reads pid, ppid, pgrp, state and start time, whatever the command name holds', () => {
    fc.assert(
      fc.property(
        fc.nat(), fc.string({ maxLength: 16 }), fc.constantFrom('R', 'S', 'D', 'Z', 'T'), fc.nat(), fc.nat(), fc.nat(),
        (pid, comm, state, ppid, pgrp, start) => {
          expect(parseProcStat(stat(pid, comm, state, ppid, pgrp, start))).toEqual({ pid, ppid, pgrp, state, startTime: String(start) });
        },
      ),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseProcStat(text)));
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('12 (x) S')).toBeUndefined();
  });

  it('reads this process from /proc', async () => {
    const self = (await listProcesses()).find((info) => info.pid === process.pid);
    expect(self).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect(await isRunning({ pid: process.pid, startTime: self?.startTime })).toBe(true);
    expect(await isRunning({ pid: process.pid, startTime: 'another start' })).toBe(false);
  });
});

describe('treeOf', () => {
  const p = (pid: number, ppid: number, pgrp: number, state = 'S'): ProcessInfo => ({ pid, ppid, pgrp, state, startTime: String(pid) });

  it('finds descendants through any depth and group, plus orphaned members of the group, without zombies', () => {
    const processes = [
      p(1, 0, 1),
      p(10, 1, 10), // root
      p(11, 10, 10),
      p(12, 11, 12), // left the group (setsid)
      p(13, 12, 12),
      p(14, 1, 10), // orphaned member of the group
      p(15, 10, 10, 'Z'),
      p(20, 1, 20), // unrelated
    ];
    expect(treeOf(10, 10, processes).map((info) => info.pid).sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14]);
    expect(treeOf(-1, 10, processes).map((info) => info.pid).sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14]);
    expect(treeOf(99, 99, processes)).toEqual([]);
  });

  it('returns every process of a random forest that descends from the root', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 30 }), { minLength: 1, maxLength: 30 }), fc.nat({ max: 30 }), (parents, rootIndex) => {
        // Process i+1 has parent parents[i] (0 = none); pgrp = pid so only parent links count.
        const processes = parents.map((parent, index) => p(index + 1, parent <= index ? parent : 0, index + 1));
        const root = (rootIndex % processes.length) + 1;
        const expected = new Set([root]);
        for (let changed = true; changed; ) {
          changed = false;
          for (const info of processes) {
            if (expected.has(info.ppid) && !expected.has(info.pid)) {
              expected.add(info.pid);
              changed = true;
            }
          }
        }
        expect(new Set(treeOf(root, root, processes).map((info) => info.pid))).toEqual(expected);
      }),
    );
  });
});
