/**
 * The one read of a JSON file the executor does not trust: a plugin package's manifest (from a local
 * marketplace, a bundled directory or an installed cache) and the executor's own state files, which
 * another program may have replaced. Read through the file-system port, so only a regular file of at
 * most its bound is read, and a named pipe or a device put in its place is refused at once, never
 * waited on.
 */
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { isNotFound, type FileSystemPort } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';

/** Why a JSON file was not read: absent, unreadable (with the system's code, `EFBIG` when over its bound), or not JSON. */
export type UntrustedJsonError = { readonly _tag: 'Missing' } | { readonly _tag: 'Unreadable'; readonly code: string } | { readonly _tag: 'NotJson' };

/** The bound of a plugin package's `.codex-plugin/plugin.json`. */
export const MAX_PLUGIN_MANIFEST_BYTES = 1024 * 1024;

/** The file-system port the executor's reads of untrusted files go through (it writes nothing through it). */
export const untrustedReads: FileSystemPort = nodeFileSystem({ durability: 'none' });

/** Decodes UTF-8 like `JSON.parse` expects it: a byte-order mark is kept, so a file that has one is not JSON. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The parsed JSON of the file at `path` (links followed), read only when it is a regular file of at most
 * `maxBytes` bytes. Never throws.
 *
 * @example
 * const state = await readUntrustedJson('/home/ada/.wework/executor/plugins/snapshot.json', 4 * 1024 * 1024);
 * // Right(the parsed value), or Left({ _tag: 'Missing' } | { _tag: 'Unreadable', code } | { _tag: 'NotJson' })
 */
export async function readUntrustedJson(path: string, maxBytes: number, fs: FileSystemPort = untrustedReads): Promise<E.Either<UntrustedJsonError, unknown>> {
  const bytes = await fs.readFile(path, { followSymlink: true, maxBytes })();
  if (E.isLeft(bytes)) return E.left(isNotFound(bytes.left) || bytes.left.code === 'ENOTDIR' ? { _tag: 'Missing' } : { _tag: 'Unreadable', code: bytes.left.code });
  try {
    return E.right(JSON.parse(decoder.decode(bytes.right)) as unknown);
  } catch {
    return E.left({ _tag: 'NotJson' });
  }
}

/** The parsed `.codex-plugin/plugin.json` of the plugin package at `root` (untrusted, bounded). */
export const readPluginManifest = (root: string): Promise<E.Either<UntrustedJsonError, unknown>> =>
  readUntrustedJson(join(root, '.codex-plugin', 'plugin.json'), MAX_PLUGIN_MANIFEST_BYTES);
