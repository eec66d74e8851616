/**
 * Fault injection over any {@link FileSystemPort} — the real one or the in-memory one — the way SQLite
 * tests its writes: count the mutations a program makes, then run it once per step with that step
 * failing (`ENOSPC`, `EIO`, `EDQUOT`) and compare the whole tree afterwards with the state before and
 * the state after a clean run.
 *
 * Pure: it only wraps the port it is given.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { fileSystemError, type FileOperation, type FileSystemError, type FileSystemPort } from '../FileSystemPort.js';
import { baseNameOf, joinPath } from '../Platform.js';

/** The kind of step a mutation is, as a disk fails it: writing bytes, renaming, flushing, creating a directory, unlinking, changing bits. */
export type MutationKind = 'write' | 'rename' | 'fsync' | 'mkdir' | 'unlink' | 'chmod';

/** A mutation an {@link instrumentFileSystem} port is about to perform. */
export interface Mutation {
  /** 0-based index among the port's mutations (each file of `writeFiles` counts as one). */
  readonly index: number;
  readonly operation: FileOperation;
  readonly kind: MutationKind;
  /** The path it changes (`from -> to` for a rename, the roots joined by spaces for a flush). */
  readonly path: string;
}

/** What `before` decides for a mutation: run it (`true`), fail it with `EIO` (`false`) or with the code it names. */
export type MutationVerdict = boolean | string;

/** The codes a full or failing disk answers with. */
export const DISK_FAULT_CODES = ['ENOSPC', 'EIO', 'EDQUOT'] as const;

/** One of {@link DISK_FAULT_CODES}. */
export type DiskFaultCode = (typeof DISK_FAULT_CODES)[number];

/**
 * Wraps a file-system port so that `before` is consulted ahead of every mutation: it may pause (by not
 * resolving yet), let the mutation run, or make it fail before it touches anything (which is what the
 * port promises of a failed mutation). `writeFiles` is split into one mutation per file. Reads pass
 * straight through. For fault-injection and crash tests: announce each step, kill the process at step
 * k, or fail step k.
 *
 * @example
 * ```ts
 * const diskFull = instrumentFileSystem(fs, (m) => (m.kind === 'write' ? 'ENOSPC' : true));
 * ```
 */
export const instrumentFileSystem = (inner: FileSystemPort, before: (mutation: Mutation) => MutationVerdict | Promise<MutationVerdict>): FileSystemPort => {
  let index = 0;
  const gated =
    <A>(operation: FileOperation, kind: MutationKind, path: string, run: () => TE.TaskEither<FileSystemError, A>): TE.TaskEither<FileSystemError, A> =>
    async () => {
      const verdict = await before({ index: index++, operation, kind, path });
      return verdict === true ? run()() : E.left(fileSystemError(operation, path, verdict === false ? 'EIO' : verdict));
    };
  return {
    platform: inner.platform,
    lstat: (path) => inner.lstat(path),
    stat: (path) => inner.stat(path),
    readFile: (path, options) => inner.readFile(path, options),
    readLink: (path) => inner.readLink(path),
    realPath: (path) => inner.realPath(path),
    listDirectory: (path) => inner.listDirectory(path),
    digestFile: (path) => inner.digestFile(path),
    digest: (bytes) => inner.digest(bytes),
    makeDirectory: (path, mode) => gated('makeDirectory', 'mkdir', path, () => inner.makeDirectory(path, mode)),
    createDirectory: (path, mode) => gated('createDirectory', 'mkdir', path, () => inner.createDirectory(path, mode)),
    chmod: (path, mode) => gated('chmod', 'chmod', path, () => inner.chmod(path, mode)),
    createTempFile: (directory, prefix, bytes, mode) => gated('createTempFile', 'write', directory, () => inner.createTempFile(directory, prefix, bytes, mode)),
    writeFiles: (files) => async () => {
      for (const file of files) {
        const written = await gated('writeFiles', 'write', file.path, () => inner.writeFiles([file]))();
        if (E.isLeft(written)) return written;
      }
      return E.right(undefined);
    },
    writeFileDurable: (file) => gated('writeFileDurable', 'write', file.path, () => inner.writeFileDurable(file)),
    copyFile: (from, to, mode) => gated('copyFile', 'write', to, () => inner.copyFile(from, to, mode)),
    symlink: (target, path) => gated('symlink', 'write', path, () => inner.symlink(target, path)),
    rename: (from, to) => gated('rename', 'rename', `${from} -> ${to}`, () => inner.rename(from, to)),
    publishExclusive: (from, to) => gated('publishExclusive', 'rename', `${from} -> ${to}`, () => inner.publishExclusive(from, to)),
    remove: (path) => gated('remove', 'unlink', path, () => inner.remove(path)),
    removeFile: (path) => gated('removeFile', 'unlink', path, () => inner.removeFile(path)),
    removeTree: (path) => gated('removeTree', 'unlink', path, () => inner.removeTree(path)),
    removeEmptyDirectory: (path) => gated('removeEmptyDirectory', 'unlink', path, () => inner.removeEmptyDirectory(path)),
    flush: (roots) => gated('flush', 'fsync', roots.join(' '), () => inner.flush(roots)),
  };
};

