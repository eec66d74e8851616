/**
 * `@wework/codex-home/node`: the Wework Codex home of the running process, wired to the Node file system
 * of `@wework/ports/node`.
 *
 * @packageDocumentation
 */
export { nodeCodexHome, type NodeCodexHomeOptions } from './nodeCodexHome.js';
