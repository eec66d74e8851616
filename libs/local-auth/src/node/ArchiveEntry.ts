/**
 * The executable of a managed tool, taken out of its downloaded archive within bounds: a `tar.gz` is
 * gunzipped to at most {@link ArchiveLimits.maxUnpackedBytes}; a `zip` is read by its central directory
 * and only the declared entry is inflated, to at most its declared size.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import * as E from 'fp-ts/lib/Either.js';
import { readTarEntry } from '../internal/Tar.js';
import { readZipEntry } from '../internal/Zip.js';
import type { ArchiveRefusalReason } from '../ManagedTool.js';

const gunzipAsync = promisify(gunzip);

/** The bounds of an archive's extraction. */
export interface ArchiveLimits {
  /** Entries a zip may list; default 10 000. */
  readonly maxEntries: number;
  /** Bytes the executable may have; default 512 MiB. */
  readonly maxEntryBytes: number;
  /** Bytes a `tar.gz` may gunzip to; default 1 GiB. */
  readonly maxUnpackedBytes: number;
}

/** The default {@link ArchiveLimits}. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxEntries: 10_000, maxEntryBytes: 512 * 1024 * 1024, maxUnpackedBytes: 1024 * 1024 * 1024 };

/** Why no executable came out: the entry is not there, or the archive was refused. */
export type ArchiveEntryProblem = { readonly _tag: 'missing' } | { readonly _tag: 'refused'; readonly reason: ArchiveRefusalReason };

const missing: ArchiveEntryProblem = { _tag: 'missing' };
const refused = (reason: ArchiveRefusalReason): ArchiveEntryProblem => ({ _tag: 'refused', reason });

/** The content of `path` inside `archive` (a `tar.gz` or `zip`), within `limits`. Never rejects. */
export async function readArchiveEntry(format: 'tar.gz' | 'zip', archive: Uint8Array, path: string, limits: ArchiveLimits): Promise<E.Either<ArchiveEntryProblem, Uint8Array>> {
  if (format === 'zip') {
    const entry = readZipEntry(archive, path, limits);
    if (E.isRight(entry)) return entry;
    return E.left(entry.left === 'entry_missing' || entry.left === 'not_zip' ? missing : refused(entry.left));
  }
  let tar: Uint8Array;
  try {
    tar = await gunzipAsync(archive, { maxOutputLength: limits.maxUnpackedBytes });
  } catch (error) {
    return E.left((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? refused('entry_too_large') : missing);
  }
  const entry = readTarEntry(tar, path);
  if (entry === undefined) return E.left(missing);
  return entry.length > limits.maxEntryBytes ? E.left(refused('entry_too_large')) : E.right(entry);
}
