/**
 * A lock over the whole machine for end-to-end tests that must not overlap, whatever process or test
 * project runs them: Codex's login callback server takes 127.0.0.1:1455, and a second login started on
 * the machine cancels the first ("Login cancelled"). The lock is a directory in the OS temp directory,
 * made with `mkdir` (atomic), holding its owner's pid; an owner that is gone leaves a stale lock, which
 * the next taker removes. A wait is bounded.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options of {@link holdMachineLock}. */
export interface MachineLockOptions {
  /** Give up after waiting this long (default 180 000 ms). */
  readonly timeoutMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the process `pid` is alive (a pid of another user's process counts as alive). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
};

/** How old a lock without a readable owner must be to count as left by a crash (its taker writes the owner at once). */
const OWNERLESS_STALE_MS = 10_000;

/**
 * Whether the lock at `directory` was left behind: its owner's process is gone, or it has had no owner
 * for {@link OWNERLESS_STALE_MS}. Two takers breaking the same stale lock at once is not guarded against;
 * a stale lock appears only after a crash.
 */
async function isStale(directory: string): Promise<boolean> {
  const owner = Number(await readFile(join(directory, 'owner'), 'utf8').catch(() => ''));
  if (Number.isInteger(owner) && owner > 0) return !alive(owner);
  const made = await stat(directory).then((s) => s.mtimeMs, () => Date.now());
  return Date.now() - made > OWNERLESS_STALE_MS;
}

/**
 * Waits until this process holds the machine lock `name` (letters, digits and `-`), and answers its
 * release. Rejects after the timeout, naming the lock.
 *
 * @example
 * ```ts
 * const release = await holdMachineLock('codex-login');
 * try {
 *   // start a Codex login and finish it
 * } finally {
 *   await release();
 * }
 * ```
 */
export async function holdMachineLock(name: string, options: MachineLockOptions = {}): Promise<() => Promise<void>> {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(name)) throw new Error('a machine lock name is letters, digits and "-"');
  const directory = join(tmpdir(), `wework-machine-lock-${name}`);
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    try {
      await mkdir(directory, { mode: 0o700 });
      await writeFile(join(directory, 'owner'), String(process.pid));
      return () => rm(directory, { recursive: true, force: true });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    if (await isStale(directory)) await rm(directory, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`the machine lock "${name}" is still held after the wait`);
    await sleep(delay);
  }
}

/**
 * Runs `run` while this process holds the machine lock `name` (see {@link holdMachineLock}), and releases
 * it however `run` ends.
 *
 * @example
 * ```ts
 * await withMachineLock('codex-login', async () => {
 *   // start a Codex login and finish it
 * });
 * ```
 */
export async function withMachineLock<A>(name: string, run: () => Promise<A>, options: MachineLockOptions = {}): Promise<A> {
  const release = await holdMachineLock(name, options);
  try {
    return await run();
  } finally {
    await release();
  }
}
