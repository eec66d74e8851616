/** Looks at the process table to prove a process tree is gone. */
import { isRunning, listProcesses, treeOf } from '../../src/node/index.js';
import type { ProcessIdentity } from '../../src/node/index.js';

/** The running members of the tree of `pid` (its descendants and its process group). */
export async function treeSnapshot(pid: number): Promise<ProcessIdentity[]> {
  return treeOf(pid, pid, await listProcesses()).map((process) => ({ pid: process.pid, startTime: process.startTime }));
}

/** The identity (pid and start time) of a running process. */
export async function identityOf(pid: number): Promise<ProcessIdentity> {
  const found = (await listProcesses()).find((process) => process.pid === pid);
  if (found === undefined) throw new Error(`process ${pid} is not running`);
  return { pid, startTime: found.startTime };
}

/** SIGKILLs the identified processes that still run (never a reused pid). */
export async function killStrays(identities: readonly ProcessIdentity[]): Promise<void> {
  for (const identity of identities) {
    if (!(await isRunning(identity))) continue;
    try {
      process.kill(identity.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** Which of the identified processes still run. */
export async function stillRunning(identities: readonly ProcessIdentity[]): Promise<number[]> {
  const states = await Promise.all(identities.map(async (identity) => ((await isRunning(identity)) ? identity.pid : undefined)));
  return states.filter((pid): pid is number => pid !== undefined);
}

/** Running members of the process group `pgid`. */
export async function groupMembers(pgid: number): Promise<number[]> {
  return (await listProcesses()).filter((process) => process.pgrp === pgid && process.state !== 'Z').map((process) => process.pid);
}
