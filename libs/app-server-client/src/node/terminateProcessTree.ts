/**
 * Ends a process tree and waits until it is gone: SIGTERM to the process group and to every descendant
 * that left it, SIGKILL after a grace period, then polling until no tracked process runs. Descendants
 * are found before any signal is sent (once a parent dies its children are re-parented and can no
 * longer be traced) — through `/proc` on Linux, `ps` on other Unix. On Windows `taskkill /T` (then
 * `/T /F`) ends the tree by its own walk. See {@link ProcessPlatform}.
 */
import type { Timers } from '@wework/ports';
import { nodeTimers } from '@wework/ports/node';
import { currentProcessPlatform, type ProcessPlatform } from './ProcessPlatform.js';
import { treeOf } from './ProcessTree.js';
import type { ProcessIdentity } from './ProcessTree.js';

/** Options of {@link terminateProcessTree}. */
export interface TerminateOptions {
  /** How long SIGTERM gets before SIGKILL; 0 sends SIGKILL at once. */
  readonly graceMs: number;
  /** How long to wait for the tree to vanish after SIGKILL. Default 5000 ms. */
  readonly killWaitMs?: number;
  /** Polling interval. Default 25 ms (100 ms where the table comes from `ps`). */
  readonly pollMs?: number;
  /**
   * Set when `rootPid` is known to have exited and been reaped: its pid may since belong to another
   * process, so only the members of its process group are looked for.
   */
  readonly rootExited?: boolean;
  /** How processes are seen and signalled; this machine's by default. */
  readonly platform?: ProcessPlatform;
  /** The clock and sleeps of the grace period and the polling. Default `nodeTimers` of `@wework/ports/node`. */
  readonly timers?: Timers;
}

/** What remained after {@link terminateProcessTree}: normally nothing. */
export interface TerminateReport {
  /** Pids still running when the wait gave up. */
  readonly survivors: readonly number[];
}

/**
 * Terminates the process group led by `rootPid` and all of `rootPid`'s descendants, and waits until
 * none of them runs (zombies count as gone).
 *
 * @example
 * ```ts
 * import { terminateProcessTree } from '@wework/app-server-client/node';
 * const { survivors } = await terminateProcessTree(child.pid!, { graceMs: 2000 });
 * ```
 */
export async function terminateProcessTree(rootPid: number, options: TerminateOptions): Promise<TerminateReport> {
  const platform = options.platform ?? currentProcessPlatform();
  const timers = options.timers ?? nodeTimers;
  const table = platform.table;
  // Each look at a `ps` table starts a process: look less often there.
  const pollMs = options.pollMs ?? (table?.source === 'ps' ? 100 : 25);
  const killWaitMs = options.killWaitMs ?? 5000;
  const tracked = new Map<number, ProcessIdentity>();
  if (table === null && options.rootExited !== true) tracked.set(rootPid, { pid: rootPid, startTime: undefined });

  // The root is pinned by its start time at the first scan: once it has exited, its pid may be reused
  // by an unrelated process, which must never be taken for the root (or its children for ours).
  let rootStartTime: string | undefined;
  let rootGone = options.rootExited === true;
  // At the first scan the group is ours (a group id is not reused while it has members); later, once
  // the root is gone, only while a process we tracked is still in it.
  let scanned = false;
  let groupIsOurs = platform.groups;
  const rescan = async (): Promise<void> => {
    if (table === null) return;
    const processes = await table.list();
    if (!rootGone) {
      const root = processes.find((process) => process.pid === rootPid);
      if (root === undefined || (rootStartTime !== undefined && root.startTime !== rootStartTime)) rootGone = true;
      else rootStartTime = root.startTime;
    }
    groupIsOurs = platform.groups && (!scanned || !rootGone || processes.some((process) => process.pgrp === rootPid && tracked.get(process.pid)?.startTime === process.startTime));
    for (const found of treeOf(rootGone ? -1 : rootPid, groupIsOurs ? rootPid : -1, processes)) {
      if (!tracked.has(found.pid)) tracked.set(found.pid, { pid: found.pid, startTime: found.startTime });
    }
    scanned = true;
  };
  const running = async (): Promise<ReadonlyArray<ProcessIdentity>> => {
    const identities = [...tracked.values()];
    if (table !== null) return table.alive(identities);
    return identities.filter((identity) => platform.runs(identity.pid));
  };
  const send = async (name: NodeJS.Signals): Promise<void> => {
    // The platform's own tree kill (Windows) while the root is known to be ours.
    if (platform.killTree !== undefined && options.rootExited !== true && platform.runs(rootPid)) await platform.killTree(rootPid, name === 'SIGKILL');
    if (groupIsOurs) platform.signal(-rootPid, name);
    for (const identity of await running()) platform.signal(identity.pid, name);
  };
  const waitGone = async (ms: number): Promise<ReadonlyArray<ProcessIdentity>> => {
    const deadline = timers.now() + ms;
    for (;;) {
      await rescan();
      const alive = await running();
      if (alive.length === 0 || timers.now() >= deadline) return alive;
      await timers.sleep(pollMs);
    }
  };

  await rescan();
  if (options.graceMs > 0) {
    await send('SIGTERM');
    if ((await waitGone(options.graceMs)).length === 0) return { survivors: [] };
  }
  await send('SIGKILL');
  const survivors = await waitGone(killWaitMs);
  if (survivors.length > 0) {
    // Late children of a dying process: one more round.
    await send('SIGKILL');
  }
  return { survivors: (await waitGone(pollMs)).map((identity) => identity.pid) };
}
