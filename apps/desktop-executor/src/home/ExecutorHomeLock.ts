/**
 * One executor per home: `<executor home>/executor.lock`, held by the executor process for its whole
 * life (`@wework/sync-transaction/node`'s process lock: pid and process start time, a stale lock of a
 * dead process or of a reused pid is broken). A second executor on the same home is refused at once
 * and exits with {@link HOME_LOCKED_EXIT_CODE}; the first keeps working.
 */
import { join } from 'node:path';
import type * as E from 'fp-ts/lib/Either.js';
import type { FileSystemError } from '@wework/ports';
import { acquireProcessLock, type ProcessLock, type ProcessLockHeld } from '@wework/sync-transaction/node/lock';

/** The exit code of an executor refused because another executor runs on its home. */
export const HOME_LOCKED_EXIT_CODE = 3;

/** The lock file of an executor home. */
export const executorLockPath = (executorHome: string): string => join(executorHome, 'executor.lock');

/** Why the executor home could not be locked. */
export type HomeLockError = ProcessLockHeld | FileSystemError;

/** Takes the executor home for this process (again: a no-op). */
export const lockExecutorHome = (executorHome: string): Promise<E.Either<HomeLockError, ProcessLock>> => acquireProcessLock(executorLockPath(executorHome));

/** A sentence for a person (the holder's pid, never a secret). */
export function describeHomeLockError(error: HomeLockError): string {
  return error._tag === 'ProcessLockHeld'
    ? `another executor is already running on this executor home${error.owner === null ? '' : ` (pid ${error.owner.pid})`}; only one executor may use a home at a time`
    : `the executor home could not be locked (${error.operation}: ${error.code})`;
}
