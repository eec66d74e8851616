/**
 * Codex accounts saved on this device: listing them, "Add account" (snapshot the current auth.json,
 * let the executor run the browser login, snapshot the new one) and "Switch" (atomically replace the
 * active auth.json with a snapshot).
 *
 * Snapshots and their index live in `wework-account-profiles/` of the Wework Codex home: a real
 * directory (a symbolic link there is refused), mode 0700, files 0600. Snapshots and the index are
 * read with `O_NOFOLLOW` and written by renaming a temporary file over them, so a link planted at
 * one of their paths is never followed out of the home. Programs are pure descriptions run through a
 * {@link FileSystemPort}; errors carry paths and tags only, never file contents.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  SNAPSHOT_NAME_PATTERN,
  decodeAccountIndex,
  emptyAccountIndex,
  encodeAccountIndex,
  findSavedAccount,
  savedAccountOf,
  snapshotNameOf,
  summaryOf,
  upsertSavedAccount,
  type AccountIndex,
  type CorruptAccountIndex,
  type SavedAccount,
  type SnapshotName,
} from './AccountIndex.js';
import { isNotFound, joinPath, PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE, writeFileAtomic, type FileSystemError, type FileSystemPort } from '@wework/ports';
import { writeDestinationOf } from './AtomicWrite.js';
import { identifyAuth, type AccountSummary, type Digest, type MalformedAuthFile } from './AuthClaims.js';
import type { CodexHomeLayout } from './HomeLayout.js';
import { utf8 } from './internal/Bytes.js';

/** The profiles directory is a symbolic link or not a directory; it is never used then. */
export interface ProfilesDirectoryRefused {
  readonly _tag: 'ProfilesDirectoryRefused';
  readonly path: string;
  readonly reason: 'symlink' | 'notADirectory';
}

/** A snapshot path holds a symbolic link (or no file); it is never followed. */
export interface SnapshotRefused {
  readonly _tag: 'SnapshotRefused';
  readonly path: string;
}

/** A snapshot's content belongs to another account than its index entry says. */
export interface SnapshotMismatch {
  readonly _tag: 'SnapshotMismatch';
  readonly accountId: string;
  readonly path: string;
}

/** No account with this id is saved. */
export interface UnknownAccount {
  readonly _tag: 'UnknownAccount';
  readonly accountId: string;
}

/** The Wework home has no auth.json (or a dangling link), so there is nothing to save. */
export interface NoActiveAuth {
  readonly _tag: 'NoActiveAuth';
  readonly path: string;
}

/** auth.json of the Wework home is a directory or another non-file. */
export interface ActiveAuthOccupied {
  readonly _tag: 'ActiveAuthOccupied';
  readonly path: string;
}

/** Switching was refused because a turn or an app-server request is active. */
export interface SwitchWhileBusy {
  readonly _tag: 'SwitchWhileBusy';
  readonly activeTurns: number;
  readonly pendingRequests: number;
}

/** Why an account operation failed. */
export type AccountsError =
  | ProfilesDirectoryRefused
  | SnapshotRefused
  | SnapshotMismatch
  | UnknownAccount
  | NoActiveAuth
  | ActiveAuthOccupied
  | SwitchWhileBusy
  | CorruptAccountIndex
  | MalformedAuthFile
  | FileSystemError;

/** What the executor is doing, as far as switching accounts cares. */
export interface ExecutorActivity {
  /** Turns running in any thread of the app-server. */
  readonly activeTurns: number;
  /** App-server requests (client or server requests) not yet answered. */
  readonly pendingRequests: number;
}

/**
 * Whether an account switch may start now: only when no turn and no app-server request is active,
 * so no in-flight work continues under another account. A rejected switch can be retried later.
 */
export const checkSwitchAllowed = (activity: ExecutorActivity): E.Either<SwitchWhileBusy, ExecutorActivity> =>
  activity.activeTurns === 0 && activity.pendingRequests === 0
    ? E.right(activity)
    : E.left({ _tag: 'SwitchWhileBusy', activeTurns: activity.activeTurns, pendingRequests: activity.pendingRequests });

