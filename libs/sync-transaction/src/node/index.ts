/**
 * `@wework/sync-transaction/node`: the Node implementation of the library's ports, and the intake of
 * a package from an unpacked directory (copied once into staging, never read again), and a lock held
 * by this process for its whole life; and the commit of a plugin change between two inspections of the
 * Codex home, which decides how running app-servers take it.
 */
export { createNodeFileSystem, createNodeHost, createNodePorts, processStartTime, type NodePortsOptions } from './NodePorts.js';
export { directoryPackageSource, type DirectoryPackageOptions } from './DirectoryPackage.js';
export { acquireProcessLock, type ProcessLock, type ProcessLockHeld } from './ProcessLock.js';
export { commitAndDecide, type DecidedChange } from './DecideCommittedChange.js';
export { inspectInstalledPlugin } from './InspectInstalledPlugin.js';
