/**
 * The rules of package intake: copying an untrusted directory tree once into a private staging
 * directory before anything is validated or published.
 *
 * Every function here is pure: limits, what an `fstat` result says an entry is, and whether the next
 * entry or the next bytes of a file may be taken, in; a decision or a typed refusal out. The Node
 * walker (`@wework/sync-transaction/node`, `directoryPackageSource`) opens every entry without
 * following links and asks these functions about the descriptor it holds.
 *
 * Decisions, with the case of a package that tries to smuggle the user's `~/.codex/auth.json` in mind:
 * only regular files and directories are taken; a symbolic link, FIFO, socket or device is refused; a
 * regular file with more than one hard link is refused (copying it "without the link" would still copy
 * the linked secret's bytes, so only refusal is safe); an entry whose identity (device and inode)
 * changes between the check and the open is refused.
 */
import * as E from 'fp-ts/lib/Either.js';

/** Limits of one intake. Every one is a positive integer. */
export interface IntakeLimits {
  /** Largest regular file, in bytes. */
  readonly maxFileBytes: number;
  /** Largest sum of all file sizes, in bytes. */
  readonly maxTotalBytes: number;
  /** Most entries (files and directories, the root excluded). */
  readonly maxEntries: number;
  /** Deepest nesting of an entry below the root (a top-level entry has depth 1). */
  readonly maxDepth: number;
  /** Longest any single file-system operation of the intake may take, in milliseconds. */
  readonly operationTimeoutMs: number;
  /** Longest the whole intake may take, in milliseconds. */
  readonly totalTimeoutMs: number;
}

/**
 * The default limits: 256 MiB per file, 1 GiB in total, 10 000 entries, depth 32, 10 s per
 * operation and 5 minutes for the whole intake.
 */
export const DEFAULT_INTAKE_LIMITS: IntakeLimits = {
  maxFileBytes: 256 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxEntries: 10_000,
  maxDepth: 32,
  operationTimeoutMs: 10_000,
  totalTimeoutMs: 300_000,
};

/**
 * The limits with `overrides` applied; an override that is not a positive safe integer is ignored
 * (the default stays).
 */
export const intakeLimits = (overrides: Partial<IntakeLimits> = {}): IntakeLimits => {
  const pick = (key: keyof IntakeLimits): number => {
    const value = overrides[key];
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_INTAKE_LIMITS[key];
  };
  return {
    maxFileBytes: pick('maxFileBytes'),
    maxTotalBytes: pick('maxTotalBytes'),
    maxEntries: pick('maxEntries'),
    maxDepth: pick('maxDepth'),
    operationTimeoutMs: pick('operationTimeoutMs'),
    totalTimeoutMs: pick('totalTimeoutMs'),
  };
};

/** What an entry is, from the type bits of its mode. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'characterDevice' | 'blockDevice' | 'unknown';

/** The part of an `fstat`/`lstat` result intake decides on. */
export interface EntryStat {
  /** The full `st_mode` (type and permission bits). */
  readonly mode: number;
  readonly nlink: number;
  readonly size: number;
  /** Device and inode as `bigint` (inode numbers may not fit a double). */
  readonly dev: bigint;
  readonly ino: bigint;
}

const S_IFMT = 0o170000;
const KINDS: ReadonlyMap<number, EntryKind> = new Map([
  [0o100000, 'file'],
  [0o040000, 'directory'],
  [0o120000, 'symlink'],
  [0o010000, 'fifo'],
  [0o140000, 'socket'],
  [0o020000, 'characterDevice'],
  [0o060000, 'blockDevice'],
]);

/** What the type bits of `mode` (POSIX `S_IFMT`) say an entry is. */
export const entryKindOf = (mode: number): EntryKind => KINDS.get(mode & S_IFMT) ?? 'unknown';

/** Whether two stats name the same file (device and inode). */
export const sameIdentity = (a: Pick<EntryStat, 'dev' | 'ino'>, b: Pick<EntryStat, 'dev' | 'ino'>): boolean => a.dev === b.dev && a.ino === b.ino;

