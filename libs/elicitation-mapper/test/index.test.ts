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
      'ElicitationAction',
      'FINDING_ORDER',
      'FormEvidence',
      'FormsEvidence',
      'ServerApprovalEvidence',
      'ToolCallEvidence',
      'answerRefusal',
      'answersToContent',
      'cancelResult',
      'checkAllowed',
      'checkCustomOption',
      'checkElicitationUrl',
      'checkRange',
      'checkRequired',
      'checkedResponseForCard',
      'completesUrlCard',
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
      'hostUrlOf',
      'isGranularPolicy',
      'nextCardShow',
      'requestForm',
      'resolveCustomOption',
      'responseForCard',
      'toMcpElicitResult',
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
      'offeredUrlArbitrary',
      'plainFormRequestArbitrary',
      'propertyKeyArbitrary',
      'refusedUrlArbitrary',
      'supportedPropertyArbitrary',
      'supportedSchemaArbitrary',
      'toolCallEvidenceArbitrary',
      'unsupportedSchemaArbitrary',
      'usableAnswersForCard',
    ]);
  });
});
