/**
 * One all-or-nothing local transaction for a plugin: extract and validate its package, take the
 * manifest lock, recover a pending journal of the same plugin, read the current state, plan, then
 * carry the plan out step by step — rolling everything back on any failure before the commit mark.
 *
 * Programs here run only through the ports they are given.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as T from 'fp-ts/lib/Task.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { pluginKey, type PluginRef } from '@wework/plugin-inventory';
import { DIRECTORY_MODE, PRIVATE_FILE_MODE, type FileSystemError, type FileSystemPort, type FileToWrite } from '@wework/ports';
import type { HostPort } from './HostPort.js';
import { ancestorsOf, baseNameOf, joinPath, parentOf } from './internal/Paths.js';
import { encodeJournal, type Journal } from './Journal.js';
import { cacheDirectoryOf, checkIdentifier, checkPluginId, homeRoot, layoutOf, lockPath, runtimeHomes, type Homes, type InvalidIdentifier } from './Layout.js';
import { acquireLock, sweepLockTemps, type LockError, type LockOptions } from './ManifestLock.js';
import { decodeManifest, isUninstalled } from './Manifest.js';
import type { PackageRefused } from './Intake.js';
import { validatePackage, type PackageRejected, type ValidPackage } from './Package.js';
import { directoriesToRead, filesToRead, planChange, type FileSnapshot, type PlanError, type PlannedChange, type StateSnapshot } from './Plan.js';
import { recoverPlugin, rollBack, sweepJournalTemps, type Conflict, type RecoveryOutcome } from './Recovery.js';
import { stepsOf, type Step, type TransactionSteps } from './Steps.js';
import { treeDigest } from './TreeDigest.js';

/** The extractor could not produce the package's entries. */
export interface ExtractionFailed {
  readonly _tag: 'ExtractionFailed';
  readonly detail: string;
}

/** The port that produces a package's entries (untrusted; validated before anything is written). */
export interface PackageSource {
  /** The entries; `PackageRefused` when an intake refused the package (a link, a FIFO, a limit, ...). */
  extract(): TE.TaskEither<ExtractionFailed | PackageRefused, ReadonlyArray<unknown>>;
  /** Frees what `extract` holds (a staging directory); the transaction calls it once it is done. */
  release?(): T.Task<void>;
}

/** A change to commit. */
export type SyncChange =
  | {
      readonly _tag: 'Install';
      readonly plugin: PluginRef;
      readonly version: string;
      readonly source: PackageSource;
      /** Default `'preserve'`: a plugin the user disabled stays disabled; a new one is enabled. */
      readonly enabled?: boolean | 'preserve';
      /** When `true`, a plugin the manifest records as explicitly uninstalled is left alone (`SkippedUninstalled`). */
      readonly respectUninstall?: boolean;
      /** ISO time recorded in registries and the manifest. */
      readonly at: string;
    }
  | { readonly _tag: 'Remove'; readonly plugin: PluginRef; readonly at: string };

/** A journal of the plugin from an earlier transaction could not be recovered without overwriting unknown content. */
export interface PendingConflict {
  readonly _tag: 'PendingConflict';
  readonly plugin: string;
  readonly conflicts: ReadonlyArray<Conflict>;
}

/** A step failed before the commit mark; every destination is back to its state before the transaction. */
export interface TransactionRolledBack {
  readonly _tag: 'TransactionRolledBack';
  readonly cause: FileSystemError;
  readonly failedStep: Step['_tag'];
}

/** A step failed and rolling back could not complete: the journal is kept for restart recovery. */
export interface RollbackIncomplete {
  readonly _tag: 'RollbackIncomplete';
  /** The failed step's error, or the refusal of the check before the commit. */
  readonly cause: FileSystemError | TransactionAborted;
  readonly conflicts: ReadonlyArray<Conflict>;
  readonly rollbackError: FileSystemError | null;
}

