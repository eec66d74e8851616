/**
 * The one port through which the libraries reach the disk, and its error value.
 *
 * This module is pure: it declares the operations; `@wework/ports/node` implements them with Node's file system
 * and `@wework/ports/testing` in memory. Errors carry an operation, a path and a code — never the
 * bytes of a file — so a token read from a file can never leak through an error. Every operation is a
 * lazy `TaskEither`: nothing happens until it is run.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Platform } from './Platform.js';

/** What a path names, as `lstat` (not following a final symbolic link) or `stat` sees it. */
export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

/** The metadata the libraries need about a path. */
export interface FileStat {
  readonly kind: FileKind;
  /** Permission bits (`mode & 0o7777`); meaningless on Windows. */
  readonly mode: number;
}

/** The operations a port reports failures of. */
export type FileOperation =
  | 'lstat'
  | 'stat'
  | 'readFile'
  | 'readLink'
  | 'realPath'
  | 'listDirectory'
  | 'symlink'
  | 'makeDirectory'
  | 'createDirectory'
  | 'chmod'
  | 'createTempFile'
  | 'writeFiles'
  | 'writeFileDurable'
  | 'copyFile'
  | 'digestFile'
  | 'rename'
  | 'publishExclusive'
  | 'remove'
  | 'removeFile'
  | 'removeTree'
  | 'removeEmptyDirectory'
  | 'flush';

/**
 * A failed file-system operation. `code` is a POSIX-style error code (`ENOENT`, `EACCES`, `ELOOP` when
 * a symbolic link was refused, `ENOTDIR`, `EEXIST`, `ENOTEMPTY`, ...) or `EIO` for anything unclassified.
 */
export interface FileSystemError {
  readonly _tag: 'FileSystemError';
  readonly operation: FileOperation;
  readonly path: string;
  readonly code: string;
}

/**
 * Builds a {@link FileSystemError}.
 *
 * @example
 * ```ts
 * fileSystemError('readFile', '/home/ada/.codex/auth.json', 'ENOENT');
 * // { _tag: 'FileSystemError', operation: 'readFile', path: '/home/ada/.codex/auth.json', code: 'ENOENT' }
 * ```
 */
export const fileSystemError = (operation: FileOperation, path: string, code: string): FileSystemError => ({
  _tag: 'FileSystemError',
  operation,
  path,
  code,
});

/** Whether `error` says the path does not exist. */
export const isNotFound = (error: FileSystemError): boolean => error.code === 'ENOENT';

/** Options of {@link FileSystemPort.readFile}. */
export interface ReadOptions {
  /**
   * `false` refuses a symbolic link as the final path component (`O_NOFOLLOW`) with code `ELOOP`.
   * Links in the directories above are always followed.
   */
  readonly followSymlink: boolean;
  /**
   * The most bytes the file may hold; a longer one is refused with code `EFBIG` and nothing of it is
   * returned. Defaults to {@link DEFAULT_READ_MAX_BYTES}.
   */
  readonly maxBytes?: number;
}

/** The bound of {@link FileSystemPort.readFile} when the caller names none: 16 MiB. */
export const DEFAULT_READ_MAX_BYTES = 16 * 1024 * 1024;

/** A regular file to create. */
export interface FileToWrite {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Exact permission bits of the new file (not reduced by the process umask). */
  readonly mode: number;
}

/**
 * The file-system operations the libraries use. Operations that change the disk are called
 * "mutations" below; each one is atomic on its own or touches only paths no reader looks at.
 */