/** An account as the Authentication section lists it. */
export interface ListedAccount extends AccountSummary {
  /** This is the account of the active auth.json. */
  readonly active: boolean;
  /** A snapshot of this account is saved (an active account that was never saved is listed too). */
  readonly saved: boolean;
}

/** The accounts of this device. */
export interface AccountList {
  /** Saved accounts in the order they were first saved, then the active account if it is not saved. */
  readonly accounts: ReadonlyArray<ListedAccount>;
  readonly activeAccountId: string | null;
  /** `unreadable`: auth.json exists but is not a JSON object. */
  readonly activeAuth: 'absent' | 'present' | 'unreadable';
  /** The index was missing entries, listed missing snapshots or was corrupt, and was rewritten. */
  readonly indexRepaired: boolean;
}

/** How {@link saveActiveAccount} left the snapshot of the active account. */
export type SnapshotOutcome = 'new' | 'updated' | 'unchanged';

/** What {@link saveActiveAccount} saved. */
export interface SavedActiveAccount {
  readonly account: AccountSummary;
  readonly snapshot: SnapshotOutcome;
  /** SHA-256 of the active auth.json's bytes (for {@link loginCompleted}); never show it to users. */
  readonly authDigest: string;
}

const refusedSnapshot = (path: string): SnapshotRefused => ({ _tag: 'SnapshotRefused', path });

/** How {@link checkProfilesDirectory} found the profiles directory. */
type ProfilesDirectory = 'absent' | 'existing' | 'created';

/**
 * Checks the profiles directory; `create` makes it (0700) when absent (`created`: by this call). A
 * directory made here whose tightening fails is removed again.
 */
const checkProfilesDirectory =
  (fs: FileSystemPort, layout: CodexHomeLayout, create: boolean): TE.TaskEither<AccountsError, ProfilesDirectory> =>
  async () => {
    const path = layout.profilesDirectory;
    const found = await fs.lstat(path)();
    if (E.isLeft(found)) return found;
    if (found.right?.kind === 'symlink') return E.left({ _tag: 'ProfilesDirectoryRefused', path, reason: 'symlink' });
    if (found.right !== null && found.right.kind !== 'directory') return E.left({ _tag: 'ProfilesDirectoryRefused', path, reason: 'notADirectory' });
    if (!create) return E.right(found.right === null ? 'absent' : 'existing');
    if (found.right === null) {
      const made = await fs.makeDirectory(path, PRIVATE_DIRECTORY_MODE)();
      if (E.isLeft(made)) return made;
    }
    const tightened = await fs.chmod(path, PRIVATE_DIRECTORY_MODE)();
    if (E.isLeft(tightened)) {
      if (found.right === null) await fs.removeEmptyDirectory(path)();
      return tightened;
    }
    return E.right(found.right === null ? 'created' : 'existing');
  };

/** Puts things back as they were after a failed step; best effort, in reverse order of the changes. */
type Undo = () => Promise<void>;

const noUndo: Undo = () => Promise.resolve();

/** `first` undone after `later` (the reverse of the order the changes were made in). */
const undoBoth =
  (first: Undo, later: Undo): Undo =>
  async () => {
    await later();
    await first();
  };

/** A file as it was before a mutation: its bytes and bits, absent, or something this library does not put back. */
type PriorFile = { readonly _tag: 'File'; readonly bytes: Uint8Array; readonly mode: number } | { readonly _tag: 'Absent' } | { readonly _tag: 'Other' };

/** Reads what is at `path` now (never through a link), so a failed mutation can put it back. */
const priorFile =
  (fs: FileSystemPort, path: string): TE.TaskEither<FileSystemError, PriorFile> =>
  async () => {
    const found = await fs.lstat(path)();
    if (E.isLeft(found)) return found;
    if (found.right === null) return E.right({ _tag: 'Absent' });
    if (found.right.kind !== 'file') return E.right({ _tag: 'Other' });
    const bytes = await fs.readFile(path, { followSymlink: false })();
    if (E.isLeft(bytes)) return isNotFound(bytes.left) ? E.right({ _tag: 'Absent' }) : bytes;
    return E.right({ _tag: 'File', bytes: bytes.right, mode: found.right.mode & 0o777 });
  };