/**
 * A directory on the way to a destination inside a home (below the home's root) is a symbolic link or
 * not a directory: nothing is read or written through it.
 */
export interface LinkInHome {
  readonly _tag: 'LinkInHome';
  readonly path: string;
}

/** A file a transaction must replace is a link, a directory or a special file. */
export interface NotARegularFile {
  readonly _tag: 'NotARegularFile';
  readonly path: string;
}

/**
 * The caller's {@link CommitOptions.beforeCommit} check refused the published change: everything was
 * rolled back, the homes hold exactly what they held before the transaction.
 */
export interface TransactionAborted {
  readonly _tag: 'TransactionAborted';
  /** What the check said (for example "authorization cancelled"). */
  readonly reason: string;
}

/**
 * Runs after every destination is published and before the commit mark, while the lock is held. The
 * published cache directories (Codex cache first; none when the caches already held the package, as
 * in a same-version re-install) let it look at the installed package — for example run the
 * plugin's install-time authorization. `Left(reason)` aborts: the transaction rolls back (and a crash
 * during the check rolls back at restart, because the commit mark was never written).
 */
export type BeforeCommit = (published: ReadonlyArray<string>) => Promise<E.Either<string, void>>;

/** Options of {@link commitChange}. */
export interface CommitOptions extends LockOptions {
  readonly beforeCommit?: BeforeCommit;
}

/** Every error of {@link commitChange}. Only `TransactionRolledBack`, `TransactionAborted` and `RollbackIncomplete` mean anything was written. */
export type SyncError =
  | InvalidIdentifier
  | ExtractionFailed
  | PackageRefused
  | PackageRejected
  | LinkInHome
  | PlanError
  | NotARegularFile
  | LockError
  | FileSystemError
  | PendingConflict
  | TransactionRolledBack
  | TransactionAborted
  | RollbackIncomplete;

/** What a committed (or no-op) transaction did. */
export interface TransactionResult {
  readonly plugin: string;
  readonly txid: string;
  /**
   * `Unchanged` when the homes already held exactly the requested state; `SkippedUninstalled` when
   * `respectUninstall` met an uninstall tombstone.
   */
  readonly outcome: 'Committed' | 'Unchanged' | 'SkippedUninstalled';
  /** Destinations replaced, created or removed. */
  readonly published: ReadonlyArray<string>;
  /**
   * `pending` when deleting backups failed after the commit mark and finishing the cleanup at once
   * failed too: restart recovery finishes it.
   */
  readonly cleanup: 'done' | 'pending';
  /** How long this transaction waited for the manifest lock. */
  readonly lock: { readonly waitedMs: number; readonly attempts: number; readonly brokeStale: number };
  /** What recovering an earlier journal of the same plugin did first (`Nothing` when there was none). */
  readonly recovered: RecoveryOutcome;
}

/** The ports a transaction runs on. */
export interface TransactionPorts {
  readonly fs: FileSystemPort;
  readonly host: HostPort;
}

type Result<A> = Promise<E.Either<SyncError, A>>;

const WRITE_BATCH = 512;

/**
 * Creates `path` and its missing parents; Right: the directories it created, parents first. A failure
 * removes the ones it created before it.
 */
const ensureDirectory = async (fs: FileSystemPort, path: string): Promise<E.Either<FileSystemError, ReadonlyArray<string>>> => {
  const missing: string[] = [];
  for (let dir = path; ; dir = parentOf(dir)) {
    const stat = await fs.lstat(dir)();
    if (E.isLeft(stat)) return stat;
    if (stat.right !== null || dir === '/') break;
    missing.unshift(dir);
  }
  const created: string[] = [];
  for (const dir of missing) {
    const made = await fs.createDirectory(dir, DIRECTORY_MODE)();
    if (E.isRight(made)) created.push(dir);
    else if (made.left.code !== 'EEXIST') {
      await removeCreated(fs, created);
      return made;
    }
  }
  return E.right(created);
};

