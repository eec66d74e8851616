import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as nodeApi from '../src/node/index.js';

describe('public API', () => {
  it('pins the names exported by the pure entry', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ModelResponseCodec',
        'REDACTED',
        'RESPONSES_PATH',
        'ResponsesRequestBody',
        'ScriptCodec',
        'StepCodec',
        'applyPatch',
        'argumentsJson',
        'assistantMessages',
        'callFunction',
        'callTool',
        'contentText',
        'decide',
        'decodeScript',
        'defaultCallId',
        'describeRejection',
        'encodeScript',
        'errorBody',
        'fail',
        'failFastFeatures',
        'formatScriptError',
        'formatSse',
        'formatSseEvent',
        'functionCallOutputs',
        'hang',
        'hangEvents',
        'historyCalls',
        'imagesAttached',
        'inputItems',
        'isCredentialHeader',
        'mcpNamespace',
        'modelProviderSettings',
        'outputItem',
        'parseScript',
        'reasoning',
        'rejectionReply',
        'rejectionStatus',
        'respond',
        'responseEvents',
        'responseId',
        'sanitizeHeaders',
        'say',
        'scriptedModelCodexConfig',
        'skillsAvailable',
        'shell',
        'textDeltas',
        'toolsOffered',
        'userMessages',
        'withScriptedModel',
      ].sort(),
    );
  });

  it('pins the names exported by the node entry', () => {
    expect(Object.keys(nodeApi).sort()).toEqual([
      'MAX_CONFIG_BYTES',
      'MAX_SCRIPT_FILE_BYTES',
      'formatCodexConfigError',
      'formatScriptFileError',
      'holdMachineLock',
      'readScriptFile',
      'startScriptedModel',
      'withMachineLock',
      'writeScriptedModelConfig',
    ]);
  });
});
