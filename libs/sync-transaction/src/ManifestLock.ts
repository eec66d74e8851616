/**
 * The manifest lock: one transaction at a time across processes.
 *
 * The lock is a file, `manifest.lock`, created exclusively (a hard link of a fully written temporary
 * file, so it never exists without its owner) and holding its owner: pid, process start time and a
 * token. A waiting process polls with backoff. A lock whose owner no longer runs is stale and is
 * broken under a second exclusive file (`manifest.lock.break`), after checking that the lock still
 * holds the same stale owner. The one unguarded race: two processes breaking a stale break file at
 * the same instant, which needs a process to die while breaking a stale lock first.
 *
 * Programs here run only through the ports they are given.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { PRIVATE_FILE_MODE, isNotFound, type FileSystemError, type FileSystemPort } from '@wework/ports';
import type { HostPort, ProcessIdentity } from './HostPort.js';
import { baseNameOf, joinPath, parentOf } from './internal/Paths.js';

const LockOwner = t.type({ pid: t.number, startTime: t.union([t.number, t.null]), token: t.string });
type LockOwner = t.TypeOf<typeof LockOwner>;

/** The lock stayed held by a live process for longer than the timeout. */
export interface LockTimeout {
  readonly _tag: 'LockTimeout';
  readonly owner: ProcessIdentity | null;
  readonly waitedMs: number;
}

/** Errors of acquiring the lock. */
export type LockError = LockTimeout | FileSystemError;