/** Removes directories a failed change created (children first), those still empty. */
const removeCreated = async (fs: FileSystemPort, created: ReadonlyArray<string>): Promise<void> => {
  for (const dir of [...created].reverse()) await fs.removeEmptyDirectory(dir)();
};

const writeJournal = async (fs: FileSystemPort, host: HostPort, path: string, journal: Journal): Promise<E.Either<FileSystemError, void>> => {
  const temp = joinPath(parentOf(path), `.${baseNameOf(path)}.tmp-${host.freshId()}`);
  const written = await fs.writeFileDurable({ path: temp, bytes: encodeJournal(journal), mode: PRIVATE_FILE_MODE })();
  if (E.isLeft(written)) {
    // A write that failed part-way (a full disk) may have created the file: it is removed, not left for recovery.
    await fs.removeFile(temp)();
    return written;
  }
  const renamed = await fs.rename(temp, path)();
  if (E.isLeft(renamed)) await fs.removeFile(temp)();
  return renamed;
};

const stageDirectory = async (fs: FileSystemPort, stage: string, pkg: ValidPackage): Promise<E.Either<FileSystemError, void>> => {
  const made = await fs.createDirectory(stage, DIRECTORY_MODE)();
  if (E.isLeft(made)) return made;
  const files: FileToWrite[] = [];
  for (const entry of pkg.entries) {
    const path = joinPath(stage, entry.path);
    if (entry.kind === 'directory') {
      const dir = await fs.createDirectory(path, entry.mode)();
      if (E.isLeft(dir)) return dir;
    } else if (entry.kind === 'file' && 'staged' in entry) {
      const copied = await fs.copyFile(entry.staged.path, path, entry.mode)();
      if (E.isLeft(copied)) return copied;
    } else if (entry.kind === 'file') files.push({ path, bytes: entry.bytes, mode: entry.mode });
  }
  for (let i = 0; i < files.length; i += WRITE_BATCH) {
    const written = await fs.writeFiles(files.slice(i, i + WRITE_BATCH))();
    if (E.isLeft(written)) return written;
  }
  for (const entry of pkg.entries) {
    if (entry.kind !== 'symlink') continue;
    const linked = await fs.symlink(entry.target, joinPath(stage, entry.path))();
    if (E.isLeft(linked)) return linked;
  }
  return E.right(undefined);
};

const runStep = (ports: TransactionPorts, tx: TransactionSteps, step: Step): Promise<E.Either<FileSystemError, void>> => {
  const { fs, host } = ports;
  switch (step._tag) {
    case 'WriteJournal':
      return writeJournal(fs, host, tx.journalPath, step.journal);
    case 'MakeDirectory':
      return fs.createDirectory(step.path, DIRECTORY_MODE)();
    case 'StageDirectory':
      return stageDirectory(fs, step.stage, step.package);
    case 'StageFile':
      return fs.writeFileDurable({ path: step.path, bytes: step.bytes, mode: step.mode })();
    case 'Flush':
      return fs.flush(step.roots)();
    case 'Rename':
      return fs.rename(step.from, step.to)();
    case 'Remove':
      return fs.removeTree(step.path)();
  }
};

/**
 * Checks that every directory between a home's root (or the state directory) and each path is a real
 * directory or absent — never a link that could lead a read or a write out of the homes. The roots
 * themselves are not checked (a home may legitimately be reached through a link).
 */
const checkNoLinks = async (fs: FileSystemPort, homes: Homes, paths: ReadonlyArray<string>): Result<void> => {
  const roots = [homes.codexHome, homes.claudeHome, homes.stateDirectory].filter((r): r is string => r !== null);
  const checked = new Set<string>();
  for (const path of paths) {
    const root = roots.filter((r) => path.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) continue;
    for (const dir of ancestorsOf(path)) {
      if (dir.length <= root.length) break;
      if (checked.has(dir)) continue;
      checked.add(dir);
      const stat = await fs.lstat(dir)();
      if (E.isLeft(stat)) return stat;
      if (stat.right !== null && stat.right.kind !== 'directory') return E.left({ _tag: 'LinkInHome', path: dir });
    }
  }
  return E.right(undefined);
};

