/**
 * A byte-for-byte listing of a directory tree — every path, kind, mode, content digest and link
 * target — for "nothing changed" assertions: list a home before and after, compare.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** What {@link listTree} leaves out. */
export interface ListTreeOptions {
  /** Entries (by path relative to the root, `/`-separated) not listed, nor their contents. */
  readonly skip?: (relative: string) => boolean;
}

/**
 * Every entry below `root` as one line, sorted: `. dir 700` for the root, `<path> dir <mode>`,
 * `<path> file <mode> <sha256>`, `<path> link -> <target>` or `<path> other`; `[]` when `root`
 * does not exist. Links are listed, never followed.
 */
export function listTree(root: string, options: ListTreeOptions = {}): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (relative: string): void => {
    const path = relative === '' ? root : join(root, relative);
    const stat = lstatSync(path);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isDirectory()) {
      out.push(`${relative || '.'} dir ${mode}`);
      for (const name of readdirSync(path).sort()) {
        const child = relative === '' ? name : `${relative}/${name}`;
        if (options.skip?.(child) !== true) walk(child);
      }
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
