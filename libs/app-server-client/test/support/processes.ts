/** Looks at the process table to prove a process tree is gone. */
import { isRunning, listProcesses, treeOf } from '../../src/node/index.js';
import type { ProcessIdentity } from '../../src/node/index.js';

/** The running members of the tree of `pid` (its descendants and its process group). */
export async function treeSnapshot(pid: number): Promise<ProcessIdentity[]> {
  return treeOf(pid, pid, await listProcesses()).map((process) => ({ pid: process.pid, startTime: process.startTime }));
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