/** Reads what the plan needs: the manifest, the files it may replace and the digests of its cache directories. */
const readState = async (fs: FileSystemPort, homes: Homes, change: PlannedChange): Result<StateSnapshot> => {
  const readFileSnapshot = async (path: string): Result<FileSnapshot | null> => {
    const stat = await fs.lstat(path)();
    if (E.isLeft(stat)) return stat;
    if (stat.right === null) return E.right(null);
    if (stat.right.kind !== 'file') return E.left({ _tag: 'NotARegularFile', path });
    const bytes = await fs.readFile(path, { followSymlink: false })();
    return E.isLeft(bytes) ? bytes : E.right({ bytes: bytes.right, mode: stat.right.mode & 0o777 });
  };
  const layout = layoutOf(homes, change.plugin);
  const manifestFile = await readFileSnapshot(layout.manifest);
  if (E.isLeft(manifestFile)) return manifestFile;
  const manifest = decodeManifest(manifestFile.right === null ? null : new TextDecoder().decode(manifestFile.right.bytes));
  if (E.isLeft(manifest)) return manifest;
  const files = new Map<string, FileSnapshot | null>([[layout.manifest, manifestFile.right]]);
  const toRead = filesToRead(homes, change.plugin, { change, manifest: manifest.right });
  const cachesToRead = directoriesToRead(homes, change, manifest.right);
  const linked = await checkNoLinks(fs, homes, [...toRead, ...cachesToRead]);
  if (E.isLeft(linked)) return linked;
  for (const path of toRead) {
    const file = await readFileSnapshot(path);
    if (E.isLeft(file)) return file;
    files.set(path, file.right);
  }
  const directories = new Map<string, string | null>();
  for (const path of cachesToRead) {
    const digest = await treeDigest(fs, path)();
    if (E.isLeft(digest)) return digest;
    directories.set(path, digest.right);
  }
  return E.right({ manifest: manifest.right, files, directories });
};

/** The missing parents of every destination, parents first. */
const missingDirectories = async (fs: FileSystemPort, dests: ReadonlyArray<string>): Result<ReadonlyArray<string>> => {
  const missing: string[] = [];
  const known = new Map<string, boolean>();
  for (const dest of dests) {
    for (const dir of ancestorsOf(dest)) {
      let exists = known.get(dir);
      if (exists === undefined) {
        const stat = await fs.lstat(dir)();
        if (E.isLeft(stat)) return stat;
        exists = stat.right !== null;
        known.set(dir, exists);
        if (!exists) missing.push(dir);
      }
      if (exists) break;
    }
  }
  return E.right(missing.sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1)));
};

/**
 * Runs the steps of a transaction. A failure before the commit mark rolls everything back; a failure
 * while cleaning up after it leaves the rest to restart recovery.
 */
