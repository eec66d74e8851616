/**
 * Reads an image's header from the first bytes of its file, with the pure parser of
 * `../internal/ImageHeader.ts`: one open, then the stat and usually one read of at most
 * {@link FIRST_CHUNK_BYTES} side by side; the file is closed after the answer. Never throws or
 * rejects; when the file cannot be opened, or the parser cannot answer, the result says so and the
 * caller asks the full decoder.
 *
 * Why it is written this way: each file-system call is a trip through libuv's thread pool, and on a
 * pool that has gone idle each trip costs a thread's wake-up, which is most of the time of a header
 * read. So the answer waits for two trips, not four (open; stat beside read; the close after), and
 * the calls are the callback ones on a file descriptor, which cost less per call than `FileHandle`'s.
 */
import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { parseImageHeader, type HeaderError, type ParsedHeader } from '../internal/ImageHeader.js';

/** Bytes read first: enough for almost every header. */
export const FIRST_CHUNK_BYTES = 64 * 1024;
/** At most this many bytes are read when the header goes on (large EXIF or ICC segments, long GIFs). */
export const MAX_HEADER_BYTES = 1024 * 1024;

/** What reading the start of a file found. */
export type HeaderRead =
  /** The path could not be opened or stat'ed (missing, no permission …). */
  | { readonly _tag: 'Unopened' }
  /** Not a regular file. */
  | { readonly _tag: 'NotAFile' }
  /** A regular file whose header was read; `header` is `Left` when the parser could not answer. */
  | { readonly _tag: 'Read'; readonly bytes: number; readonly header: E.Either<HeaderError, ParsedHeader> };

/**
 * The open does not wait for a writer (`O_NONBLOCK`): a named pipe is answered `NotAFile` instead of
 * holding a pool thread until something writes to it; on a regular file the flag changes nothing.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

const openFile = (path: string): Promise<number | null> => new Promise((resolve) => open(path, OPEN_FLAGS, (error, fd) => resolve(error === null ? fd : null)));

const statFile = (fd: number): Promise<Stats | null> => new Promise((resolve) => fstat(fd, (error, stats) => resolve(error === null ? stats : null)));

/** Up to `length` bytes at `position` into `buffer`; the count read, or `null` when the read failed (a directory). */
const readAt = (fd: number, buffer: Uint8Array, offset: number, length: number, position: number): Promise<number | null> =>
  new Promise((resolve) => read(fd, buffer, offset, length, position, (error, bytesRead) => resolve(error === null ? bytesRead : null)));

/** The first `length` bytes (fewer at the end of the file), read in as many pieces as the file system answers in. */
const readPrefix = async (fd: number, length: number): Promise<Uint8Array | null> => {
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const bytesRead = await readAt(fd, buffer, filled, length - filled, filled);
    if (bytesRead === null) return null;
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
};

/** One read of up to {@link FIRST_CHUNK_BYTES} from the start; the stat beside it says whether it is used. */
const firstChunk = async (fd: number): Promise<Uint8Array | null> => {
  const buffer = new Uint8Array(FIRST_CHUNK_BYTES);
  const bytesRead = await readAt(fd, buffer, 0, FIRST_CHUNK_BYTES, 0);
  return bytesRead === null ? null : buffer.subarray(0, bytesRead);
};

/** Checks the opened file is a regular file and parses the header from its first bytes. */
async function readOpened(fd: number): Promise<HeaderRead> {
  // The stat decides. The read beside it may run on something that is not a regular file: on a pipe or a
  // terminal a positioned read fails at once, a device is read for at most 64 KiB; neither is ever used.
  const [info, first] = await Promise.all([statFile(fd), firstChunk(fd)]);
  if (info === null) return { _tag: 'Unopened' };
  if (!info.isFile()) return { _tag: 'NotAFile' };
  const bytes = info.size;
  if (bytes === 0) return { _tag: 'Read', bytes, header: E.left({ _tag: 'Unrecognized' }) };
  if (first === null) return { _tag: 'Unopened' };
  const wanted = Math.min(bytes, FIRST_CHUNK_BYTES);
  // A short read (a file system that answers in pieces) goes on to the stat'ed size; a file that grew
  // since the stat is read no further than that size.
  let prefix = first.length < wanted ? await readPrefix(fd, wanted) : first.subarray(0, wanted);
  if (prefix === null) return { _tag: 'Unopened' };
  let header = parseImageHeader(prefix);
  if (E.isLeft(header) && header.left._tag === 'Incomplete' && bytes > prefix.length && prefix.length === FIRST_CHUNK_BYTES) {
    prefix = await readPrefix(fd, Math.min(bytes, MAX_HEADER_BYTES));
    if (prefix === null) return { _tag: 'Unopened' };
    header = parseImageHeader(prefix);
  }
  return { _tag: 'Read', bytes, header };
}

/** Opens `path`, checks it is a regular file and parses the header from its first bytes. */
export async function readHeader(path: string): Promise<HeaderRead> {
  const fd = await openFile(path);
  if (fd === null) return { _tag: 'Unopened' };
  try {
    return await readOpened(fd);
  } catch {
    return { _tag: 'Unopened' };
  } finally {
    // The answer does not wait for the close: nothing read depends on it.
    close(fd, () => undefined);
  }
}
