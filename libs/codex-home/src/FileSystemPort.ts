/**
 * The port through which the programs of this library reach the disk, and its error value.
 *
 * This module is pure: it declares the operations; `@wework/codex-home/node` implements them with
 * `node:fs`, and `@wework/codex-home/testing` implements them in memory. Errors carry an operation,
 * a path and a code — never the bytes of a file — so a token read from auth.json can never leak
 * through an error.
 */
import type * as T from 'fp-ts/lib/Task.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Platform } from './Platform.js';

/** What a path names, as `lstat` (not following a final symbolic link) or `stat` sees it. */
export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

/** The metadata this library needs about a path. */
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
  | 'symlink'
  | 'makeDirectory'
  | 'chmod'
  | 'createTempFile'
  | 'rename'
  | 'remove'
  | 'listDirectory';

/**
 * A failed file-system operation. `code` is a POSIX-style error code (`ENOENT`, `EACCES`, `ELOOP` when
 * a symbolic link was refused, `ENOTDIR`, `EEXIST`, ...) or `EIO` for anything unclassified.
 */
export interface FileSystemError {
  readonly _tag: 'FileSystemError';
  readonly operation: FileOperation;
  readonly path: string;
  readonly code: string;
}

/** Builds a {@link FileSystemError}. */
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
}

/**
 * The file-system operations the programs of this library use. Every operation is a lazy
 * `TaskEither`; nothing happens until it is run.
 */
export interface FileSystemPort {
  /** The platform the paths belong to. */
  readonly platform: Platform;
  /** Metadata of `path` itself (a symbolic link is reported as `symlink`); `null` when absent. */
  lstat(path: string): TE.TaskEither<FileSystemError, FileStat | null>;
  /** Metadata of what `path` resolves to; `null` when absent or a dangling link. */
  stat(path: string): TE.TaskEither<FileSystemError, FileStat | null>;
  /** The bytes of a file. */
  readFile(path: string, options: ReadOptions): TE.TaskEither<FileSystemError, Uint8Array>;
  /** The content of a symbolic link (as stored: possibly relative). */
  readLink(path: string): TE.TaskEither<FileSystemError, string>;
  /** The canonical absolute path of an existing `path`, every link resolved. */
  realPath(path: string): TE.TaskEither<FileSystemError, string>;
  /** Creates a symbolic link at `path` whose content is `target`; fails with `EEXIST` if `path` exists. */
  symlink(target: string, path: string): TE.TaskEither<FileSystemError, void>;
  /** Creates `path` and its missing parents with `mode` (new directories only); an existing directory is fine. */
  makeDirectory(path: string, mode: number): TE.TaskEither<FileSystemError, void>;
  /** Sets the permission bits of `path` (follows a link; a no-op on Windows). */
  chmod(path: string, mode: number): TE.TaskEither<FileSystemError, void>;
  /**
   * Creates a new file with a fresh unique name in `directory` (exclusively, never through a link),
   * writes `bytes`, sets `mode`, flushes it to disk (fsync) and returns its path. The name starts
   * with `.` + `prefix` and ends with `.tmp`.
   */
  createTempFile(directory: string, prefix: string, bytes: Uint8Array, mode: number): TE.TaskEither<FileSystemError, string>;
  /**
   * Atomically renames `from` to `to`, replacing `to` if it exists — a symbolic link at `to` is
   * replaced, never followed — then flushes the directory entry to disk where the platform allows.
   */
  rename(from: string, to: string): TE.TaskEither<FileSystemError, void>;
  /** Removes a file or a symbolic link (never a directory). */
  remove(path: string): TE.TaskEither<FileSystemError, void>;
  /** The names in a directory. */
  listDirectory(path: string): TE.TaskEither<FileSystemError, ReadonlyArray<string>>;
  /** The lowercase hexadecimal SHA-256 of `bytes`. */
  digest(bytes: Uint8Array): T.Task<string>;
}

/** Mode of every file this library creates on Unix: read and write for the owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Mode of every directory this library creates on Unix: the owner only. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
