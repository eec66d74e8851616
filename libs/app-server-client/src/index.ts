/**
 * A typed JSON-RPC client for `codex app-server` over newline-delimited stdio, built on vscode-jsonrpc,
 * the framing of `@wework/jsonrpc` and the descriptors of `@wework/codex-protocol`. Spawning the real
 * process lives in `./node`.
 */
export { createAppServerClient, DEFAULT_CLIENT_INFO } from './AppServerClient.js';
export type { AppServerClient } from './AppServerClient.js';
export type {
  AppServerClientOptions,
  RequestOptions,
  ServerRequestContext,
  ServerRequestHandler,
} from './ClientContract.js';
export type { Disposable } from './internal/ListenerSet.js';
export { onClosed } from './onClosed.js';
export { ClientError, describeClientError, describeClientErrorCategory } from './ClientError.js';
export type { ClientEvent } from './ClientEvent.js';
export { trackMcpStartup, describeMcpStartupError } from './McpStartupTracker.js';
export type { McpStartupError, McpStartupTracker } from './McpStartupTracker.js';
export { trackActivity, isIdleActivity } from './ActivityTracker.js';
export type { ActivityTracker, ConnectionActivity } from './ActivityTracker.js';
export { DEFAULT_RESTART_POLICY } from './RestartPolicy.js';
export type { RestartPolicyConfig } from './RestartPolicy.js';
export { runTurn, isTurnEnded } from './runTurn.js';
export type { RunTurnOptions, RunTurnParams, TurnEnded, TurnOutcome } from './runTurn.js';
export { checkCodexVersion, describeCodexVersionCheck, SUPPORTED_CODEX_VERSIONS } from './CodexVersion.js';
export type { CodexVersionCheck } from './CodexVersion.js';
