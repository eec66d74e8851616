/**
 * Reading the sync manifest from the state directory: absent reads as the empty manifest, a file
 * that does not decode is a `ManifestParseFailed`. The one reader for the transaction, recovery,
 * bundled upgrades and executors.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { isNotFound, type FileSystemError, type FileSystemPort } from '@wework/ports';
import { manifestPath, type Homes } from './Layout.js';
import { decodeManifest, type Manifest, type ManifestParseFailed } from './Manifest.js';

/** Reads one file's bytes through the port without following a link; `null` when absent. */
export const readOptionalFile =
  (fs: FileSystemPort, path: string): TE.TaskEither<FileSystemError, Uint8Array | null> =>
  async () => {
    const bytes = await fs.readFile(path, { followSymlink: false })();
    return E.isLeft(bytes) ? (isNotFound(bytes.left) ? E.right(null) : bytes) : bytes;
  };

/**
 * Reads and decodes the manifest of `homes`; the empty manifest when there is none yet.
 * @example
 * ```ts
 * const manifest = await readManifest(fs, homes)(); // Right({ version: 1, plugins: { … } })
 * ```
 */
export const readManifest =
  (fs: FileSystemPort, homes: Homes): TE.TaskEither<FileSystemError | ManifestParseFailed, Manifest> =>
  async () => {
    const bytes = await readOptionalFile(fs, manifestPath(homes))();
    if (E.isLeft(bytes)) return bytes;
    return decodeManifest(bytes.right === null ? null : new TextDecoder().decode(bytes.right));
  };