export const executeSteps =
  (
    ports: TransactionPorts,
    homes: Homes,
    tx: TransactionSteps,
    beforeCommit?: { readonly check: BeforeCommit; readonly published: ReadonlyArray<string> },
  ): TE.TaskEither<TransactionRolledBack | TransactionAborted | RollbackIncomplete, 'done' | 'pending'> =>
  async () => {
    for (const [index, step] of tx.steps.entries()) {
      if (index === tx.commitIndex && beforeCommit !== undefined) {
        const verdict = await beforeCommit.check(beforeCommit.published).catch((): E.Either<string, void> => E.left('the check before the commit failed'));
        if (E.isLeft(verdict)) {
          const conflicts = await rollBack(ports.fs, tx.journal)();
          if (E.isRight(conflicts) && conflicts.right.length === 0) {
            const removed = await ports.fs.removeFile(tx.journalPath)();
            if (E.isRight(removed)) return E.left({ _tag: 'TransactionAborted', reason: verdict.left });
            return E.left({ _tag: 'RollbackIncomplete', cause: { _tag: 'TransactionAborted', reason: verdict.left }, conflicts: [], rollbackError: removed.left });
          }
          const aborted: TransactionAborted = { _tag: 'TransactionAborted', reason: verdict.left };
          return E.left({ _tag: 'RollbackIncomplete', cause: aborted, conflicts: E.isRight(conflicts) ? conflicts.right : [], rollbackError: E.isLeft(conflicts) ? conflicts.left : null });
        }
      }
      const result = await runStep(ports, tx, step);
      if (E.isRight(result)) continue;
      if (index > tx.commitIndex) {
        // Committed: the cleanup is finished now (recovery skips what is already gone), not left for a restart.
        const finished = await recoverPlugin(ports.fs, homes, tx.journal.plugin)();
        return E.right(E.isRight(finished) && finished.right._tag === 'Finished' ? 'done' : 'pending');
      }
      if (index === 0) return E.left({ _tag: 'TransactionRolledBack', cause: result.left, failedStep: step._tag });
      if (index === tx.commitIndex) {
        // The commit mark may have reached the disk although the call failed: trust the disk.
        const outcome = await recoverPlugin(ports.fs, homes, tx.journal.plugin)();
        if (E.isRight(outcome) && outcome.right._tag === 'Finished') return E.right('done');
        if (E.isRight(outcome) && outcome.right._tag === 'RolledBack') return E.left({ _tag: 'TransactionRolledBack', cause: result.left, failedStep: step._tag });
        return E.left({ _tag: 'RollbackIncomplete', cause: result.left, conflicts: E.isRight(outcome) && outcome.right._tag === 'Conflict' ? outcome.right.conflicts : [], rollbackError: E.isLeft(outcome) ? outcome.left : null });
      }
      const conflicts = await rollBack(ports.fs, tx.journal)();
      if (E.isRight(conflicts) && conflicts.right.length === 0) {
        const removed = await ports.fs.removeFile(tx.journalPath)();
        if (E.isRight(removed)) return E.left({ _tag: 'TransactionRolledBack', cause: result.left, failedStep: step._tag });
        return E.left({ _tag: 'RollbackIncomplete', cause: result.left, conflicts: [], rollbackError: removed.left });
      }
      return E.left({ _tag: 'RollbackIncomplete', cause: result.left, conflicts: E.isRight(conflicts) ? conflicts.right : [], rollbackError: E.isLeft(conflicts) ? conflicts.left : null });
    }
    return E.right('done');
  };

const prepareChange = async (change: SyncChange): Result<PlannedChange> => {
  const plugin = checkPluginId(change.plugin);
  if (E.isLeft(plugin)) return plugin;
  if (change._tag === 'Remove') return E.right(change);
  const version = checkIdentifier('version', change.version);
  if (E.isLeft(version)) return version;
  const entries = await change.source.extract()();
  if (E.isLeft(entries)) return entries;
  const pkg = validatePackage(entries.right);
  if (E.isLeft(pkg)) return pkg;
  return E.right({ _tag: 'Install', plugin: change.plugin, version: change.version, package: pkg.right, enabled: change.enabled ?? 'preserve', at: change.at });
};

/** The transaction of {@link commitChange}, the package source's release aside. */
const commitWithSource = async (ports: TransactionPorts, homes: Homes, change: SyncChange, options: CommitOptions): Result<TransactionResult> => {
  const { fs } = ports;
  const planned = await prepareChange(change);
  if (E.isLeft(planned)) return planned;
  // Before anything is written (the state directory, the lock): no link on the way to what this change may touch.
  const newCaches = change._tag === 'Install' ? runtimeHomes(homes).map((home) => joinPath(homeRoot(homes, home) ?? '', cacheDirectoryOf(change.plugin, change.version))) : [];
  const early = await checkNoLinks(fs, homes, [...filesToRead(homes, change.plugin), ...newCaches, lockPath(homes)]);
  if (E.isLeft(early)) return early;
  const stateDirectory = await ensureDirectory(fs, homes.stateDirectory);
  if (E.isLeft(stateDirectory)) return stateDirectory;
  const result = await underLock(ports, homes, change, planned.right, options);
  // A change that failed leaves no state directory it created (one that holds a kept journal stays).
  if (E.isLeft(result)) await removeCreated(fs, stateDirectory.right);
  return result;
};

