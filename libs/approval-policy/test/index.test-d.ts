/**
 * Type tests of the public types.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type { AskForApproval, InitializeCapabilities, ThreadForkParams, ThreadResumeParams, ThreadStartParams, TurnStartParams } from '@wework/codex-protocol';
import { applyPermissionMode, permissionParams, weworkGranularApprovalPolicy, weworkInitializeCapabilities, type FormsEvidence, type PermissionMode } from '../src/index.js';

describe('public types', () => {
  test('the policy and the params use the generated protocol types', () => {
    expectTypeOf(weworkGranularApprovalPolicy).toExtend<AskForApproval>();
    expectTypeOf(permissionParams('workspace').approvalPolicy).toEqualTypeOf<AskForApproval>();
    expectTypeOf<PermissionMode>().toEqualTypeOf<'read-only' | 'workspace' | 'full-access'>();
    expectTypeOf(weworkInitializeCapabilities()).toEqualTypeOf<InitializeCapabilities>();
  });

  test('applyPermissionMode keeps each request type', () => {
    expectTypeOf(applyPermissionMode({ cwd: '/repo' } as ThreadStartParams, 'read-only')).toExtend<ThreadStartParams>();
    expectTypeOf(applyPermissionMode({ threadId: 't' } as ThreadResumeParams, 'read-only')).toExtend<ThreadResumeParams>();
    expectTypeOf(applyPermissionMode({ threadId: 't' } as ThreadForkParams, 'read-only')).toExtend<ThreadForkParams>();
    expectTypeOf(applyPermissionMode({ threadId: 't', input: [] } as TurnStartParams, 'read-only')).toExtend<TurnStartParams>();
  });

  test('evidence fields are readonly', () => {
    expectTypeOf<FormsEvidence['forms']>().toExtend<ReadonlyArray<unknown>>();
  });
});
