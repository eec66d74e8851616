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
  applyPermissionMode,
  comparePermissiveness,
  decodePermissionMode,
  DEFAULT_PERMISSION_MODE,
  LEAST_PERMISSIVE_MODE,
  needsFullAccessConfirmation,
  PERMISSION_MODES,
  PermissionMode,
  permissionModeOf,
  permissionParams,
  PERMISSIVENESS,
  type PermissionParams,
} from './PermissionMode.js';
export { permissionParamsForTask, type PermissionCall, type UnknownPermissionModeWarning } from './TaskPermissions.js';
export { ClaudePermissionMode, claudePermissionMode } from './ClaudePermissionMode.js';
export { approvalCard, approvalQuestions, type ApprovalMethod, type ApprovalRequestCard } from './ApprovalCards.js';
export { approvalAnswerMisfit, responseForApprovalCard } from './ApprovalAnswers.js';
export { handleApprovalRequest } from './ApprovalRequest.js';
export {
  approvalDeclarations,
  asksBeforeToolCalls,
  managedMcpServers,
  mergeMcpServerEntries,
  strongerApprovalMode,
  ToolsApprovalMode,
  WEGENT_APPS_SERVER,
  WEWORK_BROWSER_SERVER,
  withManagedApproval,
  type McpConfigError,
} from './McpServerApproval.js';
export { managedConfigFragment, refreshBuiltInServers, weworkFeatures } from './ConfigRefresh.js';
export { advertisesOpenaiForm, weworkInitializeCapabilities } from './InitializeCapabilities.js';
