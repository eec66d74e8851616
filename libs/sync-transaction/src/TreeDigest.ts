/**
 * Content digests of directory trees and files: the "hash" a journal records before and after a
 * write, and what a bundled upgrade compares.
 *
 * The digest of a tree covers every path below its root (the root included), each entry's kind,
 * its permission bits (files and directories) and its content (a file's SHA-256, a link's target).
 * A package and the tree written from it have the same digest. `packageDigest` is pure;
 * `treeDigest` reads the disk through the {@link FileSystemPort}.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { FileSystemError, FileSystemPort } from '@wework/ports';
import { traverseLimited } from './internal/Concurrency.js';
import { joinPath } from './internal/Paths.js';
import { PACKAGE_DIRECTORY_MODE, type ValidPackage } from './Package.js';

const line = (kind: string, mode: number, path: string, content: string): string =>
  `${kind} ${mode.toString(8)} ${JSON.stringify(path)} ${content}\n`;

const encoder = new TextEncoder();

const digestLines = (digest: (bytes: Uint8Array) => string, lines: ReadonlyArray<string>): string =>
  digest(encoder.encode([...lines].sort().join('')));

/**
 * The digest of the tree that writing `pkg` into an empty root directory produces.
 *
 * @example
 * ```ts
 * const digest = packageDigest(fs.digest, pkg); // equals treeDigest(fs, root) once pkg is written at root
 * ```
 */
export const packageDigest = (digest: (bytes: Uint8Array) => string, pkg: ValidPackage): string =>
  digestLines(digest, [
    line('directory', PACKAGE_DIRECTORY_MODE, '', ''),
    ...pkg.entries.map((entry) =>
      entry.kind === 'file'
        ? line('file', entry.mode, entry.path, 'staged' in entry ? entry.staged.sha256 : digest(entry.bytes))
        : entry.kind === 'directory'
          ? line('directory', entry.mode, entry.path, '')
          : line('symlink', 0, entry.path, JSON.stringify(entry.target)),
    ),
  ]);

/** The digest of the bytes of one file, as journals record it. */
export const fileDigest = (digest: (bytes: Uint8Array) => string, bytes: Uint8Array): string => `file:${digest(bytes)}`;

const READ_CONCURRENCY = 16;

/**
 * The digest of the tree at `root` as it is on disk: `null` when nothing is there; for a regular file
 * the {@link fileDigest} of its bytes, so one function hashes both kinds of destination.
 */
export const treeDigest =
  (fs: FileSystemPort, root: string): TE.TaskEither<FileSystemError, string | null> =>
  async () => {
    const top = await fs.lstat(root)();
    if (E.isLeft(top)) return top;
    if (top.right === null) return E.right(null);
    if (top.right.kind === 'file') {
      const sha = await fs.digestFile(root)();
      return E.isLeft(sha) ? sha : E.right(`file:${sha.right}`);
    }
    if (top.right.kind !== 'directory') return E.right(`${top.right.kind}:`);
    const lines: string[] = [line('directory', top.right.mode & 0o777, '', '')];
    const walk = async (relative: string): Promise<E.Either<FileSystemError, void>> => {
      const names = await fs.listDirectory(joinPath(root, relative))();
      if (E.isLeft(names)) return names;
      const children = names.right.map((name) => (relative === '' ? name : `${relative}/${name}`));
      const described = await traverseLimited(children, READ_CONCURRENCY, (child) => async (): Promise<E.Either<FileSystemError, string | null>> => {
        const path = joinPath(root, child);
        const stat = await fs.lstat(path)();
        if (E.isLeft(stat)) return stat;
        if (stat.right === null) return E.right(line('missing', 0, child, ''));
        if (stat.right.kind === 'file') {
          const sha = await fs.digestFile(path)();
          return E.isLeft(sha) ? sha : E.right(line('file', stat.right.mode & 0o777, child, sha.right));
        }
        if (stat.right.kind === 'symlink') {
          const target = await fs.readLink(path)();
          return E.isLeft(target) ? target : E.right(line('symlink', 0, child, JSON.stringify(target.right)));
        }
        if (stat.right.kind === 'directory') {
          lines.push(line('directory', stat.right.mode & 0o777, child, ''));
          return E.right(null);
        }
        return E.right(line('other', 0, child, ''));
      })();
      if (E.isLeft(described)) return described;
      for (const entry of described.right) if (entry !== null) lines.push(entry);
      for (const [i, entry] of described.right.entries()) {
        if (entry !== null) continue;
        const sub = await walk(children[i] as string);
        if (E.isLeft(sub)) return sub;
      }
      return E.right(undefined);
    };
    const walked = await walk('');
    return E.isLeft(walked) ? walked : E.right(digestLines(fs.digest, lines));
  };
