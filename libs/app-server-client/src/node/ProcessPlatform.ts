/**
 * How this operating system lets us see and end a process tree, behind one port
 * ({@link ProcessPlatform}) that {@link terminateProcessTree} and the exit guard use:
 *
 * | platform | seeing the tree | ending it |
 * | --- | --- | --- |
 * | Linux | `/proc/<pid>/stat` (pid, parent, group, state, start time) | signals to the group and to every descendant |
 * | macOS and other Unix | `ps -A -o pid=,ppid=,pgid=,stat=,lstart=` | the same signals |
 * | Windows | not needed: `taskkill /T` walks the tree itself | `taskkill /PID <pid> /T`, then with `/F` |
 *
 * `parsePsOutput` is pure; the rest runs commands or reads `/proc` through {@link CommandRunner}, so each
 * branch runs in tests on any machine (the `ps` branch for real on Linux too, whose `ps` takes the same
 * options).
 */
import { execFile, execFileSync } from 'node:child_process';
import { hasProcFs, isRunning as isRunningInProc, listProcesses, listProcessesSync, signal as unixSignal, signalZero, type ProcessIdentity, type ProcessInfo } from './ProcessTree.js';

/** Runs a program without a shell; resolves with its exit code and stdout (bounded), never rejects. */
export interface CommandRunner {
  run(file: string, args: ReadonlyArray<string>): Promise<{ readonly code: number | null; readonly stdout: string }>;
  runSync(file: string, args: ReadonlyArray<string>): { readonly code: number | null; readonly stdout: string };
}

/** How long one `ps` or `taskkill` may take, and how much of its output is read. */
const COMMAND_TIMEOUT_MS = 5_000;
const COMMAND_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** The runner of the real programs. */
export const nodeCommandRunner: CommandRunner = {
  run: (file, args) =>
    new Promise((resolve) => {
      execFile(file, [...args], { timeout: COMMAND_TIMEOUT_MS, maxBuffer: COMMAND_MAX_OUTPUT_BYTES, windowsHide: true, encoding: 'utf8' }, (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout });
      });
    }),
  runSync: (file, args) => {
    try {
      const stdout = execFileSync(file, [...args], { timeout: COMMAND_TIMEOUT_MS, maxBuffer: COMMAND_MAX_OUTPUT_BYTES, windowsHide: true, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { readonly status?: number | null; readonly stdout?: string };
      return { code: failed.status ?? null, stdout: typeof failed.stdout === 'string' ? failed.stdout : '' };
    }
  },
};

/** The processes visible on this machine. */
export interface ProcessTable {
  /** Where the table comes from. */
  readonly source: 'proc' | 'ps';
  /** Every process visible (empty when none can be listed). */
  list(): Promise<ReadonlyArray<ProcessInfo>>;
  /** {@link list}, synchronously, for `exit` handlers. */
  listSync(): ReadonlyArray<ProcessInfo>;
  /** The identities among `identities` that still run (a zombie does not; a reused pid with another start time does not). */
  alive(identities: ReadonlyArray<ProcessIdentity>): Promise<ReadonlyArray<ProcessIdentity>>;
}

/** The port {@link terminateProcessTree} ends a tree through. */
export interface ProcessPlatform {
  /** Where descendants are found before signals are sent; `null` where the platform's tree kill finds them itself (Windows). */
  readonly table: ProcessTable | null;
  /** Whether process groups exist (Unix): the group of the root is signalled as a whole. */
  readonly groups: boolean;
  /** Sends `name` to `pid` (a negative pid addresses a group where groups exist), ignoring what is gone. */
  signal(pid: number, name: NodeJS.Signals): void;
  /** Ends the tree of `rootPid` the platform's own way, if it has one (Windows `taskkill /T`, `/F` when `force`). */
  killTree?(rootPid: number, force: boolean): Promise<void>;
  /** {@link killTree}, synchronously, for `exit` handlers. */
  killTreeSync?(rootPid: number): void;
  /** Whether `pid` runs, where there is no table to ask (`kill(pid, 0)`). */
  runs(pid: number): boolean;
}

/** The `ps` columns read by {@link parsePsOutput}: pid, parent, group, state, start time. */
export const PS_ARGUMENTS: ReadonlyArray<string> = ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart='];

/**
 * Parses the output of `ps -A -o pid=,ppid=,pgid=,stat=,lstart=`: one process per line, the start time
 * (`Wed Dec  2 06:27:27 2026`, its spaces collapsed) identifying the process with its pid. Lines that do
 * not fit are skipped; the state's first letter is kept (`Z` is a zombie).
 *
 * @example
 * ```ts
 * parsePsOutput('  42     1    42 Ss   Wed Dec  2 06:27:27 2026\n');
 * // [{ pid: 42, ppid: 1, pgrp: 42, state: 'S', startTime: 'Wed Dec 2 06:27:27 2026' }]
 * ```
 */
export function parsePsOutput(text: string): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S.*\S)\s*$/.exec(line);
    if (match === null) continue;
    const [, pid, ppid, pgrp, state, start] = match;
    if (pid === undefined || ppid === undefined || pgrp === undefined || state === undefined || start === undefined) continue;
    processes.push({ pid: Number(pid), ppid: Number(ppid), pgrp: Number(pgrp), state: state.charAt(0), startTime: start.replace(/\s+/g, ' ') });
  }
  return processes;
}