/** A port whose `step`-th mutation fails with `code`, and what it saw. */
export interface FaultyFileSystem {
  readonly fs: FileSystemPort;
  /** Every mutation asked of the port so far, the failed one included. */
  readonly mutations: () => ReadonlyArray<Mutation>;
  /** Whether the planned fault has happened (false when the program made fewer mutations). */
  readonly fired: () => boolean;
}

/**
 * A port that fails its `step`-th mutation (0-based) with `code` and runs every other one — the
 * building block of a "fail each step once" property. `step: -1` fails nothing and only counts.
 *
 * @example
 * ```ts
 * const counted = failingAt(fs, -1, 'ENOSPC');
 * await program(counted.fs)();
 * for (let step = 0; step < counted.mutations().length; step++) {
 *   const faulty = failingAt(freshFs(), step, 'ENOSPC');
 *   await program(faulty.fs)(); // then: the old state or the new one
 * }
 * ```
 */
export const failingAt = (inner: FileSystemPort, step: number, code: DiskFaultCode | string): FaultyFileSystem => {
  const seen: Mutation[] = [];
  let fired = false;
  const fs = instrumentFileSystem(inner, (mutation) => {
    seen.push(mutation);
    if (mutation.index !== step) return true;
    fired = true;
    return code;
  });
  return { fs, mutations: () => seen.slice(), fired: () => fired };
};

/** One entry of a {@link snapshotTree}: a file's bytes and bits, a directory's bits, or a link's target. */
export type TreeEntry =
  | { readonly kind: 'file'; readonly mode: number; readonly sha256: string; readonly size: number }
  | { readonly kind: 'directory'; readonly mode: number }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'other' };

/** Every path below a root (relative, `/`-separated, sorted) with its entry: equal snapshots are equal trees, byte for byte. */
export type TreeSnapshot = ReadonlyArray<readonly [string, TreeEntry]>;

/**
 * Reads the whole tree under `root` through the port (links not followed) — the same on the real and
 * the in-memory file system — so a test can compare it byte for byte with another. An absent root is
 * the empty tree. Reads only; fails with the port's error.
 */
export const snapshotTree =
  (fs: FileSystemPort, root: string): TE.TaskEither<FileSystemError, TreeSnapshot> =>
  async () => {
    const out: Array<readonly [string, TreeEntry]> = [];
    const visit = async (path: string, relative: string): Promise<E.Either<FileSystemError, void>> => {
      const stat = await fs.lstat(path)();
      if (E.isLeft(stat)) return stat;
      if (stat.right === null) return E.right(undefined);
      const { kind, mode } = stat.right;
      if (kind === 'file') {
        const bytes = await fs.readFile(path, { followSymlink: false, maxBytes: Number.MAX_SAFE_INTEGER })();
        if (E.isLeft(bytes)) return bytes;
        if (relative !== '') out.push([relative, { kind, mode, sha256: fs.digest(bytes.right), size: bytes.right.length }]);
        return E.right(undefined);
      }
      if (kind === 'symlink') {
        const target = await fs.readLink(path)();
        if (E.isLeft(target)) return target;
        out.push([relative, { kind, target: target.right }]);
        return E.right(undefined);
      }
      if (kind === 'other') {
        out.push([relative, { kind }]);
        return E.right(undefined);
      }
      if (relative !== '') out.push([relative, { kind, mode }]);
      const names = await fs.listDirectory(path)();
      if (E.isLeft(names)) return names;
      for (const name of [...names.right].sort()) {
        const visited = await visit(joinPath(fs.platform, path, name), relative === '' ? name : `${relative}/${name}`);
        if (E.isLeft(visited)) return visited;
      }
      return E.right(undefined);
    };
    const visited = await visit(root, '');
    return E.isLeft(visited) ? visited : E.right(out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  };

/**
 * Whether a file name is a temporary one: the port's own (`.<name>.<id>.tmp`) or one a library made
 * with a `.tmp-` or `.tmp.` infix. A mutation that answered must leave none of these behind.
 */
export const isTemporaryName = (name: string): boolean => /\.tmp$|\.tmp[-.]/.test(name);

/** The paths of a snapshot whose last segment {@link isTemporaryName}. */
export const temporaryPathsIn = (snapshot: TreeSnapshot): ReadonlyArray<string> =>
  snapshot.map(([path]) => path).filter((path) => isTemporaryName(baseNameOf('unix', path)));
