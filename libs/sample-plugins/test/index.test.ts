import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public API', () => {
  it('pins the exported names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'CONNECT_ACCOUNT_URL',
        'ClearCacheAnswer',
        'CustomStrategyAnswer',
        'DeploymentTargetAnswer',
        'FORMS_TOOLS',
        'NumericChoiceAnswer',
        'ReleaseConfigurationAnswer',
        'ReleaseNoteAnswer',
        'RolloutRegionsAnswer',
        'ScaleServiceAnswer',
        'StrategyAnswer',
        'authRequiredResult',
        'checkPluginBuilt',
        'createConnectorServer',
        'clearCacheForm',
        'connectAccountRequest',
        'createFormsServer',
        'customStrategyForm',
        'deploymentTargetForm',
        'describeContentTypes',
        'formWithoutProperties',
        'formatFormsReport',
        'formsPluginCommand',
        'numericChoicesForm',
        'parseFormsReport',
        'pluginBinPath',
        'releaseConfigurationForm',
        'releaseNoteForm',
        'resolveCustomStrategy',
        'rolloutRegionsForm',
        'samplePluginCommand',
        'scaleServiceForm',
        'strategyForm',
      ].sort(),
    );
  });
});
