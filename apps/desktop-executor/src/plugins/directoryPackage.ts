/**
 * A plugin package that arrived as a directory (downloaded and unpacked from the Wework backend or object
 * storage): its entries as the sync transaction's extractor port reports them. Nothing is trusted here —
 * links, devices and odd paths are reported as they are and `@wework/sync-transaction` validates them.
 */
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { PackageSource } from '@wework/sync-transaction';

type Entry =
  | { readonly kind: 'file'; readonly path: string; readonly mode: number; readonly bytes: Uint8Array }
  | { readonly kind: 'directory'; readonly path: string; readonly mode: number }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  | { readonly kind: 'other'; readonly path: string; readonly description: string };

async function entriesOf(root: string): Promise<Entry[]> {
  const out: Entry[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const name of (await readdir(join(root, relative))).sort()) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const absolute = join(root, path);
      const stats = await lstat(absolute);
      if (stats.isSymbolicLink()) out.push({ kind: 'symlink', path, target: await readlink(absolute) });
      else if (stats.isDirectory()) {
        out.push({ kind: 'directory', path, mode: stats.mode & 0o777 });
        await walk(path);
      } else if (stats.isFile()) out.push({ kind: 'file', path, mode: stats.mode & 0o777, bytes: await readFile(absolute) });
      else out.push({ kind: 'other', path, description: 'not a file, directory or link' });
    }
  };
  await walk('');
  return out;
}

/** The package in `root`, read when the transaction asks for it. */
export const directoryPackage = (root: string): PackageSource => ({
  extract: () =>
    TE.tryCatch(
      () => entriesOf(root),
      (error) => ({ _tag: 'ExtractionFailed' as const, detail: error instanceof Error && 'code' in error ? String(error.code) : 'unreadable package' }),
    ),
});