/** Puts `prior` back at `path`: the old bytes and bits, or no file. */
const restoreFile =
  (fs: FileSystemPort, path: string, prior: PriorFile): Undo =>
  async () => {
    if (prior._tag === 'File') await writeFileAtomic(fs, path, prior.bytes, prior.mode)();
    else if (prior._tag === 'Absent') await fs.removeFile(path)();
  };

/** Removes the profiles directory again when this mutation created it (it is empty once everything else is undone). */
const undoDirectory = (fs: FileSystemPort, layout: CodexHomeLayout, directory: ProfilesDirectory): Undo =>
  directory === 'created'
    ? async () => {
        await fs.removeEmptyDirectory(layout.profilesDirectory)();
      }
    : noUndo;

/** Reads a file that must not be a symbolic link; a link (ELOOP) becomes {@link SnapshotRefused}. */
const readPrivateFile =
  (fs: FileSystemPort, path: string): TE.TaskEither<SnapshotRefused | FileSystemError, Uint8Array> =>
  async () => {
    const bytes = await fs.readFile(path, { followSymlink: false })();
    return E.isLeft(bytes) && bytes.left.code === 'ELOOP' ? E.left(refusedSnapshot(path)) : bytes;
  };

/** The bytes of the active auth.json (through a link), or `null` when absent or a dangling link. */
const readActiveAuth =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, Uint8Array | null> =>
  async () => {
    const target = await fs.stat(layout.authFile)();
    if (E.isLeft(target)) return target;
    if (target.right === null) return E.right(null);
    if (target.right.kind !== 'file') return E.left({ _tag: 'ActiveAuthOccupied', path: layout.authFile });
    const bytes = await fs.readFile(layout.authFile, { followSymlink: true })();
    if (E.isLeft(bytes) && isNotFound(bytes.left)) return E.right(null);
    return bytes;
  };

/**
 * The index as stored, without repair: `CorruptAccountIndex` when it is not a valid index or is a
 * symbolic link; the empty index when there is no profiles directory or no index file.
 */
export const readAccountIndex =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, AccountIndex> =>
  async () => {
    const directory = await checkProfilesDirectory(fs, layout, false)();
    if (E.isLeft(directory)) return directory;
    if (directory.right === 'absent') return E.right(emptyAccountIndex);
    const bytes = await readPrivateFile(fs, layout.accountIndexFile)();
    if (E.isLeft(bytes)) {
      if (bytes.left._tag === 'SnapshotRefused') return E.left({ _tag: 'CorruptAccountIndex', path: layout.accountIndexFile });
      return isNotFound(bytes.left) ? E.right(emptyAccountIndex) : bytes;
    }
    return decodeAccountIndex(bytes.right, layout.accountIndexFile);
  };

const snapshotPath = (fs: FileSystemPort, layout: CodexHomeLayout, name: SnapshotName): string => joinPath(fs.platform, layout.profilesDirectory, name);

/** The port's (synchronous) digest as the lazy {@link Digest} that {@link identifyAuth} takes. */
const digestOf =
  (fs: FileSystemPort): Digest =>
  (bytes) =>
  () =>
    Promise.resolve(fs.digest(bytes));

/** Reads and identifies one snapshot file: `null` when it is a link, unreadable as auth or gone. */
const savedAccountFromFile =
  (fs: FileSystemPort, layout: CodexHomeLayout, name: SnapshotName): TE.TaskEither<FileSystemError, SavedAccount | null> =>
  async () => {
    const bytes = await readPrivateFile(fs, snapshotPath(fs, layout, name))();
    if (E.isLeft(bytes)) {
      const error = bytes.left;
      return error._tag === 'SnapshotRefused' || isNotFound(error) ? E.right(null) : E.left(error);
    }
    const summary = await identifyAuth(digestOf(fs), bytes.right)();
    if (E.isLeft(summary)) return E.right(null);
    const digest = fs.digest(bytes.right);
    return E.right(savedAccountOf(summary.right, name, digest));
  };

