/**
 * The Node side of the app-server client: spawning `codex app-server`, finding its binary, and ending
 * its process tree.
 */
export { spawnAppServer } from './spawnAppServer.js';
export type { SpawnAppServerOptions, SpawnedAppServer } from './spawnAppServer.js';
export { launchAppServer } from './launchAppServer.js';
export type { LaunchAppServerOptions, LaunchedAppServer, ConnectAppServerOptions, LaunchError } from './launchAppServer.js';
export type { SpawnError, CodexHomeMissing, CodexNotFound, SpawnFailed, InitializeFailed, InitializeTimedOut } from './SpawnError.js';
export { codexCommandAt, resolveCodexCommand, nativeBinaryLocation } from './resolveCodexCommand.js';
export type { CodexCommand, NativeBinaryLocation, ResolveCodexCommandOptions } from './resolveCodexCommand.js';
export { terminateProcessTree } from './terminateProcessTree.js';
export type { TerminateOptions, TerminateReport } from './terminateProcessTree.js';
export { parseProcStat, treeOf, listProcesses, isRunning } from './ProcessTree.js';
export {
  currentProcessPlatform,
  nodeCommandRunner,
  parsePsOutput,
  processPlatformFor,
  procTable,
  psTable,
  PS_ARGUMENTS,
  taskkillArguments,
  unixProcessPlatform,
  windowsProcessPlatform,
} from './ProcessPlatform.js';
export type { CommandRunner, ProcessPlatform, ProcessTable } from './ProcessPlatform.js';
export type { ProcessInfo, ProcessIdentity } from './ProcessTree.js';
export { StderrTail, DEFAULT_STDERR_LIMIT_BYTES } from './StderrTail.js';
export { superviseAppServer } from './superviseAppServer.js';
export type { RuntimeState, RuntimeStatus, SupervisedAppServer, SuperviseAppServerOptions, SupervisorUnavailable } from './superviseAppServer.js';
