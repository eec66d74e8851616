/**
 * Type tests of the public types.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type {
  AskForApprovalStrict,
  CommandExecutionRequestApprovalResponse,
  FileChangeRequestApprovalResponse,
  InitializeCapabilities,
  PermissionsRequestApprovalResponse,
  ThreadForkParams,
  ThreadResumeParams,
  ThreadStartParams,
  ToolRequestUserInputQuestion,
  TurnStartParams,
} from '@wework/codex-protocol';
import { weworkGranularApprovalPolicy } from '@wework/elicitation-mapper';
import {
  applyPermissionMode,
  handleApprovalRequest,
  permissionParams,
  permissionParamsForTask,
  responseForApprovalCard,
  weworkInitializeCapabilities,
  type PermissionMode,
} from '../src/index.js';
import {
  type CommandApprovalCard,
  type DecisionQuestion,
  type FileChangeApprovalCard,
  type PermissionsApprovalCard,
} from '../src/ApprovalCards.js';
import type { ApprovalRequestDecision, RespondToApproval, ShowApprovalCard } from '../src/ApprovalRequest.js';

describe('public types', () => {
  test('the policy and the params use the generated protocol types', () => {
    expectTypeOf(weworkGranularApprovalPolicy).toExtend<AskForApprovalStrict>();
    expectTypeOf(permissionParams('workspace').approvalPolicy).toEqualTypeOf<AskForApprovalStrict>();
    expectTypeOf<PermissionMode>().toEqualTypeOf<'read-only' | 'workspace' | 'full-access'>();
    expectTypeOf(weworkInitializeCapabilities()).toEqualTypeOf<InitializeCapabilities>();
  });

  test('applyPermissionMode keeps each request type', () => {
    expectTypeOf(applyPermissionMode({ cwd: '/repo' } as ThreadStartParams, 'read-only')).toExtend<ThreadStartParams>();
    expectTypeOf(applyPermissionMode({ threadId: 't' } as ThreadResumeParams, 'read-only')).toExtend<ThreadResumeParams>();
    expectTypeOf(applyPermissionMode({ threadId: 't' } as ThreadForkParams, 'read-only')).toExtend<ThreadForkParams>();
    expectTypeOf(applyPermissionMode({ threadId: 't', input: [] } as TurnStartParams, 'read-only')).toExtend<TurnStartParams>();
  });
});

describe('approval card types', () => {
  test('responses are typed by the card method', () => {
    expectTypeOf(responseForApprovalCard({} as CommandApprovalCard, { action: 'cancel' }).response).toEqualTypeOf<CommandExecutionRequestApprovalResponse>();
    expectTypeOf(responseForApprovalCard({} as FileChangeApprovalCard, { action: 'cancel' }).response).toEqualTypeOf<FileChangeRequestApprovalResponse>();
    expectTypeOf(responseForApprovalCard({} as PermissionsApprovalCard, { action: 'cancel' }).response).toEqualTypeOf<PermissionsRequestApprovalResponse>();
    expectTypeOf<Extract<RespondToApproval, { method: 'item/permissions/requestApproval' }>['response']>().toEqualTypeOf<PermissionsRequestApprovalResponse>();
  });

  test('card questions have the protocol question shape', () => {
    expectTypeOf<DecisionQuestion>().toExtend<Readonly<Omit<ToolRequestUserInputQuestion, 'options'>>>();
    expectTypeOf(permissionParamsForTask({}, 'turn/start').params.approvalPolicy).toEqualTypeOf<AskForApprovalStrict>();
  });
});

describe('handleApprovalRequest', () => {
  test('an approval method never gives NotAnApprovalRequest', () => {
    expectTypeOf(handleApprovalRequest('item/fileChange/requestApproval', {})).toEqualTypeOf<ShowApprovalCard | RespondToApproval>();
    expectTypeOf(handleApprovalRequest('x' as string, {})).toEqualTypeOf<ApprovalRequestDecision>();
  });
});
