/**
 * Test helpers over real directories: a byte-for-byte snapshot of a tree (every path, kind, mode,
 * content and link target) and its hash, independent of the library's own digest.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry below `root` as `path kind mode content`, sorted. */
export function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    const path = relative === '' ? root : join(root, relative);
    const stat = lstatSync(path);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isDirectory()) {
      out.push(`${relative || '.'} dir ${mode}`);
      for (const name of readdirSync(path).sort()) walk(relative === '' ? name : `${relative}/${name}`);
    } else if (stat.isSymbolicLink()) out.push(`${relative} link -> ${readlinkSync(path)}`);
    else if (stat.isFile()) out.push(`${relative} file ${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    else out.push(`${relative} other`);
  };
  walk('');
  return out.sort();
}

/** The hash of {@link listTree} of each root, in order (the roots' own paths are not part of it). */
export function hashTrees(...roots: ReadonlyArray<string>): string {
  const hash = createHash('sha256');
  for (const root of roots) hash.update(`${listTree(root).join('\n')}\n\n`);
  return hash.digest('hex');
}
