/**
 * `@wework/local-auth`: device-side authorization of plugin connectors. The pure core — manifest,
 * status checks, sessions, install-time authorization, runtime recovery, managed tool planning — works
 * through ports; `@wework/local-auth/node` implements them for Node.
 */
export { decodeLocalAuthConnectors } from './LocalAuthManifest.js';
export { HealthCache, deviceHealth } from './HealthCheck.js';
export type { AuthTarget, DeviceHealth } from './HealthCheck.js';
export { startLoginSession, LoginSessions } from './LoginSession.js';
export type { LoginState, LoginSession } from './LoginSession.js';
export { installWithAuthorization } from './InstallAuthorization.js';
export type { AuthorizationRequest, AuthorizationUi, StartLogin } from './InstallAuthorization.js';
export { logoutOnUninstall } from './Uninstall.js';
export { detectAuthRequired } from './AuthRequiredDetection.js';
export { recoverConnectorAuth, RecoveryGate, recoverThroughGate } from './RuntimeRecovery.js';
export type { ConnectorIdentity, ConnectorNotFound, RecoveryError, RecoveryContinuation } from './RuntimeRecovery.js';
