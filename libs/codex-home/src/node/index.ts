/**
 * `@wework/codex-home/node`: the Node implementation of the library's file-system port, and the
 * Wework Codex home of the running process wired to it.
 *
 * @packageDocumentation
 */
export { nodeFileSystem, type NodeFileSystemOptions } from './NodeFileSystem.js';
export { nodeCodexHome, type NodeCodexHomeOptions } from './nodeCodexHome.js';
