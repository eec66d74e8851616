/**
 * The Node implementation of {@link FileSystemPort}: `node:fs/promises` with `O_NOFOLLOW` where a
 * link must not be followed, exclusive creation of temporary files, fsync of files and directories,
 * and SHA-256 from `node:crypto`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readFile, readlink, realpath, rename, stat, symlink, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { fileSystemError, type FileKind, type FileOperation, type FileStat, type FileSystemError, type FileSystemPort } from '../FileSystemPort.js';
import { platformOf, type Platform } from '../Platform.js';

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : 'EIO';

/** Runs `body`, turning a thrown Node error into a {@link FileSystemError} that keeps only its code. */
const attempt =
  <A>(operation: FileOperation, path: string, body: () => Promise<A>): TE.TaskEither<FileSystemError, A> =>
  async () => {
    try {
      return E.right(await body());
    } catch (error) {
      return E.left(fileSystemError(operation, path, codeOf(error)));
    }
  };

const kindOf = (stats: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileKind =>
  stats.isSymbolicLink() ? 'symlink' : stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';

const statOrNull = async (read: () => Promise<{ mode: number; isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }>): Promise<FileStat | null> => {
  try {
    const stats = await read();
    return { kind: kindOf(stats), mode: stats.mode & 0o7777 };
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return null;
    throw error;
  }
};

/** `O_NOFOLLOW` where the platform has it (not on Windows, where the caller checks with `lstat`). */
const NO_FOLLOW: number = constants.O_NOFOLLOW ?? 0;

/** fsyncs a directory so a rename in it survives a crash; platforms that cannot open a directory skip it. */
const syncDirectory = async (directory: string): Promise<void> => {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, constants.O_RDONLY);
    await handle.sync();
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF'].includes(codeOf(error))) throw error;
  } finally {
    await handle?.close();
  }
};

/** Options of {@link nodeFileSystem}. */
export interface NodeFileSystemOptions {
  /** Defaults to the platform of the running process. */
  readonly platform?: Platform;
}

/**
 * The Node implementation of the library's file-system port.
 *
 * @example
 * ```ts
 * import { nodeFileSystem } from '@wework/codex-home/node';
 * const fs = nodeFileSystem();
 * await fs.lstat('/home/ada/.codex/auth.json')(); // Right({ kind: 'file', mode: 0o600 }) or Right(null)
 * ```
 */
export const nodeFileSystem = (options: NodeFileSystemOptions = {}): FileSystemPort => {
  const platform = options.platform ?? platformOf(process.platform);
  return {
    platform,
    lstat: (path) => attempt('lstat', path, () => statOrNull(() => lstat(path))),
    stat: (path) => attempt('stat', path, () => statOrNull(() => stat(path))),
    readFile: (path, { followSymlink }) =>
      attempt('readFile', path, async () => {
        if (followSymlink) return new Uint8Array(await readFile(path));
        if (NO_FOLLOW === 0 && (await lstat(path)).isSymbolicLink()) throw Object.assign(new Error('symbolic link refused'), { code: 'ELOOP' });
        const handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
        try {
          return new Uint8Array(await handle.readFile());
        } finally {
          await handle.close();
        }
      }),
    readLink: (path) => attempt('readLink', path, () => readlink(path)),
    realPath: (path) => attempt('realPath', path, () => realpath(path)),
    symlink: (target, path) => attempt('symlink', path, () => symlink(target, path, 'file')),
    makeDirectory: (path, mode) =>
      attempt('makeDirectory', path, async () => {
        await mkdir(path, { recursive: true, mode });
      }),
    chmod: (path, mode) => attempt('chmod', path, () => (platform === 'windows' ? Promise.resolve() : chmod(path, mode))),
    createTempFile: (directory, prefix, bytes, mode) =>
      attempt('createTempFile', directory, async () => {
        const path = join(directory, `.${basename(prefix)}.${randomBytes(8).toString('hex')}.tmp`);
        const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, mode);
        try {
          await handle.writeFile(bytes);
          if (platform !== 'windows') await handle.chmod(mode);
          await handle.sync();
        } catch (error) {
          await handle.close();
          await unlink(path).catch(() => undefined);
          throw error;
        }
        await handle.close();
        return path;
      }),
    rename: (from, to) =>
      attempt('rename', to, async () => {
        await rename(from, to);
        if (platform !== 'windows') await syncDirectory(dirname(to));
      }),
    remove: (path) => attempt('remove', path, () => unlink(path)),
    listDirectory: (path) => attempt('listDirectory', path, () => readdir(path)),
    digest: (bytes) => () => Promise.resolve(createHash('sha256').update(bytes).digest('hex')),
  };
};