/** The index after repair, and whether anything was repaired. */
export interface LoadedAccountIndex {
  readonly index: AccountIndex;
  readonly repaired: boolean;
}

/**
 * The index, repaired against the snapshots beside it: a corrupt index (or a link at its path) is
 * rebuilt from the snapshots; entries whose snapshot is gone are dropped; snapshots missing from the
 * index are added (an add interrupted between its snapshot and its index entry is adopted). A repaired
 * index is written back when it can be; a failed write (a full disk) does not fail the load. Snapshots are
 * never removed or changed.
 */
export const loadAccountIndex =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, LoadedAccountIndex> =>
  async () => {
    const directory = await checkProfilesDirectory(fs, layout, false)();
    if (E.isLeft(directory)) return directory;
    if (directory.right === 'absent') return E.right({ index: emptyAccountIndex, repaired: false });
    const stored = await readAccountIndex(fs, layout)();
    if (E.isLeft(stored) && stored.left._tag !== 'CorruptAccountIndex') return stored;
    const names = await fs.listDirectory(layout.profilesDirectory)();
    if (E.isLeft(names)) return names;
    const snapshotNames = new Set(names.right.filter((name) => SNAPSHOT_NAME_PATTERN.test(name)));
    const start = E.isRight(stored) ? stored.right : emptyAccountIndex;
    let index: AccountIndex = { version: 1, accounts: start.accounts.filter((a) => snapshotNames.has(a.snapshot)) };
    let repaired = E.isLeft(stored) || index.accounts.length !== start.accounts.length;
    const known = new Set(index.accounts.map((a) => a.snapshot as string));
    for (const name of [...snapshotNames].sort()) {
      if (known.has(name)) continue;
      const account = await savedAccountFromFile(fs, layout, name as SnapshotName)();
      if (E.isLeft(account)) return account;
      if (account.right === null || findSavedAccount(index, account.right.id) !== undefined) continue;
      index = upsertSavedAccount(index, account.right);
      repaired = true;
    }
    // A repair that cannot be written (a full disk) is still the truth of the snapshots: it is answered, and
    // written by the next load or mutation that can.
    if (repaired) await writeFileAtomic(fs, layout.accountIndexFile, encodeAccountIndex(index), PRIVATE_FILE_MODE)();
    return E.right({ index, repaired });
  };

/**
 * The accounts of this device: the saved ones plus the active one, each with its non-secret claims.
 *
 * @example
 * ```ts
 * const list = await listAccounts(fs, layout)();
 * // Right({ accounts: [{ id: 'chatgpt:acc-1:user-1', email: 'ada@example.com', planType: 'plus', active: true, saved: true, ... }], ... })
 * ```
 */
export const listAccounts =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, AccountList> =>
  async () => {
    const loaded = await loadAccountIndex(fs, layout)();
    if (E.isLeft(loaded)) return loaded;
    const bytes = await readActiveAuth(fs, layout)();
    if (E.isLeft(bytes)) return bytes;
    const active = bytes.right === null ? null : await identifyAuth(digestOf(fs), bytes.right)();
    const activeAccount = active !== null && E.isRight(active) ? active.right : null;
    const accounts: ListedAccount[] = loaded.right.index.accounts.map((a) => ({ ...summaryOf(a), active: a.id === activeAccount?.id, saved: true }));
    if (activeAccount !== null && findSavedAccount(loaded.right.index, activeAccount.id) === undefined) {
      accounts.push({ ...activeAccount, active: true, saved: false });
    }
    return E.right({
      accounts,
      activeAccountId: activeAccount?.id ?? null,
      activeAuth: bytes.right === null ? 'absent' : activeAccount === null ? 'unreadable' : 'present',
      indexRepaired: loaded.right.repaired,
    });
  };

/** The index loaded for a mutation, and how to put back a repair the load wrote should the mutation fail. */
interface IndexForMutation {
  readonly index: AccountIndex;
  readonly undo: Undo;
}

