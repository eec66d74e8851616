/**
 * A file tree as plain data: a Map from a `/`-separated relative path to the file's text.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/**
 * Reads every file under `root` (recursively) into a tree keyed by relative path.
 * A missing root reads as an empty tree.
 * @param {string} root
 * @returns {Promise<Map<string, string>>}
 */
export async function readTree(root) {
  /** @type {Map<string, string>} */
  const tree = new Map();
  /** @param {string} dir */
  async function walk(dir) {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) tree.set(relative(root, path).split(sep).join('/'), await readFile(path, 'utf8'));
    }
  }
  await walk(root);
  return new Map([...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Writes a tree under `root`, first removing the given managed directories so that files which
 * are no longer generated disappear.
 * @param {string} root
 * @param {Map<string, string>} tree
 * @param {readonly string[]} managedDirectories relative to root
 */
export async function writeTree(root, tree, managedDirectories) {
  for (const dir of managedDirectories) await rm(join(root, dir), { recursive: true, force: true });
  for (const [path, text] of tree) {
    const target = join(root, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}
