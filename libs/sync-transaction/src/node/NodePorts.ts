/**
 * The Node implementation of the ports: the file system of `@wework/ports/node` (fsync of files and
 * of the directories whose entries change, exclusive creation, hard-link publication for the lock),
 * and `/proc` process start times to tell a live lock owner from a reused pid.
 */
import { randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { FileSystemPort } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import type { HostPort, ProcessIdentity } from '../HostPort.js';
import type { TransactionPorts } from '../Transaction.js';

/** Options of {@link createNodePorts}. */
export interface NodePortsOptions {
  /**
   * `full` (default): everything a transaction depends on is flushed to disk before the commit mark
   * (staged trees with one `syncfs` per file system where available, else fsync of every file).
   * `none`: no fsync at all — a crash of the process is still safe, a power loss is not.
   */
  readonly durability?: 'full' | 'none';
}

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EIO';

/** The Node file-system port ({@link nodeFileSystem} of `@wework/ports/node` with the transaction's durability). */
export const createNodeFileSystem = (options: NodePortsOptions = {}): FileSystemPort =>
  nodeFileSystem(options.durability === undefined ? {} : { durability: options.durability });

/** The start time of a process (clock ticks after boot, from `/proc/<pid>/stat`); `null` where unknown. */
export const processStartTime = (pid: number): number | null => {
  try {
    const stat = fsSync.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const value = Number(fields[19]);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
};

const pidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
};

/** The Node host port for this process. */
export const createNodeHost = (): HostPort => ({
  self: { pid: process.pid, startTime: processStartTime(process.pid) },
  isAlive: (owner: ProcessIdentity) => async () => {
    if (!Number.isInteger(owner.pid) || owner.pid <= 0 || !pidAlive(owner.pid)) return false;
    if (owner.startTime === null) return true;
    const current = processStartTime(owner.pid);
    return current === null || current === owner.startTime;
  },
  now: () => performance.now(),
  sleep: (ms) => () => new Promise((resolve) => setTimeout(resolve, ms)),
  freshId: () => randomBytes(8).toString('hex'),
});

/**
 * The ports of a transaction on Node.
 *
 * @example
 * ```ts
 * const ports = createNodePorts();
 * await commitChange(ports, homes, change)();
 * ```
 */
export const createNodePorts = (options: NodePortsOptions = {}): TransactionPorts => ({ fs: createNodeFileSystem(options), host: createNodeHost() });
