/**
 * A plugin package that arrived as a directory (downloaded and unpacked by the caller, for example from
 * the Wework backend or object storage): its entries as the transaction's {@link PackageSource} reports
 * them. Nothing is trusted here — links, devices and odd names are reported as they are, and
 * `validatePackage` decides before anything is written.
 */
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { PackageEntry } from '../Package.js';
import type { ExtractionFailed, PackageSource } from '../Transaction.js';

async function entriesOf(root: string): Promise<PackageEntry[]> {
  const out: PackageEntry[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const name of (await readdir(join(root, relative))).sort()) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const absolute = join(root, path);
      const stats = await lstat(absolute);
      if (stats.isSymbolicLink()) out.push({ kind: 'symlink', path, target: await readlink(absolute) });
      else if (stats.isDirectory()) {
        out.push({ kind: 'directory', path, mode: stats.mode & 0o777 });
        await walk(path);
      } else if (stats.isFile()) out.push({ kind: 'file', path, mode: stats.mode & 0o777, bytes: new Uint8Array(await readFile(absolute)) });
      else out.push({ kind: 'other', path, description: 'not a file, directory or link' });
    }
  };
  await walk('');
  return out;
}

const extractionFailed = (error: unknown): ExtractionFailed => ({
  _tag: 'ExtractionFailed',
  detail: typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unreadable package',
});

/**
 * The package in the directory `root`, read when the transaction asks for it (a missing or unreadable
 * directory is `ExtractionFailed` with the error code).
 *
 * @example
 * ```ts
 * const source = directoryPackageSource(join(downloads, 'forms-1.2.0')); // unpacked by the download step
 * await commitChange(ports, homes, { _tag: 'Install', plugin, version: '1.2.0', source, at })();
 * ```
 */
export const directoryPackageSource = (root: string): PackageSource => ({
  extract: () => TE.tryCatch(() => entriesOf(root), extractionFailed),
});
