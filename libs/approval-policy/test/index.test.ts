import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/approval-policy', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'APPROVAL_METHODS',
        'CONSERVATIVE_DECISIONS',
        'ClaudePermissionMode',
        'DECISION_QUESTION_ID',
        'DEFAULT_PERMISSION_MODE',
        'LEAST_PERMISSIVE_MODE',
        'PERMISSIONS_CHOICES',
        'PERMISSIVENESS',
        'approvalAnswerMisfit',
        'approvalCard',
        'approvalQuestions',
        'claudePermissionMode',
        'comparePermissiveness',
        'formatCommandPrefix',
        'handleApprovalRequest',
        'isApprovalMethod',
        'needsFullAccessConfirmation',
        'permissionParamsForTask',
        'refusalFor',
        'responseForApprovalCard',
        'MANAGED_TOOLS_APPROVAL_MODE',
        'OPENAI_FORM_EXTENSION',
        'PERMISSION_MODES',
        'PermissionMode',
        'SERVER_APPROVAL_KEY',
        'TOOL_APPROVAL_KEY',
        'ToolsApprovalMode',
        'WEGENT_APPS_SERVER',
        'WEWORK_BROWSER_SERVER',
        'advertisesOpenaiForm',
        'applyPermissionMode',
        'approvalDeclarations',
        'asksBeforeToolCalls',
        'decodePermissionMode',
        'managedConfigFragment',
        'managedMcpServers',
        'mergeMcpServerEntries',
        'permissionModeOf',
        'permissionParams',
        'refreshBuiltInServers',
        'strongerApprovalMode',
        'weworkFeatures',
        'weworkInitializeCapabilities',
        'withManagedApproval',
      ].sort(),
    );
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(
      [
        'approvalPolicyArbitrary',
        'approvalRequestArbitrary',
        'availableDecisionEntryArbitrary',
        'commandApprovalParamsArbitrary',
        'fileChangeApprovalParamsArbitrary',
        'permissionsApprovalParamsArbitrary',
        'persistedTaskArbitrary',
        'codexConfigArbitrary',
        'mcpServerEntryArbitrary',
        'mcpServersArbitrary',
        'permissionModeArbitrary',
        'toolsApprovalModeArbitrary',
      ].sort(),
    );
  });
});
