/**
 * `@wework/app-server-client/node/launch`: starting `codex app-server` without loading the client. This
 * entry loads only what a launch needs (the command resolution, the process-tree teardown, the stderr
 * tail): no JSON-RPC connection, no protocol codecs. A host can so start Codex first and load the rest
 * of itself while Codex boots; the launched server's `connect()` loads the client then and initializes.
 */
export { launchAppServer } from './launchAppServer.js';
export type { ConnectAppServerOptions, LaunchAppServerOptions, LaunchError, LaunchedAppServer } from './launchAppServer.js';