/** The change under the manifest lock: recover a pending journal of the plugin, read, plan and run the steps. */
const underLock = async (ports: TransactionPorts, homes: Homes, change: SyncChange, planned: PlannedChange, options: CommitOptions): Result<TransactionResult> => {
  const { fs, host } = ports;
  const lock = await acquireLock(fs, host, lockPath(homes), options)();
  if (E.isLeft(lock)) return lock;
  const lockInfo = { waitedMs: lock.right.waitedMs, attempts: lock.right.attempts, brokeStale: lock.right.brokeStale };
  const key = pluginKey(change.plugin);
  try {
    const swept = await sweepLockTemps(fs, host, lockPath(homes))();
    if (E.isLeft(swept)) return swept;
    const temps = await sweepJournalTemps(fs, homes)();
    if (E.isLeft(temps)) return temps;
    const recovered = await recoverPlugin(fs, homes, key)();
    if (E.isLeft(recovered)) return recovered;
    if (recovered.right._tag === 'Conflict') return E.left({ _tag: 'PendingConflict', plugin: key, conflicts: recovered.right.conflicts });
    const state = await readState(fs, homes, planned);
    if (E.isLeft(state)) return state;
    const txid = host.freshId();
    const base = { plugin: key, txid, lock: lockInfo, recovered: recovered.right };
    if (change._tag === 'Install' && change.respectUninstall === true && isUninstalled(state.right.manifest, change.plugin))
      return E.right({ ...base, outcome: 'SkippedUninstalled', published: [], cleanup: 'done' });
    const plan = planChange(fs.digest, homes, planned, state.right);
    if (E.isLeft(plan)) return plan;
    if (plan.right.publications.length === 0) return E.right({ ...base, outcome: 'Unchanged', published: [], cleanup: 'done' });
    const created = await missingDirectories(fs, plan.right.publications.map((p) => p.dest));
    if (E.isLeft(created)) return created;
    const tx = stepsOf(homes, plan.right, txid, created.right);
    const published = plan.right.publications.map((p) => p.dest);
    const caches = plan.right.publications.filter((p) => p.kind === 'directory').map((p) => p.dest);
    const executed = await executeSteps(ports, homes, tx, options.beforeCommit === undefined ? undefined : { check: options.beforeCommit, published: caches })();
    if (E.isLeft(executed)) return executed;
    return E.right({ ...base, outcome: 'Committed', published, cleanup: executed.right });
  } finally {
    await lock.right.release();
  }
};

/**
 * Commits one change — install, update or remove a plugin — to the Codex and Claude homes as one
 * local transaction: all of it or none of it, also across a crash (restart recovery finishes or
 * undoes it). Errors before the first write leave the disk untouched.
 *
 * @example
 * ```ts
 * const result = await commitChange(ports, homes, {
 *   _tag: 'Install', plugin: { name: 'forms', marketplace: 'wework' }, version: '1.2.0',
 *   source: { extract: () => TE.right(entries) }, at: new Date().toISOString(),
 * })();
 * // Right({ outcome: 'Committed', published: [codex cache, claude cache, config.toml, …], … })
 * ```
 */
export const commitChange =
  (ports: TransactionPorts, homes: Homes, change: SyncChange, options: CommitOptions = {}): TE.TaskEither<SyncError, TransactionResult> =>
  async () => {
    try {
      return await commitWithSource(ports, homes, change, options);
    } finally {
      if (change._tag === 'Install') await change.source.release?.()();
    }
  };
