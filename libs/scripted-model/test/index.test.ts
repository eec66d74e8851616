import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as nodeApi from '../src/node/index.js';

describe('public API', () => {
  it('pins the names exported by the pure entry', () => {
    expect(Object.keys(api).sort()).toEqual([
      'applyPatch',
      'assistantMessages',
      'callFunction',
      'callTool',
      'contentText',
      'decodeScript',
      'encodeScript',
      'fail',
      'formatScriptError',
      'functionCallOutputs',
      'hang',
      'historyCalls',
      'imagesAttached',
      'inputItems',
      'modelProviderSettings',
      'parseScript',
      'reasoning',
      'respond',
      'say',
      'scriptedModelCodexConfig',
      'shell',
      'skillsAvailable',
      'toolsOffered',
      'userMessages',
      'withScriptedModel',
    ]);
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
