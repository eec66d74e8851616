/**
 * `@wework/ports/node`: the Node implementations of the ports — `node:fs` for the file system,
 * `Date.now()`/`performance.now()` and `setTimeout` for the time — and the chunked reader of an open file.
 *
 * @packageDocumentation
 */
export { forEachChunk, type ChunkedReadOptions } from './ChunkedRead.js';
export { nodeFileSystem, type NodeFileSystemOptions } from './NodeFileSystem.js';
export { monotonicClock, nodeTimer, nodeTimers, systemClock } from './NodeTime.js';
