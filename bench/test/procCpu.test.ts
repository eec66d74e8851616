import { describe, expect, it } from 'vitest';
import { childPidsOf, cpuTicksOfStat } from '../src/procCpu.js';

// A /proc/<pid>/stat line: pid (comm) state ppid ... utime(14) stime(15) cutime(16) cstime(17) ...
const stat = (comm: string, utime: number, stime: number, cutime: number, cstime: number): string =>
  `4242 (${comm}) S 1 4242 4242 0 -1 4194304 120 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 9 0 1234 1000 50`;

describe('cpuTicksOfStat', () => {
  it('adds user, system and reaped children’s time', () => {
    expect(cpuTicksOfStat(stat('codex', 50, 7, 3, 1))).toBe(61);
  });

  it('counts fields from the last parenthesis, whatever the command name holds', () => {
    expect(cpuTicksOfStat(stat('node (x) 1 2 3', 10, 20, 0, 0))).toBe(30);
  });

  it('is null for what is not a stat line', () => {
    expect(cpuTicksOfStat('')).toBeNull();
    expect(cpuTicksOfStat('4242 (node) S 1')).toBeNull();
  });
});

describe('childPidsOf', () => {
  it('joins the children of every task, ignoring blanks', () => {
    expect(childPidsOf(['101 102 ', '', '\n', '7\n'])).toEqual([101, 102, 7]);
  });
});
