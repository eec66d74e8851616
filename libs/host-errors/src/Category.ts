/**
 * The words an error message to a host may be built from: a tag of a closed set, a Codex method name,
 * the category of a file-system error, and the executor's own category text once it is checked to hold
 * no path and no text of Codex or the operating system. Anything else is withheld.
 *
 * Every function here is pure: strings in, strings (or `null`) out.
 */

const TAG = /^[A-Z][A-Za-z0-9]{0,63}$/;
const METHOD = /^[a-z][A-Za-z]{0,31}(?:\/[a-z][A-Za-z]{0,31}){0,3}$/;

/**
 * `tag` when it is a `_tag`-like word (`RefOnlyForGit`, `Superseded`), else `null`: a category of a
 * closed set may be named, a free text never.
 *
 * @example
 * categoryTag('RefOnlyForGit'); // 'RefOnlyForGit'
 * categoryTag('/home/ada/.codex'); // null
 */
export function categoryTag(tag: string): string | null {
  return TAG.test(tag) ? tag : null;
}

/**
 * A Codex method as a message names it (`config/batchWrite`), or `a Codex request` when `method` is not
 * shaped like one.
 *
 * @example
 * methodName('config/batchWrite'); // 'config/batchWrite'
 * methodName('C:\\Users\\x'); // 'a Codex request'
 */
export function methodName(method: string): string {
  return METHOD.test(method) ? method : 'a Codex request';
}

/** The category of a file-system error code (`errno`): what a person can act on, never the OS's text. */
export interface FileSystemCategory {
  /** A few words (`the disk is full`). */
  readonly words: string;
  /** Whether the same request may succeed later without anything else changing than the machine's state (space freed). */
  readonly retryable: boolean;
}

/**
 * The category of an `errno` code (`ENOSPC`, `EDQUOT`, `EACCES`, …); an unknown code is `a file-system error`.
 *
 * @example
 * fileSystemCategory('ENOSPC'); // { words: 'the disk is full', retryable: true }
 */
export function fileSystemCategory(code: string): FileSystemCategory {
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return { words: 'the disk is full', retryable: true };
    case 'EACCES':
    case 'EPERM':
      return { words: 'a file may not be written', retryable: false };
    case 'EROFS':
      return { words: 'the file system is read-only', retryable: false };
    case 'EIO':
      return { words: 'the disk failed to read or write', retryable: true };
    case 'EMFILE':
    case 'ENFILE':
      return { words: 'too many files are open', retryable: true };
    case 'ENOENT':
    case 'ENOTDIR':
    case 'EISDIR':
    case 'EEXIST':
    case 'ELOOP':
    case 'ENOTEMPTY':
      return { words: 'a file or folder is missing or in the way', retryable: false };
    default:
      return { words: 'a file-system error', retryable: false };
  }
}

/** What gives a text away as a path, a value or the text of Codex or the OS. */
const FOREIGN = [
  /(^|[^A-Za-z0-9_-])[/~]/, // an absolute or home path (`/home/x`, `~/x`); `config/read` is a method
  /\\/, // a Windows path or an escape
  /[A-Za-z]:[/\\]/, // a drive letter path
  /\.[A-Za-z]{2,8}(\W|$)/, // a file name (`config.toml`, `auth.json`)
  /["'`]/, // a quoted value
  /\b(os error|errno|no such file|permission denied|no space left|E[A-Z]{3,9}:)/i, // the OS's own wording
];

/**
 * The executor's own category text (`the app-server exited (code null, signal SIGKILL)`,
 * `config/read failed with -32603`) when it is printable, at most 240 characters and shows nothing of a
 * path, a quoted value or the OS's wording; else `null` (the message then gives the tag only).
 *
 * @example
 * categoryText('config/read failed with -32603'); // 'config/read failed with -32603'
 * categoryText('failed to load /home/ada/.codex/config.toml'); // null
 */
export function categoryText(text: string): string | null {
  if (text.length === 0 || text.length > 240 || !/^[\x20-\x7e]+$/.test(text)) return null;
  return FOREIGN.some((pattern) => pattern.test(text)) ? null : text;
}