/** {@link loadAccountIndex}, remembering the index file as it was so a failed mutation leaves it so. */
const loadIndexForMutation =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, IndexForMutation> =>
  async () => {
    const prior = await priorFile(fs, layout.accountIndexFile)();
    if (E.isLeft(prior)) return prior;
    const loaded = await loadAccountIndex(fs, layout)();
    if (E.isLeft(loaded)) return loaded;
    return E.right({ index: loaded.right.index, undo: loaded.right.repaired ? restoreFile(fs, layout.accountIndexFile, prior.right) : noUndo });
  };

/** What {@link saveSnapshot} did, and how to take it back (for a later step of the same mutation that fails). */
interface SnapshotSaved {
  readonly outcome: SnapshotOutcome;
  readonly undo: Undo;
}

/**
 * Saves `bytes` (an auth.json of `account`) as its snapshot and indexes it. All or nothing: when a step
 * fails, the snapshot, the index and the profiles directory are left as they were.
 */
const saveSnapshot =
  (fs: FileSystemPort, layout: CodexHomeLayout, account: AccountSummary, bytes: Uint8Array): TE.TaskEither<AccountsError, SnapshotSaved> =>
  async () => {
    const directory = await checkProfilesDirectory(fs, layout, true)();
    if (E.isLeft(directory)) return directory;
    let undo = undoDirectory(fs, layout, directory.right);
    const failed = async <L>(error: E.Either<L, never>): Promise<E.Either<L, never>> => {
      await undo();
      return error;
    };
    const loaded = await loadIndexForMutation(fs, layout)();
    if (E.isLeft(loaded)) return failed(loaded);
    undo = undoBoth(undo, loaded.right.undo);
    const digest = fs.digest(bytes);
    const existing = findSavedAccount(loaded.right.index, account.id);
    if (existing?.digest === digest) {
      const stored = await readPrivateFile(fs, snapshotPath(fs, layout, existing.snapshot))();
      if (E.isRight(stored) && fs.digest(stored.right) === digest) return E.right({ outcome: 'unchanged', undo });
    }
    const name = existing?.snapshot ?? snapshotNameOf(fs.digest(utf8(account.id)));
    const path = snapshotPath(fs, layout, name);
    const priorIndex = await priorFile(fs, layout.accountIndexFile)();
    if (E.isLeft(priorIndex)) return failed(priorIndex);
    const priorSnapshot = await priorFile(fs, path)();
    if (E.isLeft(priorSnapshot)) return failed(priorSnapshot);
    const written = await writeFileAtomic(fs, path, bytes, PRIVATE_FILE_MODE)();
    if (E.isLeft(written)) return failed(written);
    undo = undoBoth(undo, restoreFile(fs, path, priorSnapshot.right));
    const index = upsertSavedAccount(loaded.right.index, savedAccountOf(account, name, digest));
    // All or nothing: a snapshot whose index entry could not be written is put back as it was (a new one removed).
    const indexed = await writeFileAtomic(fs, layout.accountIndexFile, encodeAccountIndex(index), PRIVATE_FILE_MODE)();
    if (E.isLeft(indexed)) return failed(indexed);
    undo = undoBoth(undo, restoreFile(fs, layout.accountIndexFile, priorIndex.right));
    return E.right({ outcome: existing === undefined ? 'new' : 'updated', undo });
  };

/**
 * Saves a private snapshot of the active auth.json (0600, in the profiles directory) and indexes its
 * account; a snapshot of the same account is replaced (its tokens may have been refreshed).
 */
export const saveActiveAccount =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, SavedActiveAccount> =>
  async () => {
    const bytes = await readActiveAuth(fs, layout)();
    if (E.isLeft(bytes)) return bytes;
    if (bytes.right === null) return E.left({ _tag: 'NoActiveAuth', path: layout.authFile });
    const account = await identifyAuth(digestOf(fs), bytes.right)();
    if (E.isLeft(account)) return account;
    const saved = await saveSnapshot(fs, layout, account.right, bytes.right)();
    if (E.isLeft(saved)) return saved;
    const authDigest = fs.digest(bytes.right);
    return E.right({ account: account.right, snapshot: saved.right.outcome, authDigest });
  };

