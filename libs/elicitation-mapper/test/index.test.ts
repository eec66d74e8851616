/**
 * Pins the runtime exports of the library's entry points: a change to the public API shows up
 * here as a diff.
 */
import { describe, expect, test } from 'vitest';
import * as index from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API', () => {
  test('index.ts', () => {
    expect(Object.keys(index).sort()).toEqual([
      'MCP_TOOL_CALL_APPROVAL_KIND',
      'TOOL_APPROVAL_QUESTION_ID',
      'acceptResult',
      'answerRefusal',
      'answersToContent',
      'answersToResult',
      'approvalAnswerToResult',
      'approvalChoiceLabels',
      'approvalChoiceOf',
      'approvalResult',
      'cancelResult',
      'checkAllowed',
      'checkCustomOption',
      'checkRange',
      'checkRequired',
      'checkedResponseForCard',
      'declineResult',
      'decodeElicitationRequest',
      'defaultAnswers',
      'elicitationToCard',
      'formRulesFromSchema',
      'handleElicitationRequest',
      'noUsableAnswerResult',
      'requestForm',
      'resolveCustomOption',
      'responseForCard',
      'schemaToQuestions',
      'supportsFormElicitation',
      'toMcpElicitResult',
      'toolApprovalCard',
      'unsupportedResult',
      'userInputAnswerRefusal',
      'userInputQuestions',
      'validateForm',
    ]);
  });

  test('testing.ts', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'answersForCard',
      'codexElicitationRequestParamsArbitrary',
      'codexToolApprovalParamsArbitrary',
      'plainFormRequestArbitrary',
      'propertyKeyArbitrary',
      'supportedPropertyArbitrary',
      'supportedSchemaArbitrary',
      'unsupportedSchemaArbitrary',
      'usableAnswersForCard',
    ]);
  });
});
