/**
 * The untrusted plugin package as an extractor hands it over, and its validation.
 *
 * Every function here is pure: entries in, a validated package or a typed rejection out. Validation
 * happens before anything is written, so a rejected package leaves the disk untouched. A package is
 * accepted only when every entry, written under any root directory, stays inside that root: no
 * absolute paths, no `..` segments, no backslashes or NUL characters, no two entries that collide
 * (also on case-insensitive file systems), nothing written through a symbolic link, no link whose
 * target escapes the root (following the package's own links the way the kernel would), no device,
 * FIFO, socket or other special entry.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { parentOf, segmentsOf } from './internal/Paths.js';

const Bytes = new t.Type<Uint8Array, Uint8Array, unknown>(
  'Bytes',
  (u): u is Uint8Array => u instanceof Uint8Array,
  (u, c) => (u instanceof Uint8Array ? t.success(u) : t.failure(u, c)),
  t.identity,
);

/**
 * The content of a file an intake copied once into its private staging directory: where the copy is,
 * its size and its SHA-256 (computed while copying). Publication copies from there; the source is
 * never read again.
 */
export const StagedContent = t.type({ path: t.string, size: t.number, sha256: t.string });
/** See {@link StagedContent}. */
export type StagedContent = t.TypeOf<typeof StagedContent>;

/** One entry of a package as an extractor reports it (codec for untrusted input). */
export const PackageEntry = t.union([
  t.type({ kind: t.literal('file'), path: t.string, mode: t.number, bytes: Bytes }),
  t.type({ kind: t.literal('file'), path: t.string, mode: t.number, staged: StagedContent }),
  t.type({ kind: t.literal('directory'), path: t.string, mode: t.number }),
  t.type({ kind: t.literal('symlink'), path: t.string, target: t.string }),
  t.type({ kind: t.literal('other'), path: t.string, description: t.string }),
]);
/** One entry of a package: a file, a directory, a symbolic link or anything else (device, FIFO, ...). */
export type PackageEntry = t.TypeOf<typeof PackageEntry>;

/** A file of a validated package held in memory; `mode` is normalized (see {@link normalizedFileMode}). */
export interface ValidMemoryFile {
  readonly kind: 'file';
  readonly path: string;
  readonly mode: number;
  readonly bytes: Uint8Array;
}

/** A file of a validated package staged on disk by an intake (large packages never sit in memory). */
export interface ValidStagedFile {
  readonly kind: 'file';
  readonly path: string;
  readonly mode: number;
  readonly staged: StagedContent;
}

/** A file of a validated package. */
export type ValidFile = ValidMemoryFile | ValidStagedFile;

/** A directory of a validated package, explicit or implied by the paths below it. */
export interface ValidDirectory {
  readonly kind: 'directory';
  readonly path: string;
  readonly mode: number;
}

/** A symbolic link of a validated package, whose target stays inside the package. */
export interface ValidSymlink {
  readonly kind: 'symlink';
  readonly path: string;
  readonly target: string;
}

/** A validated entry; `path` is relative, normalized, `/`-separated. */
export type ValidEntry = ValidFile | ValidDirectory | ValidSymlink;

/**
 * A validated package: every entry (implied directories included) sorted by path, parents before
 * children. Only {@link validatePackage} makes one.
 */
export interface ValidPackage {
  readonly _tag: 'ValidPackage';
  readonly entries: ReadonlyArray<ValidEntry>;
}

/** Why an entry was rejected. */
export type PackageRejectionReason =
  | 'NotAnEntry'
  | 'EmptyPath'
  | 'AbsolutePath'
  | 'ParentSegment'
  | 'Backslash'
  | 'ControlCharacter'
  | 'DuplicatePath'
  | 'CaseCollision'
  | 'PathThroughSymlink'
  | 'PathThroughFile'
  | 'EscapingSymlink'
  | 'SpecialFile';

/** A package was rejected: `entry` names the offending entry (its path as given, or its index). */
export interface PackageRejected {
  readonly _tag: 'PackageRejected';
  readonly reason: PackageRejectionReason;
  readonly entry: string;
}

const rejected = (reason: PackageRejectionReason, entry: string): PackageRejected => ({ _tag: 'PackageRejected', reason, entry });

/**
 * Mode of a file entry as written: never broader than the source's (`mode & 0o755`: never group- or
 * world-writable, never set-id or sticky), except that the owner may always read it (0o400 is added
 * when the source lacks it — the owner must be able to read what it installs).
 */
export const normalizedFileMode = (mode: number): number => (mode & 0o755) | 0o400;

/** Mode of the implied directories and the root of every package tree written. */
export const PACKAGE_DIRECTORY_MODE = 0o755;

/**
 * Mode of an explicit directory entry as written: the source's read and execute bits for group and
 * others (never write), and always rwx for the owner (who writes the staged tree).
 */