const stillRunning = (identities: ReadonlyArray<ProcessIdentity>, processes: ReadonlyArray<ProcessInfo>, runs: (pid: number) => boolean): ProcessIdentity[] => {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  return identities.filter((identity) => {
    if (identity.startTime === undefined) return runs(identity.pid);
    const process = byPid.get(identity.pid);
    return process !== undefined && process.startTime === identity.startTime && process.state !== 'Z';
  });
};

/** The table read from `/proc` (Linux). */
export const procTable: ProcessTable = {
  source: 'proc',
  list: listProcesses,
  listSync: listProcessesSync,
  alive: async (identities) => {
    const states = await Promise.all(identities.map(async (identity) => ((await isRunningInProc(identity)) ? identity : undefined)));
    return states.filter((identity): identity is ProcessIdentity => identity !== undefined);
  },
};

/** The table read from `ps` (macOS and other Unix without `/proc`); one `ps` per look. */
export function psTable(runner: CommandRunner = nodeCommandRunner): ProcessTable {
  const list = async (): Promise<ReadonlyArray<ProcessInfo>> => {
    const { code, stdout } = await runner.run('ps', PS_ARGUMENTS);
    return code === 0 ? parsePsOutput(stdout) : [];
  };
  return {
    source: 'ps',
    list,
    listSync: () => {
      const { code, stdout } = runner.runSync('ps', PS_ARGUMENTS);
      return code === 0 ? parsePsOutput(stdout) : [];
    },
    alive: async (identities) => stillRunning(identities, await list(), signalZero),
  };
}

/** The `taskkill` arguments that end the tree of `pid` (`/F`: at once, not asking). */
export const taskkillArguments = (pid: number, force: boolean): ReadonlyArray<string> => ['/PID', String(pid), '/T', ...(force ? ['/F'] : [])];

/** Unix: groups and signals, descendants from `table`. */
export function unixProcessPlatform(table: ProcessTable): ProcessPlatform {
  return { table, groups: true, signal: unixSignal, runs: signalZero };
}

/** Windows: `taskkill /T` ends the tree (its own walk of the parent links), `/F` when forced. */
export function windowsProcessPlatform(runner: CommandRunner = nodeCommandRunner): ProcessPlatform {
  return {
    table: null,
    groups: false,
    signal: (pid, name) => {
      if (pid > 0) unixSignal(pid, name);
    },
    killTree: async (rootPid, force) => {
      await runner.run('taskkill', taskkillArguments(rootPid, force));
    },
    killTreeSync: (rootPid) => {
      runner.runSync('taskkill', taskkillArguments(rootPid, true));
    },
    runs: signalZero,
  };
}

/** The platform of `nodePlatform` (`process.platform`): `/proc` on Linux, `ps` on other Unix, `taskkill` on Windows. */
export function processPlatformFor(nodePlatform: NodeJS.Platform, runner: CommandRunner = nodeCommandRunner): ProcessPlatform {
  if (nodePlatform === 'win32') return windowsProcessPlatform(runner);
  return unixProcessPlatform(nodePlatform === 'linux' && hasProcFs() ? procTable : psTable(runner));
}

let current: ProcessPlatform | undefined;

/** The platform of this process, chosen once. */
export const currentProcessPlatform = (): ProcessPlatform => (current ??= processPlatformFor(process.platform));
