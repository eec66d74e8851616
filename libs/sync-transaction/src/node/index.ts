/**
 * `@wework/sync-transaction/node`: the Node implementation of the library's ports, and a package
 * source over an unpacked directory.
 */
export { createNodeFileSystem, createNodeHost, createNodePorts, processStartTime, type NodePortsOptions } from './NodePorts.js';
export { directoryPackageSource } from './DirectoryPackage.js';
