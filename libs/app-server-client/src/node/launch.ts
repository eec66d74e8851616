/**
 * The light Node entry: `launchAppServer` starts `codex app-server` without loading the client or the
 * protocol codecs, so a host can load them (and the rest of itself) while Codex boots. The launched
 * server's `connect()` then loads the client and initializes it.
 */
export { launchAppServer } from './launchAppServer.js';
export type { LaunchAppServerOptions, LaunchedAppServer, ConnectAppServerOptions, LaunchError } from './launchAppServer.js';
export type { SpawnedAppServer } from './spawnAppServer.js';
export type { SpawnError, CodexHomeMissing, CodexNotFound, SpawnFailed, InitializeFailed, InitializeTimedOut } from './SpawnError.js';
