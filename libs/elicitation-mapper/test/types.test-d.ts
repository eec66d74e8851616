/**
 * Type tests: what the mapper produces fits the protocol types it stands for, so an executor can
 * send it without conversion.
 */
import type { McpServerElicitationRequestResponse, ToolRequestUserInputQuestion, ToolRequestUserInputResponse } from '@wework/codex-protocol';
import { describe, expectTypeOf, test } from 'vitest';
import type { CardQuestion } from '../src/Card.js';
import type { ElicitResult, FormsEvidence, HostReply } from '../src/index.js';
import type { FormContent, McpElicitResult } from '../src/ElicitResult.js';
import { defaultAnswers, type Card } from '../src/index.js';
import { userInputQuestions } from '../src/Card.js';

describe('protocol fit', () => {
  test('an ElicitResult is a response of mcpServer/elicitation/request', () => {
    expectTypeOf<ElicitResult>().toExtend<McpServerElicitationRequestResponse>();
  });

  test('every card question is a ToolRequestUserInputQuestion (read-only)', () => {
    expectTypeOf<CardQuestion>().toExtend<Readonly<Omit<ToolRequestUserInputQuestion, 'options'>>>();
    expectTypeOf<CardQuestion['options']>().toExtend<ReadonlyArray<{ label: string; description: string }> | null>();
    expectTypeOf(userInputQuestions).returns.toEqualTypeOf<Array<ToolRequestUserInputQuestion>>();
  });

  test('host replies take the protocol’s answers; defaults are such answers', () => {
    expectTypeOf<ToolRequestUserInputResponse>().toExtend<HostReply>();
    expectTypeOf(defaultAnswers).parameter(0).toEqualTypeOf<Card>();
    expectTypeOf(defaultAnswers).returns.toEqualTypeOf<ToolRequestUserInputResponse>();
  });

  test('the MCP SDK form of a result has content of form values', () => {
    expectTypeOf<NonNullable<McpElicitResult['content']>>().toEqualTypeOf<FormContent>();
    expectTypeOf<FormContent[string]>().toEqualTypeOf<string | number | boolean | Array<string>>();
  });
});

describe('forms evidence', () => {
  test('evidence fields are readonly', () => {
    expectTypeOf<FormsEvidence['forms']>().toExtend<ReadonlyArray<unknown>>();
  });
});
