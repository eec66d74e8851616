/**
 * The one read of a small file whose path or content is not trusted (a plugin's manifest, a skill's
 * file, a state file of the executor): at most a given number of bytes, of a regular file only, and
 * never a wait for a writer.
 *
 * - The open does not block (`O_NONBLOCK`): a named pipe put where a file was expected is answered
 *   `NotAFile` at once, where a plain open would hold one of libuv's four pool threads until something
 *   wrote to it (four such reads would stall every file operation of the process).
 * - The descriptor is checked with `fstat` after the open, so a file swapped for a pipe, a device or a
 *   directory between a listing and the read is refused as well.
 * - A link is followed only when asked (`followLinks`), and read through the descriptor, never the path again.
 */
import { constants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import * as E from 'fp-ts/lib/Either.js';

/** Why a small file was not read. `code` is the system's error code, never the path or the content. */
export type SmallFileReadError =
  /** Nothing is at the path. */
  | { readonly _tag: 'Missing' }
  /** Something that is not a regular file (a directory, a pipe, a device), or a link when links are not followed. */
  | { readonly _tag: 'NotAFile' }
  /** The open or a read failed otherwise. */
  | { readonly _tag: 'Unreadable'; readonly code: string };

/** What was read: at most `maxBytes` bytes from the start, and whether that was the whole file. */
export interface SmallFile {
  readonly bytes: Uint8Array;
  /** `false` when the file holds more than `maxBytes` bytes (`bytes` is then its first `maxBytes`). */
  readonly complete: boolean;
}

/** Options of {@link readSmallFile}. */
export interface SmallFileReadOptions {
  /** The most bytes returned (a non-negative integer). */
  readonly maxBytes: number;
  /** Whether a symbolic link at the path is followed; default `false` (a link is `NotAFile`). */
  readonly followLinks?: boolean;
}

// Windows has neither flag: there a link is refused by an `lstat` before the open, and the open never
// waits for a writer anyway.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EIO';
};

const readError = (code: string, followLinks: boolean): SmallFileReadError => {
  if (code === 'ENOENT' || code === 'ENOTDIR') return { _tag: 'Missing' };
  if (code === 'EISDIR' || code === 'EINVAL') return { _tag: 'NotAFile' };
  // `O_NOFOLLOW` on a link answers `ELOOP` (`EMLINK` on some BSDs); a followed link that loops stays `Unreadable`.
  if (!followLinks && (code === 'ELOOP' || code === 'EMLINK')) return { _tag: 'NotAFile' };
  return { _tag: 'Unreadable', code };
};

/** The first buffer of a read: the file's size and one byte more (growth shows at once), at least 4 KiB, at most `limit`. */
const firstBufferLength = (size: number, limit: number): number => Math.min(limit, Math.max(4096, size + 1));

/**
 * Up to `limit` bytes from the start, in as many reads as the file system answers in. The buffer starts
 * at the size `fstat` reported and doubles only while the file keeps giving bytes, so a small file read
 * under a large bound costs no large allocation.
 */
async function readStart(handle: FileHandle, size: number, limit: number): Promise<Uint8Array> {
  let buffer = new Uint8Array(firstBufferLength(size, limit));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (filled >= limit) break;
      const grown = new Uint8Array(Math.min(limit, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * The bounded read behind {@link readSmallFile} and the Node file-system port's `readFile`, with the
 * system's error codes: `ELOOP` for a refused link (also on Windows, through an `lstat`), `EISDIR` for a
 * directory and `EINVAL` for anything else that is not a regular file (a pipe, a socket, a device), as
 * the port's `digestFile` does. With `wholeOnly`, a file whose size is over `maxBytes` is answered
 * incomplete at once, with no bytes, instead of having its first `maxBytes` read.
 * Never throws or rejects.
 */
export async function readRegularFileStart(path: string, maxBytes: number, followLinks: boolean, wholeOnly = false): Promise<E.Either<string, SmallFile>> {
  const limit = Math.max(0, Math.floor(maxBytes));
  if (!followLinks && NO_FOLLOW === 0) {
    try {
      if ((await lstat(path)).isSymbolicLink()) return E.left('ELOOP');
    } catch (error) {
      return E.left(codeOf(error));
    }
  }
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NON_BLOCK | (followLinks ? 0 : NO_FOLLOW));
  } catch (error) {
    return E.left(codeOf(error));
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return E.left(stats.isDirectory() ? 'EISDIR' : 'EINVAL');
    if (wholeOnly && stats.size > limit) return E.right({ bytes: new Uint8Array(0), complete: false });
    // One byte more than wanted tells a file of exactly `maxBytes` from a longer one.
    const read = await readStart(handle, stats.size, limit + 1);
    return E.right(read.length > limit ? { bytes: read.subarray(0, limit), complete: false } : { bytes: read, complete: true });
  } catch (error) {
    return E.left(codeOf(error));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Reads at most `options.maxBytes` bytes of the regular file at `path`. Never throws or rejects.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js';
 * import { readSmallFile } from '@wework/ports/node';
 * const read = await readSmallFile('/plugins/notes/.codex-plugin/plugin.json', { maxBytes: 1024 * 1024 });
 * if (E.isRight(read) && read.right.complete) JSON.parse(new TextDecoder().decode(read.right.bytes));
 * ```
 */
export async function readSmallFile(path: string, options: SmallFileReadOptions): Promise<E.Either<SmallFileReadError, SmallFile>> {
  const followLinks = options.followLinks === true;
  const read = await readRegularFileStart(path, options.maxBytes, followLinks);
  return E.isRight(read) ? read : E.left(readError(read.left, followLinks));
}
