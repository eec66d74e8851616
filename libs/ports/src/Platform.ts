/**
 * Platforms and path arithmetic, done on strings so the programs written against the ports stay pure.
 *
 * Every function is pure: strings in, strings out. Nothing here touches the file system, so nothing
 * here resolves symbolic links or the working directory: paths given to the ports are absolute.
 */

/**
 * The kind of operating system the paths belong to. `unix` has symbolic links and POSIX file modes
 * (0600/0700); `windows` has drive letters, `\` separators and no POSIX modes.
 */
export type Platform = 'unix' | 'windows';

/** The platform of a Node-style `process.platform` value (`win32` is Windows, everything else Unix). */
export const platformOf = (nodePlatform: string): Platform => (nodePlatform === 'win32' ? 'windows' : 'unix');

const isSeparator = (platform: Platform, char: string): boolean => char === '/' || (platform === 'windows' && char === '\\');

const separatorOf = (platform: Platform): string => (platform === 'windows' ? '\\' : '/');

/**
 * Whether `path` is absolute: `/x` on Unix; `C:\x`, `C:/x` or a UNC path `\\server\share` on Windows.
 */
export const isAbsolutePath = (platform: Platform, path: string): boolean => {
  if (platform === 'unix') return path.startsWith('/');
  if (/^[A-Za-z]:[\\/]/.test(path)) return true;
  return /^[\\/]{2}[^\\/]/.test(path);
};

/** The root prefix of an absolute path (`/`, `C:\`, `\\server\share\`), or `''` for a relative one. */
const rootOf = (platform: Platform, path: string): string => {
  if (platform === 'unix') return path.startsWith('/') ? '/' : '';
  const drive = /^([A-Za-z]:)[\\/]/.exec(path);
  if (drive?.[1] !== undefined) return `${drive[1]}\\`;
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/.exec(path);
  if (unc?.[1] !== undefined && unc[2] !== undefined) return `\\\\${unc[1]}\\${unc[2]}\\`;
  return '';
};

/**
 * `path` with `.` and `..` segments resolved and repeated separators collapsed; Windows paths use `\`.
 * `..` never climbs above the root. A relative path stays relative.
 */
export const normalizePath = (platform: Platform, path: string): string => {
  const root = rootOf(platform, path);
  const rest = path.slice(platform === 'windows' && root.startsWith('\\\\') ? uncLength(path) : root.length);
  const segments: string[] = [];
  for (const segment of splitSegments(platform, rest)) {
    if (segment === '.' || segment === '') continue;
    if (segment === '..') {
      if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
      else if (root === '') segments.push('..');
      continue;
    }
    segments.push(segment);
  }
  const joined = segments.join(separatorOf(platform));
  if (root === '') return joined === '' ? '.' : joined;
  return root + joined;
};

const uncLength = (path: string): number => {
  const match = /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+[\\/]*/.exec(path);
  return match?.[0].length ?? 0;
};

const splitSegments = (platform: Platform, path: string): string[] => {
  const segments: string[] = [];
  let current = '';
  for (const char of path) {
    if (isSeparator(platform, char)) {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments;
};

/** `base` followed by `names`, normalized. */
export const joinPath = (platform: Platform, base: string, ...names: ReadonlyArray<string>): string =>
  normalizePath(platform, [base, ...names].join(separatorOf(platform)));

/** The directory that contains `path` (the root is its own parent). */
export const parentOf = (platform: Platform, path: string): string => joinPath(platform, path, '..');

/** The last segment of `path` (`''` for a root). */
export const baseNameOf = (platform: Platform, path: string): string => {
  const normalized = normalizePath(platform, path);
  if (normalized === rootOf(platform, normalized)) return '';
  const segments = splitSegments(platform, normalized);
  return segments[segments.length - 1] ?? '';
};

/**
 * Where a symbolic link at `linkPath` whose content is `target` points: an absolute target as is,
 * a relative one against the link's directory.
 */
export const resolveLinkTarget = (platform: Platform, linkPath: string, target: string): string =>
  isAbsolutePath(platform, target) ? normalizePath(platform, target) : joinPath(platform, parentOf(platform, linkPath), target);

/** Whether two absolute paths name the same location as strings (case-insensitive on Windows). */
export const samePath = (platform: Platform, a: string, b: string): boolean => {
  const left = normalizePath(platform, a);
  const right = normalizePath(platform, b);
  return platform === 'windows' ? left.toLowerCase() === right.toLowerCase() : left === right;
};

/** Whether `path` is `ancestor` or lies below it (string comparison after normalization). */
export const isWithin = (platform: Platform, ancestor: string, path: string): boolean => {
  const a = normalizePath(platform, ancestor);
  const p = normalizePath(platform, path);
  const [left, right] = platform === 'windows' ? [a.toLowerCase(), p.toLowerCase()] : [a, p];
  if (left === right) return true;
  const prefix = left.endsWith(separatorOf(platform)) ? left : left + separatorOf(platform);
  return right.startsWith(prefix);
};