export const normalizedDirectoryMode = (mode: number): number => 0o700 | (mode & 0o055);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Checks one path string; returns its normalized form or the reason it is refused. */
const checkPath = (path: string): E.Either<PackageRejectionReason, string> => {
  if (path.includes('\u0000') || CONTROL.test(path)) return E.left('ControlCharacter');
  if (path.includes('\\')) return E.left('Backslash');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return E.left('AbsolutePath');
  if (path.split('/').includes('..')) return E.left('ParentSegment');
  const normalized = segmentsOf(path).join('/');
  return normalized === '' ? E.left('EmptyPath') : E.right(normalized);
};

const MAX_LINK_DEPTH = 40;

/**
 * Resolves `target` of a link living in directory `dir` (segments relative to the root), following the
 * package's own links the way the kernel would. `null` when the resolution leaves the root or loops.
 */
const resolveInside = (links: ReadonlyMap<string, string>, dir: ReadonlyArray<string>, target: string, depth: number): ReadonlyArray<string> | null => {
  if (depth > MAX_LINK_DEPTH || target.startsWith('/') || target.includes('\\') || CONTROL.test(target)) return null;
  let current: string[] = [...dir];
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (current.length === 0) return null;
      current.pop();
      continue;
    }
    current.push(segment);
    const link = links.get(current.join('/'));
    if (link !== undefined) {
      const resolved = resolveInside(links, current.slice(0, -1), link, depth + 1);
      if (resolved === null) return null;
      current = [...resolved];
    }
  }
  return current;
};

/**
 * Validates an untrusted package before anything is written. Returns the normalized package or the
 * first rejection, naming the entry. Never throws, whatever `input` is.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode('# skill');
 * validatePackage([{ kind: 'file', path: 'skills/a/SKILL.md', mode: 0o644, bytes }]); // Right
 * validatePackage([{ kind: 'file', path: '../evil', mode: 0o644, bytes }]); // Left ParentSegment '../evil'
 * ```
 */
export const validatePackage = (input: ReadonlyArray<unknown>): E.Either<PackageRejected, ValidPackage> => {
  const byPath = new Map<string, ValidEntry>();
  const folded = new Map<string, string>();
  const links = new Map<string, string>();
  const decoded: ValidEntry[] = [];
  for (const [index, raw] of input.entries()) {
    const entry = PackageEntry.decode(raw);
    if (E.isLeft(entry)) return E.left(rejected('NotAnEntry', `#${index}`));
    const given = entry.right.path;
    const checked = checkPath(given);
    if (E.isLeft(checked)) return E.left(rejected(checked.left, given));
    const path = checked.right;
    if (entry.right.kind === 'other') return E.left(rejected('SpecialFile', given));
    if (byPath.has(path)) return E.left(rejected('DuplicatePath', given));
    const fold = path.toLowerCase().normalize('NFC');
    if (folded.has(fold)) return E.left(rejected('CaseCollision', given));
    folded.set(fold, path);
    const valid: ValidEntry =
      entry.right.kind === 'file'
        ? 'staged' in entry.right
          ? { kind: 'file', path, mode: normalizedFileMode(entry.right.mode), staged: entry.right.staged }
          : { kind: 'file', path, mode: normalizedFileMode(entry.right.mode), bytes: entry.right.bytes }
        : entry.right.kind === 'directory'
          ? { kind: 'directory', path, mode: normalizedDirectoryMode(entry.right.mode) }
          : { kind: 'symlink', path, target: entry.right.target };
    byPath.set(path, valid);
    if (valid.kind === 'symlink') links.set(path, valid.target);
    decoded.push(valid);
  }
  // Ancestors: each must be a directory (explicit or implied), never a file or a link.
  for (const entry of decoded) {
    const segments = entry.path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const ancestor = segments.slice(0, i).join('/');
      const existing = byPath.get(ancestor);
      if (existing?.kind === 'symlink') return E.left(rejected('PathThroughSymlink', entry.path));
      if (existing?.kind === 'file') return E.left(rejected('PathThroughFile', entry.path));
      if (existing === undefined) {
        const fold = ancestor.toLowerCase().normalize('NFC');
        if (folded.has(fold)) return E.left(rejected('CaseCollision', entry.path));
        folded.set(fold, ancestor);
        byPath.set(ancestor, { kind: 'directory', path: ancestor, mode: PACKAGE_DIRECTORY_MODE });
      }
    }
  }
  for (const entry of decoded) {
    if (entry.kind !== 'symlink') continue;
    const dir = entry.path.includes('/') ? parentOf(`/${entry.path}`).slice(1).split('/') : [];
    if (entry.target === '' || resolveInside(links, dir, entry.target, 0) === null) return E.left(rejected('EscapingSymlink', entry.path));
  }
  const entries = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return E.right({ _tag: 'ValidPackage', entries });
};

