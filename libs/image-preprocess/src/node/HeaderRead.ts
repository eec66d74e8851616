/**
 * Reads an image's header from the first bytes of its file, with the pure parser of
 * `../internal/ImageHeader.ts`: one open, one stat and usually one read of at most
 * {@link FIRST_CHUNK_BYTES}. Never throws or rejects; when the file cannot be opened, or the
 * parser cannot answer, the result says so and the caller asks the full decoder.
 */
import { open, type FileHandle } from 'node:fs/promises';
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

const readPrefix = async (handle: FileHandle, length: number): Promise<Uint8Array> => {
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
};

/** Opens `path`, checks it is a regular file and parses the header from its first bytes. */
export async function readHeader(path: string): Promise<HeaderRead> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch {
    return { _tag: 'Unopened' };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { _tag: 'NotAFile' };
    const bytes = info.size;
    if (bytes === 0) return { _tag: 'Read', bytes, header: E.left({ _tag: 'Unrecognized' }) };
    let prefix = await readPrefix(handle, Math.min(bytes, FIRST_CHUNK_BYTES));
    let header = parseImageHeader(prefix);
    if (E.isLeft(header) && header.left._tag === 'Incomplete' && bytes > prefix.length && prefix.length === FIRST_CHUNK_BYTES) {
      prefix = await readPrefix(handle, Math.min(bytes, MAX_HEADER_BYTES));
      header = parseImageHeader(prefix);
    }
    return { _tag: 'Read', bytes, header };
  } catch {
    return { _tag: 'Unopened' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
