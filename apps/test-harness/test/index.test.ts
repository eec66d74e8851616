import { describe, expect, it } from 'vitest';
import * as harness from '../src/index.js';

describe('public API of @wework/test-harness', () => {
  it('pins the runtime exports', () => {
    expect(Object.keys(harness).sort()).toEqual(
      [
        'AnswerSpec',
        'ExpectSpec',
        'PluginSpec',
        'ScenarioCodec',
        'ToolsApproval',
        'TurnSpec',
        'UserSpec',
        'answerCard',
        'builtInChecks',
        'decodeProxyLog',
        'decodeReportInput',
        'decodeScenario',
        'deepMerge',
        'evidenceFromReport',
        'expectationChecks',
        'formatDiagnosis',
        'formatScenarioError',
        'formatSummary',
        'harnessCodexConfig',
        'harnessThreadParams',
        'isSubsequence',
        'methodsReceivedByPlugin',
        'parseScenario',
        'proxiedCommand',
        'proxyMainPath',
        'questionIds',
        'runDiagnoseCommand',
        'runScenario',
      ].sort(),
    );
  });
});
