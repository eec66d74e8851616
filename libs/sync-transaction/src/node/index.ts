/**
 * `@wework/sync-transaction/node`: the Node implementation of the library's ports.
 */
export { createNodeFileSystem, createNodeHost, createNodePorts, processStartTime, type NodePortsOptions } from './NodePorts.js';
