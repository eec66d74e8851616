/**
 * `@wework/local-auth`: device-side authorization of plugin connectors. The pure core — manifest,
 * status checks, sessions, install-time authorization, runtime recovery, managed tool planning — works
 * through ports; `@wework/local-auth/node` implements them for Node.
 */
export { parseCommand, normalizeProgram, checkArgument, commandProblemText, COMMAND_LIMITS } from './Command.js';
export type { BridgeCommand, CommandProblem, CommandRefusal } from './Command.js';
export {
  AuthPolicy,
  ToolOs,
  ToolArch,
  Slug,
  ToolVersion,
  Sha256Hex,
  Command,
  ArtifactFormat,
  ArchiveEntryPath,
  isArchiveEntryPath,
  ToolArtifact,
  BundledTool,
  ManagedTool,
  ToolSource,
  DEFAULT_LOGIN_TIMEOUT_MS,
  decodeLocalAuthConnectors,
  policyTriggers,
} from './LocalAuthManifest.js';
export type { LocalQrAuth, BrowserOAuthAuth, LocalAuth, ConnectorLocalAuth, ManifestProblem, InvalidLocalAuth, PolicyTriggers } from './LocalAuthManifest.js';
export { bridgeError } from './BridgeError.js';
export type {
  BridgeInvocationName,
  BridgeError,
  BridgeSpawnFailed,
  BridgeTimedOut,
  BridgeCancelled,
  BridgeExited,
  NoStatusObject,
  MultipleStatusObjects,
  MalformedStatus,
  CredentialInStatus,
  OutputTooLarge,
  TreeSurvived,
} from './BridgeError.js';
export { BridgeStatus, DEFAULT_MAX_STDOUT_BYTES, credentialFields, parseBridgeOutput } from './BridgeStatus.js';
export type { StatusOrigin } from './BridgeStatus.js';
export { HEALTH_TIMEOUT_MS, POLL_TIMEOUT_MS, TOOL_PATH_ENV } from './Ports.js';
export type { BridgeInvocation, BridgeRunner, ToolResolver, AuthLogRecord, AuthLogger } from './Ports.js';
export { runHealth, resolveTool, healthKey, HealthCache, deviceHealth } from './HealthCheck.js';
export type { AuthTarget, HealthUnclear, HealthError, Health, HealthDeps, DeviceHealth } from './HealthCheck.js';
export { startLoginSession, LoginSessions } from './LoginSession.js';
export type { LoginTimedOut, LoginRejected, StillLoggedOut, LoginError, LoginState, LoginOutcome, LoginSession, LoginDeps } from './LoginSession.js';
export { installWithAuthorization, login } from './InstallAuthorization.js';
export type {
  AuthorizationRequest,
  AuthorizationUi,
  StartLogin,
  SyncedPlugin,
  ConnectorReadiness,
  InstallAuthorized,
  AuthorizationCancelled,
  AuthorizationFailed,
  AbortFailed,
  InstallAuthorizationError,
  InstallAuthorizationDeps,
} from './InstallAuthorization.js';
export { logoutOnUninstall } from './Uninstall.js';
export type { UninstallLogout } from './Uninstall.js';
export { DETECTION_LIMITS, AUTH_REQUIRED_CODE, detectionInput, detectAuthRequired } from './AuthRequiredDetection.js';
export type { ConnectorAuthRequired, NotAuthRequiredReason, NotAuthRequired, AuthDetection, DetectionInput } from './AuthRequiredDetection.js';
export { continuationInstruction, recoverConnectorAuth, RecoveryGate, recoverThroughGate } from './RuntimeRecovery.js';
export type {
  ConnectorIdentity,
  ConnectorNotFound,
  RecoveryCancelled,
  RecoveryFailed,
  RecoveryObsolete,
  RecoveryError,
  RecoveryContinuation,
  RecoveryDeps,
  RecoveryTicket,
} from './RuntimeRecovery.js';
export { bypassesProxy, proxyFor } from './ProxyRule.js';
export type { ProxyDecision, ProxyEnvironment } from './ProxyRule.js';
export { OFFICIAL_RELEASE_URLS, selectArtifact, checkReleaseUrl, installLocation, planManagedInstall } from './ManagedTool.js';
export type {
  Platform,
  ReleaseUrlRule,
  NoArtifactForPlatform,
  ReleaseUrlNotAllowed,
  ChecksumMismatch,
  DownloadFailed,
  ArchiveEntryMissing,
  ArchiveRefused,
  ArchiveRefusalReason,
  InstallFailed,
  SidecarNotFound,
  ToolError,
  ManagedInstallLocation,
} from './ManagedTool.js';
