/**
 * The inventory's small state files on disk — install receipts, the durable snapshot, the user's
 * marketplace order — written all or nothing through the file-system port: the missing directories
 * are created, the file is replaced atomically (`writeFileAtomic`: a flushed temporary file renamed
 * over the old one), and a save that fails at any step removes what it created — its temporary file
 * and the directories it made — so the disk holds the old file or the new one, nothing between.
 *
 * Programs here run only through the port they are given.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE, parentOf, writeFileAtomic, type FileSystemError, type FileSystemPort } from '@wework/ports';

/** The directories above `path` that do not exist yet, outermost first (`lstat` only). */
const missingParents = async (fs: FileSystemPort, path: string): Promise<E.Either<FileSystemError, ReadonlyArray<string>>> => {
  const missing: string[] = [];
  for (let dir = parentOf(fs.platform, path); ; ) {
    const stat = await fs.lstat(dir)();
    if (E.isLeft(stat)) return stat;
    if (stat.right !== null) return E.right(missing);
    missing.unshift(dir);
    const up = parentOf(fs.platform, dir);
    if (up === dir) return E.right(missing);
    dir = up;
  }
};

/**
 * Saves `bytes` as the file `path` (private: mode 0600 in directories of mode 0700 it creates), all or
 * nothing. `Left` with the first failure, the disk then as it was; `Right` once the new file is in place.
 *
 * @example
 * ```ts
 * await saveStateFile(fs, '/home/ada/.wework/executor/plugin-inventory/receipts.json', bytes)();
 * // Right(undefined), or Left(FileSystemError) with the old file (or none) and no directory or temporary file added
 * ```
 */
export const saveStateFile =
  (fs: FileSystemPort, path: string, bytes: Uint8Array): TE.TaskEither<FileSystemError, void> =>
  async () => {
    const missing = await missingParents(fs, path);
    if (E.isLeft(missing)) return missing;
    const created: string[] = [];
    const undo = async (): Promise<void> => {
      for (const dir of [...created].reverse()) await fs.removeEmptyDirectory(dir)();
    };
    for (const dir of missing.right) {
      const made = await fs.createDirectory(dir, PRIVATE_DIRECTORY_MODE)();
      if (E.isRight(made)) created.push(dir);
      else if (made.left.code !== 'EEXIST') {
        await undo();
        return made;
      }
    }
    const written = await writeFileAtomic(fs, path, bytes, PRIVATE_FILE_MODE)();
    if (E.isLeft(written)) await undo();
    return written;
  };
