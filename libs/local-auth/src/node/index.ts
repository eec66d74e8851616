/**
 * `@wework/local-auth/node`: the Node implementation of the library's ports — bridges run as child
 * processes without a shell, timers, managed tool installation and bundled sidecars.
 */
export { createNodeBridgeRunner, DEFAULT_BRIDGE_ENV } from './NodeBridgeRunner.js';
export type { NodeBridgeRunnerOptions } from './NodeBridgeRunner.js';
export { httpDownloader } from './Downloader.js';
export type { Downloader, HttpDownloaderOptions } from './Downloader.js';
export { managedToolInstaller, toolResolver, currentPlatform } from './ManagedToolInstaller.js';
export type { ManagedToolInstaller, ManagedToolInstallerOptions } from './ManagedToolInstaller.js';
export { sidecarDirectory } from './SidecarResolver.js';
export type { SidecarResolver } from './SidecarResolver.js';
