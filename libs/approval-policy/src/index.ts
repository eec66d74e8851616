/**
 * `@wework/approval-policy`: the configuration half of Wework's approval behaviour for Codex.
 *
 * - The granular approval policy that keeps execution approvals off and forwards plugin forms,
 *   and the three runtime permission modes as thread/turn params (`permissionParamsForTask`
 *   reads a persisted task and fails closed to Read only).
 * - Claude Code's permission mode for non-interactive child processes.
 * - Approval cards for Codex's command, file-change and permission requests
 *   (`handleApprovalRequest`, `responseForApprovalCard`).
 * - MCP server tool approval: `approve` by default for Wework-managed servers, an explicit
 *   `prompt` always wins; the built-in servers' refresh as `config/batchWrite` edits.
 * - `initialize` capabilities without `openai/form` unless asked.
 *
 * Everything here is pure: no IO, no clock, no process.
 *
 * @packageDocumentation
 */
export {
  DEFAULT_PERMISSION_MODE,
  LEAST_PERMISSIVE_MODE,
  PERMISSION_MODES,
  PERMISSIVENESS,
  PermissionMode,
  applyPermissionMode,
  comparePermissiveness,
  decodePermissionMode,
  needsFullAccessConfirmation,
  permissionModeOf,
  permissionParams,
  type PermissionParams,
  type PermissionProfileId,
  type PermissionTarget,
  type UnknownPermissionMode,
  type WithPermissionMode,
} from './PermissionMode.js';
export { permissionParamsForTask, type PermissionCall, type TaskPermissionParams, type UnknownPermissionModeWarning } from './TaskPermissions.js';
export { ClaudePermissionMode, claudePermissionMode, type ClaudeContext, type UnknownClaudePermissionMode } from './ClaudePermissionMode.js';
export {
  APPROVAL_METHODS,
  DECISION_QUESTION_ID,
  PERMISSIONS_CHOICES,
  approvalCard,
  approvalQuestions,
  isApprovalMethod,
  type ApprovalCardError,
  type ApprovalMethod,
  type ApprovalRequestCard,
  type ApprovalSource,
  type CommandApprovalCard,
  type DecisionQuestion,
  type FileChangeApprovalCard,
  type PermissionsApprovalCard,
  type PermissionsChoice,
} from './ApprovalCards.js';
export { CONSERVATIVE_DECISIONS, formatCommandPrefix, type DecisionOption, type IgnoredDecision, type ProposedAmendments } from './ApprovalDecisions.js';
export {
  approvalAnswerMisfit,
  refusalFor,
  responseForApprovalCard,
  type ApprovalAnswer,
  type ApprovalAnswerNote,
  type ApprovalResponse,
  type ApprovalResponses,
} from './ApprovalAnswers.js';
export {
  handleApprovalRequest,
  type ApprovalRequestDecision,
  type NotAnApprovalRequest,
  type RespondToApproval,
  type ShowApprovalCard,
} from './ApprovalRequest.js';
export {
  MANAGED_TOOLS_APPROVAL_MODE,
  SERVER_APPROVAL_KEY,
  TOOL_APPROVAL_KEY,
  ToolsApprovalMode,
  WEGENT_APPS_SERVER,
  WEWORK_BROWSER_SERVER,
  approvalDeclarations,
  asksBeforeToolCalls,
  managedMcpServers,
  mergeMcpServerEntries,
  strongerApprovalMode,
  withManagedApproval,
  type ApprovalDeclarations,
  type McpConfigError,
  type McpServerEntry,
} from './McpServerApproval.js';
export { managedConfigFragment, refreshBuiltInServers, weworkFeatures, type BuiltInServer, type ConfigRefresh } from './ConfigRefresh.js';
export { OPENAI_FORM_EXTENSION, advertisesOpenaiForm, weworkInitializeCapabilities, type CapabilityOptions } from './InitializeCapabilities.js';
