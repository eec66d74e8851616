/**
 * `@wework/sync-transaction/node`: the Node implementation of the library's ports, and the intake of
 * a package from an unpacked directory (copied once into staging, never read again).
 */
export { createNodeFileSystem, createNodeHost, createNodePorts, processStartTime, type NodePortsOptions } from './NodePorts.js';
export { directoryPackageSource, type DirectoryPackageOptions } from './DirectoryPackage.js';