/** A held lock. */
export interface LockHandle {
  /** Milliseconds spent waiting for other holders (0 when the lock was free). */
  readonly waitedMs: number;
  /** Attempts to create the lock file (1 when the lock was free). */
  readonly attempts: number;
  /** Stale locks of dead processes this acquisition broke. */
  readonly brokeStale: number;
  /** Releases the lock (only if this process still holds it). */
  readonly release: TE.TaskEither<FileSystemError, void>;
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /** Give up after this many milliseconds of waiting (default 60 000). */
  readonly timeoutMs?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const readOwner =
  (fs: FileSystemPort, path: string): TE.TaskEither<FileSystemError, { readonly bytes: Uint8Array; readonly owner: LockOwner | null } | null> =>
  async () => {
    const bytes = await fs.readFile(path, { followSymlink: false })();
    if (E.isLeft(bytes)) return isNotFound(bytes.left) ? E.right(null) : bytes;
    let owner: LockOwner | null = null;
    try {
      const decoded = LockOwner.decode(JSON.parse(decoder.decode(bytes.right)));
      owner = E.isRight(decoded) ? decoded.right : null;
    } catch {
      owner = null;
    }
    return E.right({ bytes: bytes.right, owner });
  };

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** The name prefix of temporary lock files; `sweepLockTemps` removes those of dead processes. */
const tempName = (path: string, pid: number, id: string): string => joinPath(parentOf(path), `.${baseNameOf(path)}.tmp-${pid}-${id}`);

/**
 * Removes a lock, break or temporary lock file this process made, trying once more when the first unlink fails: a
 * lock file left behind by a live process would stop every later transaction until the process ends.
 */
const removeOwn = async (fs: FileSystemPort, path: string): Promise<E.Either<FileSystemError, void>> => {
  const removed = await fs.removeFile(path)();
  return E.isRight(removed) ? removed : fs.removeFile(path)();
};

/** Creates `path` holding `owner`, exclusively: `true` when created, `false` when it already exists. */
const createExclusive =
  (fs: FileSystemPort, host: HostPort, path: string, owner: LockOwner): TE.TaskEither<FileSystemError, boolean> =>
  async () => {
    const temp = tempName(path, owner.pid, host.freshId());
    const written = await fs.writeFileDurable({ path: temp, bytes: encoder.encode(JSON.stringify(owner)), mode: PRIVATE_FILE_MODE })();
    if (E.isLeft(written)) {
      // A write that failed part-way (a full disk) may have created the file: it is removed at once.
      await removeOwn(fs, temp);
      return written;
    }
    const published = await fs.publishExclusive(temp, path)();
    if (E.isRight(published)) return E.right(true);
    // The sweep leaves the temporary files of live processes alone: this one is removed now.
    await removeOwn(fs, temp);
    return published.left.code === 'EEXIST' ? E.right(false) : published;
  };

const isLive = async (host: HostPort, owner: LockOwner | null): Promise<boolean> =>
  owner !== null && (await host.isAlive({ pid: owner.pid, startTime: owner.startTime })());

/** Removes the lock at `path` if it still holds exactly `stale`; `true` when it is gone. */
const breakStale =
  (fs: FileSystemPort, host: HostPort, path: string, stale: Uint8Array, self: LockOwner): TE.TaskEither<FileSystemError, boolean> =>
  async () => {
    const breaker = `${path}.break`;
    const created = await createExclusive(fs, host, breaker, self)();
    if (E.isLeft(created)) return created;
    if (!created.right) {
      const other = await readOwner(fs, breaker)();
      if (E.isLeft(other)) return other;
      if (other.right !== null && !(await isLive(host, other.right.owner))) await fs.removeFile(breaker)();
      return E.right(false);
    }
    try {
      const current = await readOwner(fs, path)();
      if (E.isLeft(current)) return current;
      if (current.right === null) return E.right(true);
      if (!sameBytes(current.right.bytes, stale)) return E.right(false);
      const removed = await fs.removeFile(path)();
      return E.isLeft(removed) ? removed : E.right(true);
    } finally {
      await removeOwn(fs, breaker);
    }
  };

/**
 * Acquires the manifest lock at `path`, waiting while a live process holds it and breaking it when
 * its holder is dead.
 *
 * @example
 * ```ts
 * const lock = await acquireLock(fs, host, lockPath(homes))();
 * if (E.isRight(lock)) try { … } finally { await lock.right.release(); }
 * ```
 */
export const acquireLock =
  (fs: FileSystemPort, host: HostPort, path: string, options: LockOptions = {}): TE.TaskEither<LockError, LockHandle> =>
  async () => {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const self: LockOwner = { pid: host.self.pid, startTime: host.self.startTime, token: host.freshId() };
    const started = host.now();
    let attempts = 0;
    let brokeStale = 0;
    let delay = 2;
    for (;;) {
      attempts++;
      const created = await createExclusive(fs, host, path, self)();
      if (E.isLeft(created)) return created;
      if (created.right) {
        const release: TE.TaskEither<FileSystemError, void> = async () => {
          const current = await readOwner(fs, path)();
          if (E.isLeft(current)) return current;
          if (current.right?.owner?.token !== self.token) return E.right(undefined);
          return removeOwn(fs, path);
        };
        return E.right({ waitedMs: attempts === 1 ? 0 : host.now() - started, attempts, brokeStale, release });
      }
      const holder = await readOwner(fs, path)();
      if (E.isLeft(holder)) return holder;
      if (holder.right === null) continue;
      if (!(await isLive(host, holder.right.owner))) {
        const broken = await breakStale(fs, host, path, holder.right.bytes, self)();
        if (E.isLeft(broken)) return broken;
        if (broken.right) brokeStale++;
        continue;
      }
      const waited = host.now() - started;
      if (waited >= timeoutMs) {
        const owner = holder.right.owner;
        return E.left({ _tag: 'LockTimeout', owner: owner === null ? null : { pid: owner.pid, startTime: owner.startTime }, waitedMs: waited });
      }
      await host.sleep(delay)();
      delay = Math.min(delay * 2, 50);
    }
  };

/**
 * Removes temporary lock files that dead processes left beside `path` (a process killed between
 * writing its temporary file and linking it). Run while holding the lock.
 */
export const sweepLockTemps =
  (fs: FileSystemPort, host: HostPort, path: string): TE.TaskEither<FileSystemError, number> =>
  async () => {
    const names = await fs.listDirectory(parentOf(path))();
    if (E.isLeft(names)) return names;
    const pattern = new RegExp(`^\\.${baseNameOf(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\.break)?\\.tmp-(\\d+)-[a-z0-9]+$`);
    let removed = 0;
    for (const name of names.right) {
      const match = pattern.exec(name);
      if (match === null) continue;
      if (await host.isAlive({ pid: Number(match[2]), startTime: null })()) continue;
      const result = await fs.removeFile(joinPath(parentOf(path), name))();
      if (E.isLeft(result)) return result;
      removed++;
    }
    return E.right(removed);
  };
