/**
 * Finishing and undoing journaled transactions, in process after a failure and at restart.
 *
 * A committed journal is finished: the backups it kept are deleted. A journal without its commit
 * mark is rolled back: every destination returns to its recorded state before the transaction. A
 * destination is only ever removed or replaced when its current digest is the one the journal
 * recorded for our own write; anything else (a later user change, content we cannot prove is ours)
 * is left alone and reported as a conflict, with the journal and backup kept. Every step is
 * idempotent, so recovery interrupted at any point can simply run again.
 *
 * Programs here run only through the ports they are given.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { isNotFound, type FileSystemError, type FileSystemPort } from '@wework/ports';
import type { HostPort } from './HostPort.js';
import { joinPath } from './internal/Paths.js';
import { decodeJournal, type Journal, type JournalPublication } from './Journal.js';
import { journalKeyOf, journalPath, lockPath, type Homes } from './Layout.js';
import { acquireLock, sweepLockTemps, type LockError, type LockOptions } from './ManifestLock.js';
import type { ManifestParseFailed } from './Manifest.js';
import { readManifest } from './ManifestFile.js';
import { treeDigest } from './TreeDigest.js';

/** Why recovery left a destination alone. */
export type ConflictReason =
  /** The destination changed after our write: its digest is neither ours nor absent. */
  | 'ChangedAfterWrite'
  /** Something occupies a destination that did not exist before and is not what we wrote. */
  | 'UnprovenOwnership'
  /** The journal cannot be read as a journal of this plugin. */
  | 'UnreadableJournal';

/** One destination recovery did not touch. */
export interface Conflict {
  readonly path: string;
  readonly reason: ConflictReason;
}

/** What recovery did for one plugin. */
export type RecoveryOutcome =
  | { readonly _tag: 'Finished' }
  | { readonly _tag: 'RolledBack' }
  | { readonly _tag: 'Conflict'; readonly conflicts: ReadonlyArray<Conflict> }
  | { readonly _tag: 'Nothing' };

type Result<A> = Promise<E.Either<FileSystemError, A>>;

const ok = E.right(undefined);

const existsAt = async (fs: FileSystemPort, path: string): Result<boolean> => {
  const stat = await fs.lstat(path)();
  return E.isLeft(stat) ? stat : E.right(stat.right !== null);
};

const run = async (...steps: ReadonlyArray<() => Result<void>>): Result<void> => {
  for (const step of steps) {
    const result = await step();
    if (E.isLeft(result)) return result;
  }
  return ok;
};

/** Puts one destination back as it was; returns the conflict when it must be left alone. */
const rollBackPublication = async (fs: FileSystemPort, p: JournalPublication): Result<Conflict | null> => {
  const cleared = await run(
    () => (p.stage === null ? Promise.resolve(ok) : fs.removeTree(p.stage)()),
    () => fs.removeTree(p.trash)(),
  );
  if (E.isLeft(cleared)) return cleared;
  const hasBackup = await existsAt(fs, p.backup);
  if (E.isLeft(hasBackup)) return hasBackup;
  const current = await treeDigest(fs, p.dest)();
  if (E.isLeft(current)) return current;
  const now = current.right;
  const conflict = (reason: ConflictReason): Result<Conflict> => Promise.resolve(E.right({ path: p.dest, reason }));
  const done = (result: E.Either<FileSystemError, void>): E.Either<FileSystemError, null> => (E.isLeft(result) ? result : E.right(null));

  if (hasBackup.right) {
    if (p.kind === 'file') {
      if (now === p.before) return done(await fs.removeFile(p.backup)());
      if (now === p.after || now === null) return done(await fs.rename(p.backup, p.dest)());
      return conflict('ChangedAfterWrite');
    }
    if (now === null) return done(await fs.rename(p.backup, p.dest)());
    if (p.kind === 'directory' && now === p.after)
      return done(await run(() => fs.rename(p.dest, p.trash)(), () => fs.rename(p.backup, p.dest)(), () => fs.removeTree(p.trash)()));
    return conflict('ChangedAfterWrite');
  }
  // No backup: the destination was never moved aside. Only content we created from nothing is undone.
  if (p.before !== null || now === null || p.kind === 'remove') return E.right(null);
  if (now !== p.after) return conflict('UnprovenOwnership');
  return done(p.kind === 'file' ? await fs.removeFile(p.dest)() : await run(() => fs.rename(p.dest, p.trash)(), () => fs.removeTree(p.trash)()));
};

/**
 * Rolls a journaled transaction back: destinations in reverse order, then the directories it created
 * (when empty). Returns the conflicts; an empty list means the homes are back to their state before
 * the transaction.
 */
export const rollBack =
  (fs: FileSystemPort, journal: Journal): TE.TaskEither<FileSystemError, ReadonlyArray<Conflict>> =>
  async () => {
    const conflicts: Conflict[] = [];
    for (const publication of [...journal.publications].reverse()) {
      const result = await rollBackPublication(fs, publication);
      if (E.isLeft(result)) return result;
      if (result.right !== null) conflicts.push(result.right);
    }
    for (const directory of [...journal.createdDirectories].reverse()) {
      const removed = await fs.removeEmptyDirectory(directory)();
      if (E.isLeft(removed) && removed.left.code !== 'ENOTEMPTY' && removed.left.code !== 'EEXIST' && !isNotFound(removed.left)) return removed;
    }
    return E.right(conflicts);
  };

