/**
 * `@wework/ports/node`: the Node implementations of the ports — `node:fs` for the file system,
 * `Date.now()`/`performance.now()` and `setTimeout` for the time — the chunked reader of an open file,
 * and the one rename with the platform's retry.
 *
 * @packageDocumentation
 */
export { forEachChunk, type ChunkedReadOptions } from './ChunkedRead.js';
export { nodeFileSystem, type NodeFileSystemOptions } from './NodeFileSystem.js';
export { renameWithRetry, withRetry, type RetryOptions } from './RenameRetry.js';
export { monotonicClock, nodeTimer, nodeTimers, systemClock } from './NodeTime.js';
export { streamLog, type StreamLogOptions } from './StreamLog.js';
