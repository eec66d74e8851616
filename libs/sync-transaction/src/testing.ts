/**
 * `@wework/sync-transaction/testing`: fast-check arbitraries of package entries — well-formed and
 * hostile — so hosts can property-test what they feed to `validatePackage`, and a file-system port
 * wrapper that announces, pauses or fails each mutation for crash and fault-injection tests. Needs
 * `fast-check` (an optional peer dependency).
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import * as fc from 'fast-check';
import { fileSystemError, type FileOperation, type FileSystemError, type FileSystemPort } from '@wework/ports';
import type { PackageEntry } from './Package.js';

const NAMES = ['a', 'b', 'c', 'skills', 'SKILL.md', 'bin', 'x.js', 'A', '.hidden', 'data'];

/** A plausible relative path of 1–4 segments from a small alphabet (so collisions happen). */
export const relativePathArbitrary: fc.Arbitrary<string> = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

/** A path that is hostile or malformed: absolute, `..`, backslashes, NUL, empty, drive letters. */
export const hostilePathArbitrary: fc.Arbitrary<string> = fc.oneof(
  relativePathArbitrary.map((p) => `/${p}`),
  relativePathArbitrary.map((p) => `../${p}`),
  relativePathArbitrary.map((p) => `${p}/../../x`),
  relativePathArbitrary.map((p) => `${p}\\..\\x`),
  relativePathArbitrary.map((p) => `${p}\u0000`),
  fc.constantFrom('', '.', './', 'C:/x', 'c:\\x', '..'),
);

/** A symbolic link target: relative within or beyond the package, absolute, or through other links. */
export const linkTargetArbitrary: fc.Arbitrary<string> = fc.oneof(
  relativePathArbitrary,
  fc.array(fc.constantFrom('..', '.', ...NAMES), { minLength: 1, maxLength: 5 }).map((s) => s.join('/')),
  relativePathArbitrary.map((p) => `/${p}`),
);

const bytes = fc.uint8Array({ maxLength: 64 });
const mode = fc.constantFrom(0o644, 0o755, 0o600, 0o777, 0o4755);

/** Any entry, mostly well-formed, sometimes hostile (paths, links, special files). */
export const packageEntryArbitrary: fc.Arbitrary<PackageEntry> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('file' as const), path: relativePathArbitrary, mode, bytes }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('directory' as const), path: relativePathArbitrary, mode }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('symlink' as const), path: relativePathArbitrary, target: linkTargetArbitrary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('file' as const), path: hostilePathArbitrary, mode, bytes }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('other' as const), path: relativePathArbitrary, description: fc.constantFrom('block device', 'character device', 'fifo', 'socket') }) },
);

/** A package of up to `maxEntries` entries (default 12). */
export const packageArbitrary = (maxEntries = 12): fc.Arbitrary<ReadonlyArray<PackageEntry>> => fc.array(packageEntryArbitrary, { maxLength: maxEntries });

/** A mutation a {@link instrumentFileSystem} port is about to perform. */
export interface Mutation {
  /** 0-based index among the port's mutations (each file of `writeFiles` counts as one). */
  readonly index: number;
  readonly operation: FileOperation;
  readonly path: string;
}

/**
 * Wraps a file-system port so that `before` is consulted ahead of every mutation: it may pause (by
 * not resolving yet), let the mutation run (`true`), make it fail with `EIO` (`false`) or with the
 * error code it names (a string, e.g. `'ENOSPC'` for a full disk). `writeFiles` is split into one
 * mutation per file. Reads pass straight through. For fault-injection and crash tests: announce each
 * step, kill the process at step k, or fail step k.
 * @example
 * ```ts
 * const diskFull = instrumentFileSystem(fs, async (m) => (m.path.includes('manifest.json') ? 'ENOSPC' : true));
 * ```
 */
export const instrumentFileSystem = (inner: FileSystemPort, before: (mutation: Mutation) => Promise<boolean | string>): FileSystemPort => {
  let index = 0;
  const gated =
    <A>(operation: FileOperation, path: string, run: () => TE.TaskEither<FileSystemError, A>): TE.TaskEither<FileSystemError, A> =>
    async () => {
      const verdict = await before({ index: index++, operation, path });
      return verdict === true ? run()() : E.left(fileSystemError(operation, path, verdict === false ? 'EIO' : verdict));
    };
  return {
    ...inner,
    makeDirectory: (path, mode) => gated('makeDirectory', path, () => inner.makeDirectory(path, mode)),
    createDirectory: (path, mode) => gated('createDirectory', path, () => inner.createDirectory(path, mode)),
    writeFiles: (files) => async () => {
      for (const file of files) {
        const written = await gated('writeFiles', file.path, () => inner.writeFiles([file]))();
        if (E.isLeft(written)) return written;
      }
      return E.right(undefined);
    },
    copyFile: (from, to, mode) => gated('copyFile', to, () => inner.copyFile(from, to, mode)),
    writeFileDurable: (file) => gated('writeFileDurable', file.path, () => inner.writeFileDurable(file)),
    symlink: (target, path) => gated('symlink', path, () => inner.symlink(target, path)),
    rename: (from, to) => gated('rename', `${from} -> ${to}`, () => inner.rename(from, to)),
    publishExclusive: (from, to) => gated('publishExclusive', `${from} -> ${to}`, () => inner.publishExclusive(from, to)),
    removeFile: (path) => gated('removeFile', path, () => inner.removeFile(path)),
    removeTree: (path) => gated('removeTree', path, () => inner.removeTree(path)),
    removeEmptyDirectory: (path) => gated('removeEmptyDirectory', path, () => inner.removeEmptyDirectory(path)),
    flush: (roots) => gated('flush', roots.join(' '), () => inner.flush(roots)),
  };
};
