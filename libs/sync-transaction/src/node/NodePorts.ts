/**
 * The Node implementation of the ports: `node:fs` with fsync of files and of the directories whose
 * entries change, exclusive creation (`O_EXCL`, never through a link), hard-link publication for the
 * lock, and `/proc` process start times to tell a live lock owner from a reused pid.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { fileSystemError, type FileOperation, type FileStat, type FileSystemError, type FileSystemPort, type FileToWrite } from '../FileSystemPort.js';
import type { HostPort, ProcessIdentity } from '../HostPort.js';
import type { TransactionPorts } from '../Transaction.js';

/** Options of {@link createNodePorts}. */
export interface NodePortsOptions {
  /**
   * `full` (default): everything a transaction depends on is flushed to disk before the commit mark
   * (staged trees with one `syncfs` per file system where available, else fsync of every file).
   * `none`: no fsync at all — a crash of the process is still safe, a power loss is not.
   */
  readonly durability?: 'full' | 'none';
}

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EIO';

const attempt =
  <A>(operation: FileOperation, path: string, run: () => Promise<A>): TE.TaskEither<FileSystemError, A> =>
  async () => {
    try {
      return E.right(await run());
    } catch (error) {
      return E.left(fileSystemError(operation, path, codeOf(error)));
    }
  };

const kindOf = (stat: fsSync.Stats): FileStat['kind'] =>
  stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY, O_NOFOLLOW } = fsSync.constants;
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0);
const YIELD_EVERY = 64;
const COPY_CHUNK = 1024 * 1024;

