/**
 * Atomic file replacement over the {@link FileSystemPort}: a temporary file in the same directory,
 * flushed to disk, then renamed over the destination — a reader sees the old bytes or the new ones,
 * never a mix, and a crash leaves the old file intact. The one such write of the workspace.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { FileSystemError, FileSystemPort } from './FileSystemPort.js';
import { baseNameOf, parentOf } from './Platform.js';

/**
 * Replaces (or creates) the file at `path` with `bytes` and permission bits `mode`: writes a
 * temporary file beside it (created exclusively, never through a link), fsyncs it and renames it
 * over `path`, flushing the directory entry. A symbolic link at `path` is replaced by the file, never
 * followed. When the rename fails the temporary file is removed and `path` is left as it was.
 *
 * @example
 * ```ts
 * await writeFileAtomic(fs, '/home/ada/.wework/executor/plugins/receipts.json', bytes, PRIVATE_FILE_MODE)();
 * // Right(undefined), or Left(FileSystemError) with the file as it was
 * ```
 */
export const writeFileAtomic =
  (fs: FileSystemPort, path: string, bytes: Uint8Array, mode: number): TE.TaskEither<FileSystemError, void> =>
  async () => {
    const temp = await fs.createTempFile(parentOf(fs.platform, path), baseNameOf(fs.platform, path), bytes, mode)();
    if (E.isLeft(temp)) return temp;
    const renamed = await fs.rename(temp.right, path)();
    if (E.isLeft(renamed)) await fs.remove(temp.right)();
    return renamed;
  };