export interface FileSystemPort {
  /** The platform the paths belong to. */
  readonly platform: Platform;
  /** Metadata of `path` itself (a symbolic link is reported as `symlink`); `null` when absent. */
  lstat(path: string): TE.TaskEither<FileSystemError, FileStat | null>;
  /** Metadata of what `path` resolves to; `null` when absent or a dangling link. */
  stat(path: string): TE.TaskEither<FileSystemError, FileStat | null>;
  /**
   * The bytes of a regular file, at most `options.maxBytes` of them (`EFBIG` beyond). The read never
   * waits for a writer: a directory is `EISDIR`, and a named pipe, socket or device `EINVAL`.
   */
  readFile(path: string, options: ReadOptions): TE.TaskEither<FileSystemError, Uint8Array>;
  /** The content of a symbolic link (as stored: possibly relative). */
  readLink(path: string): TE.TaskEither<FileSystemError, string>;
  /** The canonical absolute path of an existing `path`, every link resolved. */
  realPath(path: string): TE.TaskEither<FileSystemError, string>;
  /** The names in a directory, in no particular order. */
  listDirectory(path: string): TE.TaskEither<FileSystemError, ReadonlyArray<string>>;
  /** Mutation: creates a symbolic link at `path` whose content is `target`; `EEXIST` if `path` exists. */
  symlink(target: string, path: string): TE.TaskEither<FileSystemError, void>;
  /** Mutation: creates `path` and its missing parents with `mode` (new directories only); an existing directory is fine. */
  makeDirectory(path: string, mode: number): TE.TaskEither<FileSystemError, void>;
  /** Mutation: creates one directory with exactly `mode` (its parent must exist); `EEXIST` when something is there. */
  createDirectory(path: string, mode: number): TE.TaskEither<FileSystemError, void>;
  /** Mutation: sets the permission bits of `path` (follows a link; a no-op on Windows). */
  chmod(path: string, mode: number): TE.TaskEither<FileSystemError, void>;
  /**
   * Mutation: creates a new file with a fresh unique name in `directory` (exclusively, never through a
   * link), writes `bytes`, sets `mode`, flushes it to disk (fsync) and returns its path. The name
   * starts with `.` + `prefix` and ends with `.tmp`.
   */
  createTempFile(directory: string, prefix: string, bytes: Uint8Array, mode: number): TE.TaskEither<FileSystemError, string>;
  /**
   * Mutation: creates new regular files exclusively (`EEXIST` when a path exists, never through a
   * link). Not flushed: call {@link FileSystemPort.flush} before depending on them after a power loss.
   */
  writeFiles(files: ReadonlyArray<FileToWrite>): TE.TaskEither<FileSystemError, void>;
  /** Mutation: creates one new file exclusively and flushes it and its directory entry to disk. */
  writeFileDurable(file: FileToWrite): TE.TaskEither<FileSystemError, void>;
  /**
   * Mutation: creates the new regular file `to` exclusively (never through a link) with the content
   * of the regular file `from` and exactly `mode`, streaming (bounded memory). Not flushed.
   */
  copyFile(from: string, to: string, mode: number): TE.TaskEither<FileSystemError, void>;
  /**
   * The lowercase hexadecimal SHA-256 of a regular file's content, read in bounded chunks (never
   * through a final symbolic link: `ELOOP`).
   */
  digestFile(path: string): TE.TaskEither<FileSystemError, string>;
  /**
   * Mutation: atomically renames `from` to `to`, replacing a file at `to` — a symbolic link at `to` is
   * replaced, never followed; a directory at `to` must be absent — then flushes the directory entries
   * to disk where the platform allows.
   */
  rename(from: string, to: string): TE.TaskEither<FileSystemError, void>;
  /**
   * Mutation: gives the file at `from` the name `to` only if `to` does not exist (`EEXIST` otherwise;
   * a hard link, so `to` never exists without its full content), removes the name `from`, and flushes
   * the directory entries.
   */
  publishExclusive(from: string, to: string): TE.TaskEither<FileSystemError, void>;
  /** Mutation: removes a file or a symbolic link (never a directory); `ENOENT` when absent. */
  remove(path: string): TE.TaskEither<FileSystemError, void>;
  /** Mutation: removes a file or a symbolic link and flushes its directory entry; an absent path is fine. */
  removeFile(path: string): TE.TaskEither<FileSystemError, void>;
  /** Mutation: removes a directory tree (or a file); an absent path is fine. */
  removeTree(path: string): TE.TaskEither<FileSystemError, void>;
  /** Mutation: removes an empty directory; `ENOTEMPTY` when it is not empty, absent is fine. */
  removeEmptyDirectory(path: string): TE.TaskEither<FileSystemError, void>;
  /** Makes every file and directory written under each of `roots` durable (fsync or syncfs). */
  flush(roots: ReadonlyArray<string>): TE.TaskEither<FileSystemError, void>;
  /** The lowercase hexadecimal SHA-256 of `bytes` (a pure function). */
  digest(bytes: Uint8Array): string;
}

/** Mode of private files (credentials, registries, journals) on Unix: read and write for the owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Mode of private directories on Unix: the owner only. */
export const PRIVATE_DIRECTORY_MODE = 0o700;

/** Mode of shared directories (readable by everyone, written by the owner). */
export const DIRECTORY_MODE = 0o755;
