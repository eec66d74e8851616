/**
 * A byte-for-byte listing of a directory tree (every path, kind, mode, content hash and link target),
 * to fingerprint a home before and after.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry below `root` as `path kind mode sha256`, sorted; `[]` when `root` does not exist. */
export function listTree(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (relative: string): void => {
    const path = relative === '' ? root : join(root, relative);
    const stat = lstatSync(path);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isDirectory()) {
      out.push(`${relative || '.'} dir ${mode}`);
      for (const name of readdirSync(path).sort()) walk(relative === '' ? name : `${relative}/${name}`);
    } else if (stat.isSymbolicLink()) out.push(`${relative} link -> ${readlinkSync(path)}`);
    else out.push(`${relative} file ${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
  };
  walk('');
  return out.sort();
}
