/**
 * A typed JSON-RPC client for `codex app-server` over newline-delimited stdio, built on vscode-jsonrpc,
 * the framing of `@wework/jsonrpc` and the descriptors of `@wework/codex-protocol`. Spawning the real
 * process lives in `./node`.
 */
export { createAppServerClient, DEFAULT_CLIENT_INFO, DEFAULT_CAPABILITIES, DEFAULT_REQUEST_TIMEOUT_MS } from './AppServerClient.js';
export type { AppServerClient, ClientInfo, InitializeCapabilities, InitializeOptions, InitializeResult } from './AppServerClient.js';
export type {
  AppServerClientOptions,
  MessageDirection,
  NotificationStreamOptions,
  RawNotification,
  ReplyError,
  RequestErrorOf,
  RequestOptions,
  ServerRequestContext,
  ServerRequestHandler,
} from './ClientContract.js';
export type { Disposable } from './internal/ListenerSet.js';
export { ClientError, describeClientError, describeClientErrorCategory } from './ClientError.js';
export type {
  ConnectionClosed,
  DecodeFailed,
  Disposed,
  EncodeFailed,
  Overloaded,
  ProcessExited,
  RequestAborted,
  RequestFailed,
  RequestTimedOut,
  TerminalError,
  TransportError,
} from './ClientError.js';
export type {
  ClientEvent,
  InvalidNotification,
  ListenerFailed,
  NotificationsDropped,
  ProtocolWarning,
  RequestAbandoned,
  ServerRequestRejected,
  ServerRequestRejection,
  UnknownProtocolValues,
} from './ClientEvent.js';
export { trackMcpStartup, describeMcpStartupError } from './McpStartupTracker.js';
export type { McpServerStartup, McpStartupError, McpStartupTracker } from './McpStartupTracker.js';
export { trackActivity, isIdleActivity } from './ActivityTracker.js';
export type { ActivityTracker, ConnectionActivity } from './ActivityTracker.js';
export { DEFAULT_RESTART_POLICY, backoffDelay, initialSupervisorState, stepSupervisor } from './RestartPolicy.js';
export type { CrashReason, RestartPolicyConfig, SupervisorCommand, SupervisorEvent, SupervisorState, SupervisorStep } from './RestartPolicy.js';
export { redactSecrets, shownTail, REDACTED_MARK, DEFAULT_SHOWN_TAIL_CHARS } from './SecretRedaction.js';
export { runTurn, isTurnEnded, DEFAULT_TURN_TIMEOUT_MS } from './runTurn.js';
export type {
  RunTurnOptions,
  RunTurnParams,
  TurnAborted,
  TurnClientClosed,
  TurnCompletedOutcome,
  TurnEnded,
  TurnFailedOutcome,
  TurnInterruptedOutcome,
  TurnOutcome,
  TurnStartFailed,
  TurnTimedOut,
} from './runTurn.js';
export { checkCodexVersion, codexVersionOf, compareCodexVersions, describeCodexVersionCheck, SUPPORTED_CODEX_VERSIONS } from './CodexVersion.js';
export type { CodexVersionCheck, CodexVersionRange } from './CodexVersion.js';
