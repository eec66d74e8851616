/**
 * The Node implementation of {@link FileSystemPort}: `node:fs` with `O_NOFOLLOW` where a link must not
 * be followed, exclusive creation (`O_EXCL`, never through a link), fsync of files and of the
 * directories whose entries change, hard-link publication, and SHA-256 from `node:crypto`.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { DEFAULT_READ_MAX_BYTES, fileSystemError, type FileKind, type FileOperation, type FileStat, type FileSystemError, type FileSystemPort, type FileToWrite } from '../FileSystemPort.js';
import { platformOf, type Platform } from '../Platform.js';
import { renameRetryFor, type RetrySchedule } from '../Retry.js';
import { forEachChunk } from './ChunkedRead.js';
import { withRetry } from './RenameRetry.js';
import { readRegularFileStart } from './SmallFileRead.js';

/** Options of {@link nodeFileSystem}. */
export interface NodeFileSystemOptions {
  /** Defaults to the platform of the running process. */
  readonly platform?: Platform;
  /**
   * `full` (default): every file written durably is fsynced and so is every directory whose entries
   * change; {@link FileSystemPort.flush} makes trees durable (one `syncfs` per file system where
   * available, else fsync of every file). `none`: no fsync at all — a crash of the process is still
   * safe, a power loss is not.
   */
  readonly durability?: 'full' | 'none';
  /**
   * How `rename` and `publishExclusive` are retried while another program holds a file open. Defaults
   * to `renameRetryFor(platform)`: `EPERM`/`EBUSY`/`EACCES` for about 2 s on Windows, no retry on Unix.
   */
  readonly renameRetry?: RetrySchedule;
  /** How the retries wait; defaults to `setTimeout`. */
  readonly sleep?: (ms: number) => Promise<void>;
}

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

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY } = fsSync.constants;
/** `O_NOFOLLOW` where the platform has it (not on Windows, where the caller checks with `lstat`). */
const NO_FOLLOW: number = fsSync.constants.O_NOFOLLOW ?? 0;
/** Opens of files that are not trusted never wait for a writer (a named pipe put where a file was). */
const NON_BLOCK: number = fsSync.constants.O_NONBLOCK ?? 0;
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | NO_FOLLOW;
const YIELD_EVERY = 64;
const CHUNK = 1024 * 1024;

/** Codes of opening or fsyncing a directory on platforms and file systems that cannot. */
const DIRECTORY_SYNC_UNSUPPORTED = ['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF'];

/** fsyncs a directory so a change of its entries survives a crash; platforms that cannot open a directory skip it. */
const syncDirectory = async (directory: string): Promise<void> => {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(directory, O_RDONLY);
    await handle.sync();
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.includes(codeOf(error))) throw error;
  } finally {
    await handle?.close();
  }
};

const writeOne = (file: FileToWrite, durable: boolean): void => {
  const fd = fsSync.openSync(file.path, CREATE_FLAGS, file.mode);
  try {
    let offset = 0;
    while (offset < file.bytes.length) offset += fsSync.writeSync(fd, file.bytes, offset, file.bytes.length - offset);
    fsSync.fchmodSync(fd, file.mode);
    if (durable) fsSync.fsyncSync(fd);
  } catch (error) {
    // The file is ours (created exclusively above): a failed write (a full disk) leaves nothing behind.
    fsSync.closeSync(fd);
    fsSync.rmSync(file.path, { force: true });
    throw error;
  }
  fsSync.closeSync(fd);
};

const runSyncfs = (roots: ReadonlyArray<string>): Promise<boolean> =>
  new Promise((resolve) => {
    if (process.platform !== 'linux') return resolve(false);
    execFile('sync', ['-f', ...roots], (error) => resolve(error === null));
  });

