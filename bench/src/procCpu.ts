/**
 * CPU time of a process tree, from Linux's `/proc`: for each live process of the tree, user and system
 * time (`utime`, `stime`) plus that of its children it has reaped (`cutime`, `cstime`), in clock ticks.
 * A child that exits between two readings moves its time into its parent's reaped share, so the
 * difference of two readings is the tree's CPU between them.
 *
 * {@link cpuTicksOfStat} and {@link childPidsOf} are pure; the rest reads `/proc`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * `utime + stime + cutime + cstime` of one `/proc/<pid>/stat` line, or null when it is not one. The
 * command name (field 2) is in parentheses and may hold spaces and parentheses itself, so the fields
 * are counted from its last `)`.
 */
export function cpuTicksOfStat(stat: string): number | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  // After the name: state (3), ppid (4), ... utime (14), stime (15), cutime (16), cstime (17).
  const fields = stat.slice(close + 1).trim().split(/\s+/);
  const ticks = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return ticks.every((n) => Number.isSafeInteger(n) && n >= 0) ? ticks.reduce((a, b) => a + b, 0) : null;
}

/** The pids of `/proc/<pid>/task/<tid>/children` files, joined. */
export function childPidsOf(childrenFiles: ReadonlyArray<string>): number[] {
  return childrenFiles.flatMap((text) => text.trim().split(/\s+/).filter((word) => word !== '').map(Number).filter((pid) => Number.isSafeInteger(pid) && pid > 0));
}

const readOr = (path: string, fallback: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
};

const children = (pid: number): number[] => {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return childPidsOf(tasks.map((tid) => readOr(`/proc/${pid}/task/${tid}/children`, '')));
};

let ticksPerSecond: number | undefined;
const clockTicks = (): number => {
  if (ticksPerSecond === undefined) {
    const reported = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    ticksPerSecond = Number.isFinite(reported) && reported > 0 ? reported : 100;
  }
  return ticksPerSecond;
};

/** Whether this machine has what {@link treeCpuMs} reads. */
export const canReadTreeCpu = (): boolean => readOr(`/proc/${process.pid}/stat`, '') !== '' && readOr(`/proc/${process.pid}/task/${process.pid}/children`, 'none') !== 'none';

/** The CPU time, in milliseconds, of `pid` and every live descendant (with what each has reaped). */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    ticks += cpuTicksOfStat(readOr(`/proc/${next}/stat`, '')) ?? 0;
    queue.push(...children(next));
  }
  return (ticks * 1000) / clockTicks();
}

/** The CPU time per turn, in milliseconds, of the process tree of `pid` over `turns` turns run one after another. */
export async function cpuPerTurn(pid: number, turns: number, turn: () => Promise<unknown>): Promise<number> {
  const before = treeCpuMs(pid);
  for (let i = 0; i < turns; i++) await turn();
  return (treeCpuMs(pid) - before) / turns;
}
