import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public API', () => {
  it('pins the exported names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ClearCacheAnswer',
        'CustomStrategyAnswer',
        'DeploymentTargetAnswer',
        'FORMS_TOOLS',
        'ReleaseNoteAnswer',
        'StrategyAnswer',
        'checkPluginBuilt',
        'clearCacheForm',
        'createFormsServer',
        'customStrategyForm',
        'deploymentTargetForm',
        'formatFormsReport',
        'formsPluginCommand',
        'parseFormsReport',
        'pluginBinPath',
        'releaseNoteForm',
        'resolveCustomStrategy',
        'samplePluginCommand',
        'strategyForm',
      ].sort(),
    );
  });
});