const fsyncTree = async (root: string, syncDir: (directory: string) => Promise<void>): Promise<void> => {
  const stat = await fs.lstat(root);
  if (stat.isDirectory()) {
    for (const name of await fs.readdir(root)) await fsyncTree(join(root, name), syncDir);
    await syncDir(root);
  } else if (stat.isFile()) {
    const handle = await fs.open(root, O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
};

const ignoreAbsent = async (run: () => Promise<void>): Promise<boolean> => {
  try {
    await run();
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw error;
  }
};

/**
 * The Node implementation of the file-system port.
 *
 * @example
 * ```ts
 * import { nodeFileSystem } from '@wework/ports/node';
 * const fs = nodeFileSystem();
 * await fs.lstat('/home/ada/.codex/auth.json')(); // Right({ kind: 'file', mode: 0o600 }) or Right(null)
 * ```
 */
export const nodeFileSystem = (options: NodeFileSystemOptions = {}): FileSystemPort => {
  const platform = options.platform ?? platformOf(process.platform);
  const durable = (options.durability ?? 'full') === 'full';
  const retry = { schedule: options.renameRetry ?? renameRetryFor(platform), ...(options.sleep === undefined ? {} : { sleep: options.sleep }) };
  const syncDir = (directory: string): Promise<void> => (platform === 'windows' ? Promise.resolve() : syncDirectory(directory));
  const syncParent = async (path: string): Promise<void> => {
    if (durable) await syncDir(dirname(path));
  };
  return {
    platform,
    lstat: (path) => attempt('lstat', path, () => statOrNull(() => fs.lstat(path))),
    stat: (path) => attempt('stat', path, () => statOrNull(() => fs.stat(path))),
    readFile: (path, { followSymlink, maxBytes = DEFAULT_READ_MAX_BYTES }) =>
      attempt('readFile', path, async () => {
        const read = await readRegularFileStart(path, maxBytes, followSymlink, true);
        if (E.isLeft(read)) throw Object.assign(new Error('read refused'), { code: read.left });
        if (!read.right.complete) throw Object.assign(new Error('file too large'), { code: 'EFBIG' });
        return read.right.bytes;
      }),
    readLink: (path) => attempt('readLink', path, () => fs.readlink(path)),
    realPath: (path) => attempt('realPath', path, () => fs.realpath(path)),
    listDirectory: (path) => attempt('listDirectory', path, () => fs.readdir(path)),
    symlink: (target, path) => attempt('symlink', path, () => fs.symlink(target, path, 'file')),
    makeDirectory: (path, mode) =>
      attempt('makeDirectory', path, async () => {
        await fs.mkdir(path, { recursive: true, mode });
      }),
    createDirectory: (path, mode) =>
      attempt('createDirectory', path, async () => {
        await fs.mkdir(path, { mode });
        await fs.chmod(path, mode);
      }),
    chmod: (path, mode) => attempt('chmod', path, () => (platform === 'windows' ? Promise.resolve() : fs.chmod(path, mode))),
    createTempFile: (directory, prefix, bytes, mode) =>
      attempt('createTempFile', directory, async () => {
        const path = join(directory, `.${basename(prefix)}.${randomBytes(8).toString('hex')}.tmp`);
        const handle = await fs.open(path, CREATE_FLAGS, mode);
        try {
          await handle.writeFile(bytes);
          if (platform !== 'windows') await handle.chmod(mode);
          await handle.sync();
        } catch (error) {
          await handle.close();
          await fs.unlink(path).catch(() => undefined);
          throw error;
        }
        await handle.close();
        return path;
      }),
    writeFiles: (files) => async () => {
      for (let i = 0; i < files.length; i++) {
        const file = files[i] as FileToWrite;
        try {
          writeOne(file, false);
        } catch (error) {
          return E.left(fileSystemError('writeFiles', file.path, codeOf(error)));
        }
        if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
      }
      return E.right(undefined);
    },
    writeFileDurable: (file) =>
      attempt('writeFileDurable', file.path, async () => {
        writeOne(file, durable);
        await syncParent(file.path);
      }),
    copyFile: (from, to, mode) =>
      attempt('copyFile', to, async () => {
        const source = await fs.open(from, O_RDONLY | NO_FOLLOW | NON_BLOCK);
        try {
          // A pipe or device swapped in for the source is refused, never waited on.
          if (!(await source.stat()).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
          const target = await fs.open(to, CREATE_FLAGS, mode);
          try {
            await forEachChunk(source, Buffer.allocUnsafe(CHUNK), async (chunk) => {
              let written = 0;
              while (written < chunk.length) written += (await target.write(chunk, written, chunk.length - written)).bytesWritten;
            });
            await target.chmod(mode);
          } finally {
            await target.close();
          }
        } finally {
          await source.close();
        }
      }),
    digestFile: (path) =>
      attempt('digestFile', path, async () => {
        const handle = await fs.open(path, O_RDONLY | NO_FOLLOW | NON_BLOCK);
        try {
          if (!(await handle.stat()).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
          const hash = createHash('sha256');
          await forEachChunk(handle, Buffer.allocUnsafe(CHUNK), (chunk) => void hash.update(chunk));
          return hash.digest('hex');
        } finally {
          await handle.close();
        }
      }),
    rename: (from, to) =>
      attempt('rename', to, async () => {
        await withRetry(() => fs.rename(from, to), retry);
        await syncParent(to);
        if (dirname(from) !== dirname(to)) await syncParent(from);
      }),
    publishExclusive: (from, to) =>
      attempt('publishExclusive', to, async () => {
        // `EEXIST` is never retried: the exclusive publication stays exclusive.
        await withRetry(() => fs.link(from, to), retry);
        await withRetry(() => fs.unlink(from), retry);
        await syncParent(to);
      }),
    remove: (path) => attempt('remove', path, () => fs.unlink(path)),
    removeFile: (path) =>
      attempt('removeFile', path, async () => {
        if (await ignoreAbsent(() => fs.unlink(path))) await syncParent(path);
      }),
    removeTree: (path) =>
      attempt('removeTree', path, async () => {
        if (!(await ignoreAbsent(async () => void (await fs.lstat(path))))) return;
        await fs.rm(path, { recursive: true, force: true });
        await syncParent(path);
      }),
    removeEmptyDirectory: (path) =>
      attempt('removeEmptyDirectory', path, async () => {
        if (await ignoreAbsent(() => fs.rmdir(path))) await syncParent(path);
      }),
    flush: (roots) =>
      attempt('flush', roots[0] ?? '', async () => {
        if (!durable || roots.length === 0) return;
        if (!(await runSyncfs(roots))) for (const root of roots) await fsyncTree(root, syncDir);
        for (const root of new Set(roots.map((r) => dirname(r)))) await syncDir(root);
      }),
    digest: (bytes) => createHash('sha256').update(bytes).digest('hex'),
  };
};
