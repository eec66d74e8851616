/**
 * `@wework/ports/node`: the Node implementations of the ports — `node:fs` for the file system,
 * `Date.now()`/`performance.now()` and `setTimeout` for the time — the chunked reader of an open file,
 * the one bounded read of a small untrusted file, and the one rename with the platform's retry.
 *
 * @packageDocumentation
 */
export { forEachChunk, type ChunkedReadOptions } from './ChunkedRead.js';
export { nodeFileSystem, type NodeFileSystemOptions } from './NodeFileSystem.js';
export { readSmallFile, type SmallFile, type SmallFileReadError, type SmallFileReadOptions } from './SmallFileRead.js';
export { renameWithRetry, withRetry, type RetryOptions } from './RenameRetry.js';
export { monotonicClock, nodeTimer, nodeTimers, systemClock } from './NodeTime.js';
export { streamLog, type StreamLogOptions } from './StreamLog.js';
