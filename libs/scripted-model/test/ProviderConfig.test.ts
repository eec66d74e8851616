import { describe, expect, it } from 'vitest';
import { modelProviderSettings, scriptedModelCodexConfig } from '../src/index.js';
import { failFastFeatures } from '../src/ProviderConfig.js';

describe('provider config', () => {
  it('renders fail-fast provider settings', () => {
    expect(modelProviderSettings({ baseUrl: 'http://127.0.0.1:1234/v1' })).toEqual({
      name: 'Scripted model',
      base_url: 'http://127.0.0.1:1234/v1',
      wire_api: 'responses',
      request_max_retries: 0,
      stream_max_retries: 0,
    });
    expect(modelProviderSettings({ baseUrl: 'http://h/v1', name: 'Mock' }).name).toBe('Mock');
  });

  it('renders the top-level config with the fail-fast features', () => {
    expect(scriptedModelCodexConfig({ baseUrl: 'http://127.0.0.1:1/v1', providerId: 'mock', model: 'gpt-5.5' })).toEqual({
      model_provider: 'mock',
      model: 'gpt-5.5',
      model_providers: { mock: modelProviderSettings({ baseUrl: 'http://127.0.0.1:1/v1' }) },
      features: { unbounded_connection_retries: false, plugins: false },
    });
    expect(scriptedModelCodexConfig({ baseUrl: 'u' })).toMatchObject({ model_provider: 'scripted', model: 'mock-model' });
    expect(failFastFeatures).toEqual({ unbounded_connection_retries: false, plugins: false });
  });
});
