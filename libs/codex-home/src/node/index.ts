/**
 * `@wework/codex-home/node`: the Node implementation of the file-system port (from `@wework/ports/node`), and the
 * Wework Codex home of the running process wired to it.
 *
 * @packageDocumentation
 */
export { nodeFileSystem, type NodeFileSystemOptions } from '@wework/ports/node';
export { nodeCodexHome, type NodeCodexHomeOptions } from './nodeCodexHome.js';
