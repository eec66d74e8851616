/**
 * A lock held by this process for its whole life — "one executor per home". It is the manifest lock
 * of this library (`ManifestLock.ts`: an exclusive file holding pid, process start time and a token,
 * broken when its owner is dead or its pid was reused by a process with another start time), taken
 * without waiting: a live owner means the path is someone else's. The lock is per process: asking
 * again for a path this process holds succeeds. It is removed when the process exits normally; after
 * a crash the next process finds it stale and breaks it.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { FileSystemError } from '@wework/ports';
import type { ProcessIdentity } from '../HostPort.js';
import { acquireLock } from '../ManifestLock.js';
import { createNodeFileSystem, createNodeHost } from './NodePorts.js';

/** Another live process holds the lock. */
export interface ProcessLockHeld {
  readonly _tag: 'ProcessLockHeld';
  /** The holder, when its lock file could be read. */
  readonly owner: ProcessIdentity | null;
}

/** A lock this process holds until it exits. */
export interface ProcessLock {
  readonly path: string;
  /** Stale locks (of dead processes, or of reused pids) broken to take it. */
  readonly brokeStale: number;
}

const held = new Map<string, ProcessLock>();

const removeIfOurs = (path: string): void => {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    if (owner.pid === process.pid) unlinkSync(path);
  } catch {
    // Gone already, or not ours to remove.
  }
};

/**
 * Takes the lock file at `path` for the rest of this process's life (its directory is created when
 * missing); `ProcessLockHeld` at once when another live process holds it.
 *
 * @example
 * ```ts
 * const lock = await acquireProcessLock(join(executorHome, 'executor.lock'));
 * if (E.isLeft(lock)) process.exit(3); // another executor runs on this home
 * ```
 */
export const acquireProcessLock = async (path: string): Promise<E.Either<ProcessLockHeld | FileSystemError, ProcessLock>> => {
  const mine = held.get(path);
  if (mine !== undefined) return E.right(mine);
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'EIO';
    return E.left({ _tag: 'FileSystemError', operation: 'makeDirectory', path: dirname(path), code });
  }
  const acquired = await acquireLock(createNodeFileSystem(), createNodeHost(), path, { timeoutMs: 0 })();
  if (E.isLeft(acquired)) {
    const error = acquired.left;
    return E.left(error._tag === 'LockTimeout' ? { _tag: 'ProcessLockHeld', owner: error.owner } : error);
  }
  const lock: ProcessLock = { path, brokeStale: acquired.right.brokeStale };
  held.set(path, lock);
  process.once('exit', () => removeIfOurs(path));
  return E.right(lock);
};
