/**
 * `rename(2)` with the platform's retry: on Windows a rename fails with `EPERM`, `EBUSY` or `EACCES`
 * while an antivirus scanner or the indexer holds the file open, and succeeds a moment later. The one
 * Node rename of the workspace: {@link nodeFileSystem}'s `rename` and every direct use go through it.
 */
import * as fs from 'node:fs/promises';
import { platformOf, type Platform } from '../Platform.js';
import { renameRetryFor, retryOnCodes, type RetrySchedule } from '../Retry.js';
import { nodeTimers } from './NodeTime.js';

/** Options of {@link renameWithRetry} and {@link withRetry}. */
export interface RetryOptions {
  /** Defaults to the platform of the running process. */
  readonly platform?: Platform;
  /** Defaults to {@link renameRetryFor} the platform (retries on Windows only). */
  readonly schedule?: RetrySchedule;
  /** Defaults to `setTimeout`. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const scheduleOf = (options: RetryOptions): RetrySchedule => options.schedule ?? renameRetryFor(options.platform ?? platformOf(process.platform));

/**
 * Runs `operation` with the retry of {@link RetryOptions}: rejects with its last error, as `operation`
 * would.
 */
export const withRetry = <A>(operation: () => Promise<A>, options: RetryOptions = {}): Promise<A> =>
  retryOnCodes(operation, scheduleOf(options), options.sleep ?? ((ms) => nodeTimers.sleep(ms)));

/**
 * `fs.rename(from, to)`, retried on Windows while another program holds one of the files open (about
 * 2 s in all, see `WINDOWS_RENAME_RETRY`). Rejects with the last error, like `fs.rename`.
 *
 * @example
 * ```ts
 * import { renameWithRetry } from '@wework/ports/node';
 * await renameWithRetry(join(staging, 'glab-1a2b'), join(tools, 'glab', '1.46.0'));
 * ```
 */
export const renameWithRetry = (from: string, to: string, options: RetryOptions = {}): Promise<void> => withRetry(() => fs.rename(from, to), options);
