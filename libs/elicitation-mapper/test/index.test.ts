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
      'ApprovalCard',
      'CARD_SHOWS',
      'ElicitationAction',
      'FINDING_ORDER',
      'FormEvidence',
      'FormsEvidence',
      'MCP_TOOL_CALL_APPROVAL_KIND',
      'McpErrorEvidence',
      'ServerApprovalEvidence',
      'TOOL_APPROVAL_QUESTION_ID',
      'ToolCallEvidence',
      'acceptResult',
      'answerRefusal',
      'answersToContent',
      'answersToResult',
      'approvalAnswerToResult',
      'approvalChoiceLabels',
      'approvalChoiceOf',
      'approvalResult',
      'cancelResult',
      'cardForRequest',
      'checkAllowed',
      'checkCustomOption',
      'checkRange',
      'checkRequired',
      'checkedResponseForCard',
      'codexElicitationRequest',
      'declineResult',
      'decodeElicitationRequest',
      'decodeFormsEvidence',
      'defaultAnswers',
      'describeApprovalPolicy',
      'diagnoseForms',
      'elicitationToCard',
      'emptyFormsEvidence',
      'evidenceIssues',
      'formRulesFromSchema',
      'formatFinding',
      'forwardsElicitations',
      'handleCodexElicitationRequest',
      'handleElicitationRequest',
      'hostCardKindOf',
      'hostQuestionsOf',
      'isGranularPolicy',
      'nextCardShow',
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
      'weworkGranularApprovalPolicy',
    ]);
  });

  test('testing.ts', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'answersForCard',
      'codexElicitationRequestParamsArbitrary',
      'codexToolApprovalParamsArbitrary',
      'formEvidenceArbitrary',
      'formsEvidenceArbitrary',
      'plainFormRequestArbitrary',
      'propertyKeyArbitrary',
      'supportedPropertyArbitrary',
      'supportedSchemaArbitrary',
      'toolCallEvidenceArbitrary',
      'unsupportedSchemaArbitrary',
      'usableAnswersForCard',
    ]);
  });
});