/** SHA-256 of the active auth.json's bytes, or `null` when there is none; never show it to users. */
export const readAuthDigest =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, string | null> =>
  async () => {
    const bytes = await readActiveAuth(fs, layout)();
    if (E.isLeft(bytes)) return bytes;
    return E.right(bytes.right === null ? null : fs.digest(bytes.right));
  };

/** Whether a browser login has written a new auth.json: the digest changed and a file is there. */
export const loginCompleted = (before: string | null, after: string | null): boolean => after !== null && after !== before;

/** The state "Add account" keeps while the browser login runs. */
export interface AddAccountStarted {
  /** The account saved before the login, if auth.json existed. */
  readonly previous: SavedActiveAccount | null;
  /** Digest of auth.json before the login (`null`: none) — compare with {@link loginCompleted}. */
  readonly authDigestBefore: string | null;
}

/**
 * "Add account", step 1: saves the current account (when there is one) and records the auth.json
 * digest. Then the executor starts `account/login/start`; when it completes, call {@link finishAddAccount}.
 */
export const startAddAccount =
  (fs: FileSystemPort, layout: CodexHomeLayout): TE.TaskEither<AccountsError, AddAccountStarted> =>
  async () => {
    const saved = await saveActiveAccount(fs, layout)();
    if (E.isRight(saved)) return E.right({ previous: saved.right, authDigestBefore: saved.right.authDigest });
    if (saved.left._tag === 'NoActiveAuth') return E.right({ previous: null, authDigestBefore: null });
    if (saved.left._tag !== 'MalformedAuthFile') return saved;
    const digest = await readAuthDigest(fs, layout)();
    return E.isLeft(digest) ? digest : E.right({ previous: null, authDigestBefore: digest.right });
  };

/** What {@link finishAddAccount} found. */
export type AddAccountOutcome =
  | { readonly _tag: 'Added'; readonly account: AccountSummary; readonly snapshot: SnapshotOutcome }
  /** auth.json did not change: the login has not completed (or was cancelled). */
  | { readonly _tag: 'LoginNotCompleted' };

/** "Add account", last step: when auth.json changed since {@link startAddAccount}, saves the new account. */
export const finishAddAccount =
  (fs: FileSystemPort, layout: CodexHomeLayout, started: AddAccountStarted): TE.TaskEither<AccountsError, AddAccountOutcome> =>
  async () => {
    const digest = await readAuthDigest(fs, layout)();
    if (E.isLeft(digest)) return digest;
    if (!loginCompleted(started.authDigestBefore, digest.right)) return E.right({ _tag: 'LoginNotCompleted' });
    const saved = await saveActiveAccount(fs, layout)();
    return E.isLeft(saved) ? saved : E.right({ _tag: 'Added', account: saved.right.account, snapshot: saved.right.snapshot });
  };

/** What {@link switchAccount} did. */
export type SwitchOutcome =
  /**
   * auth.json now holds the account's snapshot; restart the app-server. `wroteThroughLinkTo`: the
   * active auth.json is a link (to the native home) whose target was replaced; the link is kept.
   */
  | { readonly _tag: 'Switched'; readonly account: AccountSummary; readonly wroteThroughLinkTo: string | null }
  /** The account is already active; nothing was written (its snapshot was refreshed). */
  | { readonly _tag: 'AlreadyActive'; readonly account: AccountSummary };

/** What {@link preserveCurrentAuth} saved: the account (`null`: a backup file), and how to take it back. */
interface PreservedAuth {
  readonly account: AccountSummary | null;
  readonly undo: Undo;
}