const syncDirectory = async (path: string): Promise<void> => {
  if (process.platform === 'win32') return;
  const handle = await fs.open(path, O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

const writeOne = (file: FileToWrite, durable: boolean): void => {
  const fd = fsSync.openSync(file.path, CREATE_FLAGS, file.mode);
  try {
    let offset = 0;
    while (offset < file.bytes.length) offset += fsSync.writeSync(fd, file.bytes, offset, file.bytes.length - offset);
    fsSync.fchmodSync(fd, file.mode);
    if (durable) fsSync.fsyncSync(fd);
  } finally {
    fsSync.closeSync(fd);
  }
};

const runSyncfs = (roots: ReadonlyArray<string>): Promise<boolean> =>
  new Promise((resolve) => {
    if (process.platform !== 'linux') return resolve(false);
    execFile('sync', ['-f', ...roots], (error) => resolve(error === null));
  });

const fsyncTree = async (root: string): Promise<void> => {
  const stat = await fs.lstat(root);
  if (stat.isDirectory()) {
    for (const name of await fs.readdir(root)) await fsyncTree(join(root, name));
    await syncDirectory(root);
  } else if (stat.isFile()) {
    const handle = await fs.open(root, O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
};

/** The Node file-system port. */
export const createNodeFileSystem = (options: NodePortsOptions = {}): FileSystemPort => {
  const durable = (options.durability ?? 'full') === 'full';
  const syncParent = async (path: string): Promise<void> => {
    if (durable) await syncDirectory(dirname(path));
  };
  return {
    lstat: (path) =>
      attempt('lstat', path, async () => {
        try {
          const stat = await fs.lstat(path);
          return { kind: kindOf(stat), mode: stat.mode & 0o7777 };
        } catch (error) {
          if (codeOf(error) === 'ENOENT') return null;
          throw error;
        }
      }),
    readFile: (path) =>
      attempt('readFile', path, async () => {
        const handle = await fs.open(path, O_RDONLY | (O_NOFOLLOW ?? 0));
        try {
          return new Uint8Array(await handle.readFile());
        } finally {
          await handle.close();
        }
      }),
    readLink: (path) => attempt('readLink', path, () => fs.readlink(path)),
    listDirectory: (path) => attempt('listDirectory', path, () => fs.readdir(path)),
    makeDirectory: (path, mode) =>
      attempt('makeDirectory', path, async () => {
        await fs.mkdir(path, { mode });
        await fs.chmod(path, mode);
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
    copyFile: (from, to, mode) =>
      attempt('copyFile', to, async () => {
        const source = await fs.open(from, O_RDONLY | (O_NOFOLLOW ?? 0));
        try {
          const target = await fs.open(to, CREATE_FLAGS, mode);
          try {
            const buffer = Buffer.allocUnsafe(COPY_CHUNK);
            for (;;) {
              const { bytesRead } = await source.read(buffer, 0, COPY_CHUNK, null);
              if (bytesRead === 0) break;
              let written = 0;
              while (written < bytesRead) written += (await target.write(buffer, written, bytesRead - written)).bytesWritten;
            }
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
        const handle = await fs.open(path, O_RDONLY | (O_NOFOLLOW ?? 0) | (fsSync.constants.O_NONBLOCK ?? 0));
        try {
          if (!(await handle.stat()).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
          const hash = createHash('sha256');
          const buffer = Buffer.allocUnsafe(COPY_CHUNK);
          for (;;) {
            const { bytesRead } = await handle.read(buffer, 0, COPY_CHUNK, null);
            if (bytesRead === 0) break;
            hash.update(buffer.subarray(0, bytesRead));
          }
          return hash.digest('hex');
        } finally {
          await handle.close();
        }
      }),
    writeFileDurable: (file) =>
      attempt('writeFileDurable', file.path, async () => {
        writeOne(file, durable);
        await syncParent(file.path);
      }),
    symlink: (target, path) => attempt('symlink', path, () => fs.symlink(target, path)),
    rename: (from, to) =>
      attempt('rename', to, async () => {
        await fs.rename(from, to);
        await syncParent(to);
        if (dirname(from) !== dirname(to)) await syncParent(from);
      }),
    publishExclusive: (from, to) =>
      attempt('publishExclusive', to, async () => {
        await fs.link(from, to);
        await fs.unlink(from);
        await syncParent(to);
      }),
    removeFile: (path) =>
      attempt('removeFile', path, async () => {
        try {
          await fs.unlink(path);
        } catch (error) {
          if (codeOf(error) === 'ENOENT') return;
          throw error;
        }
        await syncParent(path);
      }),
    removeTree: (path) =>
      attempt('removeTree', path, async () => {
        try {
          await fs.lstat(path);
        } catch (error) {
          if (codeOf(error) === 'ENOENT') return;
          throw error;
        }
        await fs.rm(path, { recursive: true, force: true });
        await syncParent(path);
      }),
    removeEmptyDirectory: (path) =>
      attempt('removeEmptyDirectory', path, async () => {
        try {
          await fs.rmdir(path);
        } catch (error) {
          if (codeOf(error) === 'ENOENT') return;
          throw error;
        }
        await syncParent(path);
      }),
    flush: (roots) =>
      attempt('flush', roots[0] ?? '', async () => {
        if (!durable || roots.length === 0) return;
        if (!(await runSyncfs(roots))) for (const root of roots) await fsyncTree(root);
        for (const root of new Set(roots.map((r) => dirname(r)))) await syncDirectory(root);
      }),
    digest: (bytes) => createHash('sha256').update(bytes).digest('hex'),
  };
};

/** The start time of a process (clock ticks after boot, from `/proc/<pid>/stat`); `null` where unknown. */
export const processStartTime = (pid: number): number | null => {
  try {
    const stat = fsSync.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const value = Number(fields[19]);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
};

const pidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
};

/** The Node host port for this process. */
export const createNodeHost = (): HostPort => ({
  self: { pid: process.pid, startTime: processStartTime(process.pid) },
  isAlive: (owner: ProcessIdentity) => async () => {
    if (!Number.isInteger(owner.pid) || owner.pid <= 0 || !pidAlive(owner.pid)) return false;
    if (owner.startTime === null) return true;
    const current = processStartTime(owner.pid);
    return current === null || current === owner.startTime;
  },
  now: () => performance.now(),
  sleep: (ms) => () => new Promise((resolve) => setTimeout(resolve, ms)),
  freshId: () => randomBytes(8).toString('hex'),
});

/**
 * The ports of a transaction on Node.
 *
 * @example
 * ```ts
 * const ports = createNodePorts();
 * await commitChange(ports, homes, change)();
 * ```
 */
export const createNodePorts = (options: NodePortsOptions = {}): TransactionPorts => ({ fs: createNodeFileSystem(options), host: createNodeHost() });
