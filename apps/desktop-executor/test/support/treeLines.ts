/**
 * A byte-for-byte description of a directory tree for "nothing changed" assertions: every path, kind,
 * mode and content digest below a root, without the app-server's own runtime files (logs, databases,
 * sessions, scratch space), which change while it runs whatever the executor does.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Every path, kind, mode and content digest below `root` (the app-server's own logs and databases aside). */
export function treeLines(root: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    const path = relative === '' ? root : join(root, relative);
    const stat = lstatSync(path);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isDirectory()) {
      out.push(`${relative} dir ${mode}`);
      for (const name of readdirSync(path).sort()) {
        const child = relative === '' ? name : `${relative}/${name}`;
        // Codex's own runtime files change while it runs, whatever the executor does.
        if (/^codex\/(log|logs|sessions|shell_snapshots|tmp|\.tmp|cache)(\/|$)|\.sqlite(-wal|-shm|-journal)?$|^codex\/models_cache\.json$/.test(child)) continue;
        walk(child);
      }
    } else if (stat.isSymbolicLink()) out.push(`${relative} link ${readlinkSync(path)}`);
    else if (stat.isFile()) out.push(`${relative} file ${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    else out.push(`${relative} other`);
  };
  walk('');
  return out;
}