/** Saves the current auth.json before it is replaced: a snapshot when identifiable, else a backup file. */
const preserveCurrentAuth =
  (fs: FileSystemPort, layout: CodexHomeLayout, bytes: Uint8Array): TE.TaskEither<AccountsError, PreservedAuth> =>
  async () => {
    const account = await identifyAuth(digestOf(fs), bytes)();
    if (E.isRight(account)) {
      const saved = await saveSnapshot(fs, layout, account.right, bytes)();
      return E.isLeft(saved) ? saved : E.right({ account: account.right, undo: saved.right.undo });
    }
    const directory = await checkProfilesDirectory(fs, layout, true)();
    if (E.isLeft(directory)) return directory;
    const digest = fs.digest(bytes);
    const backup = joinPath(fs.platform, layout.profilesDirectory, `unreadable-auth-${digest.slice(0, 16)}.json`);
    const undo = undoDirectory(fs, layout, directory.right);
    const prior = await priorFile(fs, backup)();
    const written = E.isLeft(prior) ? prior : await writeFileAtomic(fs, backup, bytes, PRIVATE_FILE_MODE)();
    if (E.isLeft(written)) {
      await undo();
      return written;
    }
    return E.right({ account: null, undo: E.isLeft(prior) ? undo : undoBoth(undo, restoreFile(fs, backup, prior.right)) });
  };

/** The request to switch to a saved account. */
export interface SwitchRequest {
  readonly accountId: string;
  /** What the executor is doing now; a switch is refused while anything is active. */
  readonly activity: ExecutorActivity;
}

/**
 * "Switch": replaces only the active auth.json with the saved snapshot of `accountId`, atomically
 * (temporary file in the same directory, fsync, rename). The current auth.json is saved first, so
 * nothing is lost. When auth.json is a link (to the native home), the link's target is replaced the
 * same way (temporary file beside the target) and the link is kept; a dangling link is replaced by
 * a file of the Wework home. The executor restarts the app-server afterwards.
 */
export const switchAccount =
  (fs: FileSystemPort, layout: CodexHomeLayout, request: SwitchRequest): TE.TaskEither<AccountsError, SwitchOutcome> =>
  async () => {
    const allowed = checkSwitchAllowed(request.activity);
    if (E.isLeft(allowed)) return allowed;
    const loaded = await loadIndexForMutation(fs, layout)();
    if (E.isLeft(loaded)) return loaded;
    // All or nothing: when a later step fails, what this switch wrote before it (an index repair, the
    // snapshot of the current account) is put back, so the homes are as they were.
    let undo = loaded.right.undo;
    const failed = async <L>(error: E.Either<L, never>): Promise<E.Either<L, never>> => {
      await undo();
      return error;
    };
    const entry = findSavedAccount(loaded.right.index, request.accountId);
    if (entry === undefined) return failed(E.left<AccountsError>({ _tag: 'UnknownAccount', accountId: request.accountId }));
    const path = snapshotPath(fs, layout, entry.snapshot);
    const snapshot = await readPrivateFile(fs, path)();
    if (E.isLeft(snapshot)) return failed(snapshot);
    const target = await identifyAuth(digestOf(fs), snapshot.right)();
    if (E.isLeft(target) || target.right.id !== entry.id) return failed(E.left<AccountsError>({ _tag: 'SnapshotMismatch', accountId: entry.id, path }));
    const current = await readActiveAuth(fs, layout)();
    if (E.isLeft(current)) return failed(current);
    if (current.right !== null) {
      const preserved = await preserveCurrentAuth(fs, layout, current.right)();
      if (E.isLeft(preserved)) return failed(preserved);
      if (preserved.right.account?.id === entry.id) return E.right({ _tag: 'AlreadyActive', account: target.right });
      undo = undoBoth(undo, preserved.right.undo);
    }
    const destination = await writeDestinationOf(fs, layout.authFile)();
    if (E.isLeft(destination)) return failed(destination);
    const where = destination.right;
    if (where._tag === 'Direct' && where.stat.kind !== 'file') return failed(E.left<AccountsError>({ _tag: 'ActiveAuthOccupied', path: layout.authFile }));
    const writePath = where._tag === 'ThroughLink' ? where.path : layout.authFile;
    const written = await writeFileAtomic(fs, writePath, snapshot.right, PRIVATE_FILE_MODE)();
    if (E.isLeft(written)) return failed(written);
    return E.right({ _tag: 'Switched', account: target.right, wroteThroughLinkTo: where._tag === 'ThroughLink' ? where.path : null });
  };
