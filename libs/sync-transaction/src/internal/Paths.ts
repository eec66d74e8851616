/**
 * POSIX path arithmetic on plain strings. Pure.
 */

/** The segments of a path, without empty and `.` segments. */
export const segmentsOf = (path: string): ReadonlyArray<string> => path.split('/').filter((s) => s !== '' && s !== '.');

/** Joins path parts with `/` and removes duplicate separators (no `..` resolution). */
export const joinPath = (...parts: ReadonlyArray<string>): string => {
  const joined = parts.filter((p) => p !== '').join('/');
  const collapsed = joined.replace(/\/+/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
};

/** The directory of `path` (`/` for a top-level path). */
export const parentOf = (path: string): string => {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
};

/** The last segment of `path`. */
export const baseNameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * Resolves `..` and `.` segments of a relative path lexically. `null` when the path climbs above its
 * starting point.
 */
export const normalizeRelative = (path: string): string | null => {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
};

/** Every ancestor of an absolute path, nearest first, ending with `/` excluded. */
export const ancestorsOf = (path: string): ReadonlyArray<string> => {
  const out: string[] = [];
  for (let p = parentOf(path); p !== '/'; p = parentOf(p)) out.push(p);
  return out;
};
