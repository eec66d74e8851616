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
        'defaultServePath',
        'evidenceFromReport',
        'expectationChecks',
        'firstOptionPolicy',
        'formatDiagnosis',
        'formatScenarioError',
        'formatSummary',
        'harnessCodexConfig',
        'harnessThreadParams',
        'isSubsequence',
        'methodsReceivedByPlugin',
        'openExecutorWebSocket',
        'parseScenario',
        'proxiedCommand',
        'proxyMainPath',
        'questionIds',
        'runDiagnoseCommand',
        'runScenario',
        'startExecutorHost',
      ].sort(),
    );
  });
});
