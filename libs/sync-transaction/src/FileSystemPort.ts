/**
 * The port through which every program of this library reaches the disk, and its error value.
 *
 * This module is pure: it declares the operations; `@wework/sync-transaction/node` implements them
 * with `node:fs`. Paths are absolute POSIX paths. Errors carry an operation, a path and a code, never
 * file contents.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';

/** What a path names, as `lstat` sees it (a symbolic link is not followed). */
export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

/** The metadata this library needs about a path. */
export interface FileStat {
  readonly kind: FileKind;
  /** Permission bits (`mode & 0o7777`). */
  readonly mode: number;
}

/** The operations a port reports failures of. */
export type FileOperation =
  | 'lstat'
  | 'readFile'
  | 'readLink'
  | 'listDirectory'
  | 'makeDirectory'
  | 'writeFiles'
  | 'writeFileDurable'
  | 'copyFile'
  | 'digestFile'
  | 'symlink'
  | 'rename'
  | 'publishExclusive'
  | 'removeFile'
  | 'removeTree'
  | 'removeEmptyDirectory'
  | 'flush';

/**
 * A failed file-system operation. `code` is a POSIX error code (`ENOENT`, `EEXIST`, `EACCES`,
 * `ENOTEMPTY`, ...) or `EIO` for anything unclassified.
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

/** A regular file to create. */
export interface FileToWrite {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Exact permission bits of the new file (not reduced by the process umask). */
  readonly mode: number;
}

/**
 * The file-system operations of a transaction. Every operation is a lazy `TaskEither`: nothing happens
 * until it is run. Operations that change the disk are called "mutations" below; each one is atomic
 * on its own or (for staging writes) touches only paths no reader looks at.
 */
export interface FileSystemPort {
  /** Metadata of `path` itself; `null` when absent. */
  lstat(path: string): TE.TaskEither<FileSystemError, FileStat | null>;
  /** The bytes of a regular file (never through a final symbolic link: `ELOOP`). */
  readFile(path: string): TE.TaskEither<FileSystemError, Uint8Array>;
  /** The content of a symbolic link, as stored. */
  readLink(path: string): TE.TaskEither<FileSystemError, string>;
  /** The names in a directory, in no particular order. */
  listDirectory(path: string): TE.TaskEither<FileSystemError, ReadonlyArray<string>>;
  /** Mutation: creates one directory (its parent must exist); `EEXIST` when something is there. */
  makeDirectory(path: string, mode: number): TE.TaskEither<FileSystemError, void>;
  /**
   * Mutation: creates new regular files exclusively (`EEXIST` when a path exists, never through a
   * link). Not flushed: call {@link FileSystemPort.flush} before depending on them after a power loss.
   */
  writeFiles(files: ReadonlyArray<FileToWrite>): TE.TaskEither<FileSystemError, void>;
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
  /** Mutation: creates one new file exclusively and flushes it and its directory entry to disk. */
  writeFileDurable(file: FileToWrite): TE.TaskEither<FileSystemError, void>;
  /** Mutation: creates a symbolic link at `path` with content `target`. */
  symlink(target: string, path: string): TE.TaskEither<FileSystemError, void>;
  /**
   * Mutation: atomically renames `from` to `to` (replacing a file at `to`; a directory at `to` must be
   * absent), then flushes both directory entries to disk.
   */
  rename(from: string, to: string): TE.TaskEither<FileSystemError, void>;
  /**
   * Mutation: gives the file at `from` the name `to` only if `to` does not exist (`EEXIST` otherwise;
   * a hard link, so `to` never exists without its full content), removes the name `from`, and flushes
   * the directory entries.
   */
  publishExclusive(from: string, to: string): TE.TaskEither<FileSystemError, void>;
  /** Mutation: removes a file or a symbolic link; an absent path is fine. */
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

/** Whether `error` says the path does not exist. */
export const isNotFound = (error: FileSystemError): boolean => error.code === 'ENOENT';

/** Mode of the directories this library creates. */
export const DIRECTORY_MODE = 0o755;

/** Mode of the registry, configuration, manifest and journal files this library creates. */
export const PRIVATE_FILE_MODE = 0o600;
