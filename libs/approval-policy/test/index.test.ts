import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/approval-policy', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ApprovalCard',
        'DEFAULT_PERMISSION_MODE',
        'ElicitationAction',
        'FINDING_ORDER',
        'FormEvidence',
        'FormsEvidence',
        'MANAGED_TOOLS_APPROVAL_MODE',
        'McpErrorEvidence',
        'OPENAI_FORM_EXTENSION',
        'PERMISSION_MODES',
        'PermissionMode',
        'SERVER_APPROVAL_KEY',
        'ServerApprovalEvidence',
        'TOOL_APPROVAL_KEY',
        'ToolCallEvidence',
        'ToolsApprovalMode',
        'WEGENT_APPS_SERVER',
        'WEWORK_BROWSER_SERVER',
        'advertisesOpenaiForm',
        'applyConfigEdits',
        'applyPermissionMode',
        'approvalDeclarations',
        'asksBeforeToolCalls',
        'configEdits',
        'decodeFormsEvidence',
        'decodePermissionMode',
        'describeApprovalPolicy',
        'diagnoseForms',
        'emptyFormsEvidence',
        'formatFinding',
        'formatKeyPath',
        'forwardsElicitations',
        'isGranularPolicy',
        'managedConfigFragment',
        'managedMcpServers',
        'mergeMcpServerEntries',
        'parseKeyPath',
        'permissionModeOf',
        'permissionParams',
        'refreshBuiltInServers',
        'strongerApprovalMode',
        'weworkFeatures',
        'weworkGranularApprovalPolicy',
        'weworkInitializeCapabilities',
        'withManagedApproval',
      ].sort(),
    );
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(
      [
        'approvalPolicyArbitrary',
        'codexConfigArbitrary',
        'formEvidenceArbitrary',
        'formsEvidenceArbitrary',
        'mcpServerEntryArbitrary',
        'mcpServersArbitrary',
        'permissionModeArbitrary',
        'toolCallEvidenceArbitrary',
        'toolsApprovalModeArbitrary',
      ].sort(),
    );
  });
});
