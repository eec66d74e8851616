/**
 * The process tree of a spawned app-server, read from `/proc` on Linux: who descends from whom, which
 * process group each belongs to, and whether a given process (pid + start time, so a reused pid is not
 * mistaken for it) is still running. Elsewhere only `kill(pid, 0)` is available.
 *
 * `parseProcStat` and `treeOf` are pure; the `list*` and `isRunning*` functions read `/proc`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';

/** One process as `/proc/<pid>/stat` describes it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Process group id. */
  readonly pgrp: number;
  /** One-letter state; `Z` is a zombie (exited, not yet reaped). */
  readonly state: string;
  /** Start time in clock ticks since boot: with the pid, identifies the process. */
  readonly startTime: string;
}

/** A process identity that survives pid reuse. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Start time from `/proc`, or undefined where `/proc` is unavailable. */
  readonly startTime: string | undefined;
}

const PROC = '/proc';

/**
 * Parses the text of `/proc/<pid>/stat`. The command name sits in parentheses and may itself contain
 * spaces and parentheses, so fields are counted from the last `)`.
 *
 * @example
 * ```ts
 * parseProcStat('42 (codex) S 1 42 42 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 9 0 12345 0 0');
 * // { pid: 42, ppid: 1, pgrp: 42, state: 'S', startTime: '12345' }
 * ```
 */
export function parseProcStat(text: string): ProcessInfo | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 1 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 1).trim().split(/\s+/);
  // fields[0] is field 3 (state); field N is fields[N - 3]; starttime is field 22.
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  const startTime = fields[19];
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isInteger(pgrp)) return undefined;
  if (state === undefined || startTime === undefined) return undefined;
  return { pid, ppid, pgrp, state, startTime };
}

/**
 * The processes of a tree: the root, its descendants (by parent links, whatever their group) and every
 * member of the process group `pgid` (which may have been orphaned). Zombies are left out.
 */
export function treeOf(rootPid: number, pgid: number, processes: readonly ProcessInfo[]): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const process of processes) {
    const siblings = children.get(process.ppid) ?? [];
    siblings.push(process);
    children.set(process.ppid, siblings);
  }
  const found = new Map<number, ProcessInfo>();
  const root = processes.find((process) => process.pid === rootPid);
  const queue: ProcessInfo[] = root === undefined ? [] : [root];
  for (const process of processes) if (process.pgrp === pgid) queue.push(process);
  while (queue.length > 0) {
    const next = queue.shift();
    if (next === undefined || found.has(next.pid)) continue;
    found.set(next.pid, next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return [...found.values()].filter((process) => process.state !== 'Z');
}

/** Whether `/proc` can be read here. */
export function hasProcFs(): boolean {
  try {
    readdirSync(PROC);
    return process.platform === 'linux';
  } catch {
    return false;
  }
}

const pidEntries = (names: readonly string[]): string[] => names.filter((name) => /^\d+$/.test(name));

/** Every process visible in `/proc` (empty where there is none). */
export async function listProcesses(): Promise<ProcessInfo[]> {
  let names: string[];
  try {
    names = pidEntries(await readdir(PROC));
  } catch {
    return [];
  }
  const infos = await Promise.all(
    names.map(async (name) => {
      try {
        return parseProcStat(await readFile(`${PROC}/${name}/stat`, 'utf8'));
      } catch {
        return undefined;
      }
    }),
  );
  return infos.filter((info): info is ProcessInfo => info !== undefined);
}

/** {@link listProcesses}, synchronously, for `exit` handlers. */
export function listProcessesSync(): ProcessInfo[] {
  let names: string[];
  try {
    names = pidEntries(readdirSync(PROC));
  } catch {
    return [];
  }
  const infos: ProcessInfo[] = [];
  for (const name of names) {
    try {
      const info = parseProcStat(readFileSync(`${PROC}/${name}/stat`, 'utf8'));
      if (info !== undefined) infos.push(info);
    } catch {
      // The process ended while we looked.
    }
  }
  return infos;
}

/** Whether the identified process still runs (a zombie does not). */
export async function isRunning(identity: ProcessIdentity): Promise<boolean> {
  if (identity.startTime === undefined) return signalZero(identity.pid);
  try {
    const info = parseProcStat(await readFile(`${PROC}/${identity.pid}/stat`, 'utf8'));
    return info !== undefined && info.startTime === identity.startTime && info.state !== 'Z';
  } catch {
    return false;
  }
}

/** Whether `pid` runs, by `kill(pid, 0)` (EPERM: it runs, but is not ours to signal). */
export function signalZero(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends a signal, ignoring processes and groups that are already gone. Negative pids address groups. */
export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: already gone; EPERM: not ours to signal.
  }
}