/** Why an intake refused a package. */
export type IntakeRefusalReason =
  /** The package root is not a directory (or is a link). */
  | 'NotADirectory'
  /** A symbolic link. */
  | 'Symlink'
  /** A FIFO, socket, device or anything else that is neither a regular file nor a directory. */
  | 'SpecialFile'
  /** A regular file with more than one hard link. */
  | 'Hardlink'
  /** A file over {@link IntakeLimits.maxFileBytes}. */
  | 'FileTooLarge'
  /** The files together over {@link IntakeLimits.maxTotalBytes}. */
  | 'PackageTooLarge'
  /** More than {@link IntakeLimits.maxEntries} entries. */
  | 'TooManyEntries'
  /** An entry deeper than {@link IntakeLimits.maxDepth}. */
  | 'TooDeep'
  /** The entry was replaced while it was being taken (a race). */
  | 'EntryChanged'
  /** An operation or the whole intake took longer than its limit. */
  | 'TimedOut'
  /** The entry could not be opened or read. */
  | 'Unreadable';

/**
 * A package refused by intake. `entry` is the entry's path relative to the package root (`''` for the
 * root); it is untrusted, so messages for people name the `reason` only.
 */
export interface PackageRefused {
  readonly _tag: 'PackageRefused';
  readonly reason: IntakeRefusalReason;
  readonly entry: string;
}

/** Builds a {@link PackageRefused}. */
export const packageRefused = (reason: IntakeRefusalReason, entry: string): PackageRefused => ({ _tag: 'PackageRefused', reason, entry });

/** What an intake has taken so far. */
export interface IntakeTally {
  readonly entries: number;
  readonly bytes: number;
}

/** Nothing taken yet. */
export const emptyTally: IntakeTally = { entries: 0, bytes: 0 };

/**
 * Whether the entry at `path` (depth `depth`, described by the stat of the descriptor actually opened)
 * may be taken, given what was taken before. Right: its kind and the tally with it counted (a file's
 * declared size included).
 */
export const admitEntry = (
  limits: IntakeLimits,
  tally: IntakeTally,
  entry: {
    readonly path: string;
    readonly depth: number;
    readonly stat: EntryStat;
  }
): E.Either<PackageRefused, { readonly kind: 'file' | 'directory'; readonly tally: IntakeTally }> => {
  const { path, depth, stat } = entry;
  const kind = entryKindOf(stat.mode);
  if (kind === 'symlink') return E.left(packageRefused('Symlink', path));
  if (kind !== 'file' && kind !== 'directory') return E.left(packageRefused('SpecialFile', path));
  if (tally.entries + 1 > limits.maxEntries) return E.left(packageRefused('TooManyEntries', path));
  if (depth > limits.maxDepth) return E.left(packageRefused('TooDeep', path));
  if (kind === 'directory')
    return E.right({
      kind,
      tally: { entries: tally.entries + 1, bytes: tally.bytes },
    });
  if (stat.nlink > 1) return E.left(packageRefused('Hardlink', path));
  if (stat.size > limits.maxFileBytes) return E.left(packageRefused('FileTooLarge', path));
  if (tally.bytes + stat.size > limits.maxTotalBytes) return E.left(packageRefused('PackageTooLarge', path));
  return E.right({
    kind,
    tally: { entries: tally.entries + 1, bytes: tally.bytes + stat.size },
  });
};

/**
 * Whether a file being copied may grow to `copied` bytes (a file can grow after its `fstat`):
 * `tally` is the tally before the file was admitted; the file counts with what was really read.
 */
export const admitCopiedBytes = (limits: IntakeLimits, tally: IntakeTally, path: string, copied: number): E.Either<PackageRefused, void> =>
  copied > limits.maxFileBytes
    ? E.left(packageRefused('FileTooLarge', path))
    : tally.bytes + copied > limits.maxTotalBytes
    ? E.left(packageRefused('PackageTooLarge', path))
    : E.right(undefined);
