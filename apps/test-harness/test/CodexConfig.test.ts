import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepMerge, harnessCodexConfig, harnessThreadParams } from '../src/CodexConfig.js';

describe('harness config', () => {
  it('points Codex at the scripted model, fails fast, and approves plugin tools by default', () => {
    const config = harnessCodexConfig({
      modelUrl: 'http://127.0.0.1:1/v1',
      mcpServers: { forms: { command: 'node', args: ['p.js'], default_tools_approval_mode: 'approve' } },
    });
    expect(config).toMatchObject({
      model_provider: 'scripted',
      model: 'mock-model',
      model_providers: { scripted: { base_url: 'http://127.0.0.1:1/v1', wire_api: 'responses', request_max_retries: 0, stream_max_retries: 0 } },
      features: { plugins: false, unbounded_connection_retries: false, tool_call_mcp_elicitation: false },
      mcp_servers: { forms: { default_tools_approval_mode: 'approve' } },
    });
  });

  it('lets scenario overrides win, deeply', () => {
    const config = harnessCodexConfig({ modelUrl: 'u', mcpServers: {}, overrides: { features: { tool_call_mcp_elicitation: true } } });
    expect(config['features']).toEqual({ plugins: false, unbounded_connection_retries: false, tool_call_mcp_elicitation: true });
    expect(harnessThreadParams('/w', { approvalPolicy: 'never' })).toEqual({ cwd: '/w', approvalPolicy: 'never' });
    expect(harnessThreadParams('/w')).toMatchObject({ approvalPolicy: { granular: { mcp_elicitations: true, sandbox_approval: false } } });
  });

  it('deepMerge: every key of the override wins and base keys absent from it survive', () => {
    const record = fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(record, record, (base, override) => {
        const merged = deepMerge(base, override);
        for (const key of Object.keys(base)) if (!(key in override)) expect(merged[key]).toEqual(base[key]);
        for (const [key, value] of Object.entries(override)) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) expect(merged[key]).toEqual(value);
        }
      }),
    );
  });
});