/** Finishes a committed transaction: deletes the backups, leftover stages and trash it recorded. */
export const finish =
  (fs: FileSystemPort, journal: Journal): TE.TaskEither<FileSystemError, void> =>
  () =>
    run(
      ...journal.publications.flatMap((p) => [
        () => fs.removeTree(p.backup)(),
        () => fs.removeTree(p.trash)(),
        ...(p.stage === null ? [] : [() => fs.removeTree(p.stage as string)()]),
      ]),
    );

/**
 * Recovers the journal of one plugin (by key), if there is one: finish when committed, roll back
 * otherwise. The journal is removed unless a conflict remains. Run while holding the manifest lock.
 */
export const recoverPlugin =
  (fs: FileSystemPort, homes: Homes, key: string): TE.TaskEither<FileSystemError, RecoveryOutcome> =>
  async () => {
    const path = journalPath(homes, key);
    const bytes = await fs.readFile(path, { followSymlink: false })();
    if (E.isLeft(bytes)) return isNotFound(bytes.left) ? E.right({ _tag: 'Nothing' }) : bytes;
    const journal = decodeJournal(bytes.right);
    if (journal === null || journal.plugin !== key) return E.right({ _tag: 'Conflict', conflicts: [{ path, reason: 'UnreadableJournal' }] });
    if (journal.phase === 'committed') {
      const finished = await run(() => finish(fs, journal)(), () => fs.removeFile(path)());
      return E.isLeft(finished) ? finished : E.right({ _tag: 'Finished' });
    }
    const conflicts = await rollBack(fs, journal)();
    if (E.isLeft(conflicts)) return conflicts;
    if (conflicts.right.length > 0) return E.right({ _tag: 'Conflict', conflicts: conflicts.right });
    const removed = await fs.removeFile(path)();
    return E.isLeft(removed) ? removed : E.right({ _tag: 'RolledBack' });
  };

/** Removes temporary journal files (`.journal.*.tmp-*`) a killed process left; run while holding the lock. */
export const sweepJournalTemps =
  (fs: FileSystemPort, homes: Homes): TE.TaskEither<FileSystemError, number> =>
  async () => {
    const names = await fs.listDirectory(homes.stateDirectory)();
    if (E.isLeft(names)) return isNotFound(names.left) ? E.right(0) : names;
    let removed = 0;
    for (const name of names.right) {
      if (!/^\.(journal\..+\.json|manifest\.json)\.tmp-[a-z0-9-]+$/.test(name)) continue;
      const result = await fs.removeFile(joinPath(homes.stateDirectory, name))();
      if (E.isLeft(result)) return result;
      removed++;
    }
    return E.right(removed);
  };

/** The outcome of restart recovery for every plugin the journals or the manifest name. */
export interface RecoveryReport {
  readonly plugins: ReadonlyArray<{ readonly plugin: string; readonly outcome: RecoveryOutcome }>;
  /** Stale locks of dead processes broken to run recovery. */
  readonly brokeStaleLock: number;
}

/** Errors of restart recovery. */
export type RecoveryError = LockError | FileSystemError | ManifestParseFailed;

/**
 * Restart recovery: under the manifest lock, recovers every journal in the state directory and
 * reports per plugin `Finished`, `RolledBack`, `Conflict` or `Nothing` (manifest plugins without a
 * journal). It never installs, enables or re-registers anything, so caches retained after an
 * explicit uninstall cannot resurrect the plugin.
 *
 * @example
 * ```ts
 * const report = await recoverAll(fs, host, homes)();
 * // Right({ plugins: [{ plugin: 'forms@wework', outcome: { _tag: 'RolledBack' } }], brokeStaleLock: 1 })
 * ```
 */
export const recoverAll =
  (fs: FileSystemPort, host: HostPort, homes: Homes, options: LockOptions = {}): TE.TaskEither<RecoveryError, RecoveryReport> =>
  async () => {
    const state = await fs.lstat(homes.stateDirectory)();
    if (E.isLeft(state)) return state;
    if (state.right === null) return E.right({ plugins: [], brokeStaleLock: 0 });
    const lock = await acquireLock(fs, host, lockPath(homes), options)();
    if (E.isLeft(lock)) return lock;
    try {
      const swept = await run(
        async () => E.map(() => undefined)(await sweepLockTemps(fs, host, lockPath(homes))()),
        async () => E.map(() => undefined)(await sweepJournalTemps(fs, homes)()),
      );
      if (E.isLeft(swept)) return swept;
      const names = await fs.listDirectory(homes.stateDirectory)();
      if (E.isLeft(names)) return names;
      const keys = names.right.map(journalKeyOf).filter((k): k is string => k !== null).sort();
      const plugins: Array<{ plugin: string; outcome: RecoveryOutcome }> = [];
      for (const key of keys) {
        const outcome = await recoverPlugin(fs, homes, key)();
        if (E.isLeft(outcome)) return outcome;
        plugins.push({ plugin: key, outcome: outcome.right });
      }
      const manifest = await readManifest(fs, homes)();
      if (E.isLeft(manifest)) return manifest;
      for (const key of Object.keys(manifest.right.plugins).sort()) if (!keys.includes(key)) plugins.push({ plugin: key, outcome: { _tag: 'Nothing' } });
      return E.right({ plugins, brokeStaleLock: lock.right.brokeStale });
    } finally {
      await lock.right.release();
    }
  };
