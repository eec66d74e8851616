import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/approval-policy', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ClaudePermissionMode',
      'DEFAULT_PERMISSION_MODE',
      'LEAST_PERMISSIVE_MODE',
      'PERMISSION_MODES',
      'PERMISSIVENESS',
      'PermissionMode',
      'ToolsApprovalMode',
      'WEGENT_APPS_SERVER',
      'WEWORK_BROWSER_SERVER',
      'advertisesOpenaiForm',
      'applyPermissionMode',
      'approvalAnswerMisfit',
      'approvalCard',
      'approvalDeclarations',
      'approvalQuestions',
      'asksBeforeToolCalls',
      'claudePermissionMode',
      'comparePermissiveness',
      'decodePermissionMode',
      'handleApprovalRequest',
      'managedConfigFragment',
      'managedMcpServers',
      'mergeMcpServerEntries',
      'needsFullAccessConfirmation',
      'permissionModeOf',
      'permissionParams',
      'permissionParamsForTask',
      'refreshBuiltInServers',
      'responseForApprovalCard',
      'strongerApprovalMode',
      'weworkFeatures',
      'weworkInitializeCapabilities',
      'withManagedApproval',
    ]);
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
