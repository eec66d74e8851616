/**
 * `@wework/ports`: the one set of ports through which the libraries reach the outside world.
 *
 * - {@link FileSystemPort}: the disk, with a {@link FileSystemError} that never carries file contents.
 * - {@link Clock}, {@link Timer} and {@link Timers}: the time, one re-armable timer, and sleeps.
 * - Platform path arithmetic on strings ({@link joinPath}, {@link normalizePath}, ...).
 * - Retry schedules for operations another program blocks for a moment ({@link retryOnCodes},
 *   {@link renameRetryFor}: Windows renames).
 *
 * Everything here is pure: the Node implementations are in `@wework/ports/node`, in-memory ones for
 * tests in `@wework/ports/testing`.
 */
export {
  DIRECTORY_MODE,
  DEFAULT_READ_MAX_BYTES,
  fileSystemError,
  isNotFound,
  PRIVATE_DIRECTORY_MODE,
  PRIVATE_FILE_MODE,
  type FileOperation,
  type FileStat,
  type FileSystemError,
  type FileSystemPort,
  type FileToWrite,
} from './FileSystemPort.js';
export {
  baseNameOf,
  isAbsolutePath,
  isWithin,
  joinPath,
  normalizePath,
  parentOf,
  platformOf,
  resolveLinkTarget,
  samePath,
  type Platform,
} from './Platform.js';
export { backoffDelays, renameRetryFor, type RetrySchedule } from './Retry.js';
export type { Clock, Timer, Timers } from './Time.js';
export { formatLogFields, logFormatOf, type Log, type LogEntry, type LogFormat } from './Log.js';
export { writeFileAtomic } from './WriteFileAtomic.js';
