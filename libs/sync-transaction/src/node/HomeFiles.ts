/**
 * Reading the files of a home through the Node file-system port of `@wework/ports`: text files that
 * may be missing, and the directories of a directory.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { isNotFound, type FileSystemError, type FileSystemPort } from '@wework/ports';

/** Decodes like Node's `'utf8'` encoding: invalid sequences replaced, a byte-order mark kept. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A failure of the port, thrown for the callers' catch-all (they turn any failure into a value). */
class HomeReadFailed extends Error {
  constructor(readonly error: FileSystemError) {
    super(`${error.operation} failed with ${error.code}`);
  }
}

/** The text of the file `path` (links followed); `null` when it does not exist. Other failures throw. */
export const readText = async (fs: FileSystemPort, path: string): Promise<string | null> => {
  const bytes = await fs.readFile(path, { followSymlink: true })();
  if (E.isRight(bytes)) return decoder.decode(bytes.right);
  if (isNotFound(bytes.left)) return null;
  throw new HomeReadFailed(bytes.left);
};

/** The text of the file `path`, `null` when it cannot be read for any reason. */
export const readTextOrNull = (fs: FileSystemPort, path: string): Promise<string | null> => readText(fs, path).catch(() => null);

/** The names of the directories in `path` (a link to a directory is not one); none when it cannot be listed. */
export const listDirectories = async (fs: FileSystemPort, path: string): Promise<string[]> => {
  const names = await fs.listDirectory(path)();
  if (E.isLeft(names)) return [];
  const directories: string[] = [];
  for (const name of names.right) {
    const stat = await fs.lstat(join(path, name))();
    if (E.isRight(stat) && stat.right?.kind === 'directory') directories.push(name);
  }
  return directories;
};
