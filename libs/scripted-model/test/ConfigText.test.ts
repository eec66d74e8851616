import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { configDocumentArbitrary } from '@wework/config-toml/testing';
import { scriptedModelCodexConfig, withScriptedModel } from '../src/index.js';

const bodyOf = (text: string): string => text.replace(/^\uFEFF/, '');
const linesOf = (text: string): string[] => bodyOf(text).split(/\r?\n/);
const isSubsequence = (small: ReadonlyArray<string>, big: ReadonlyArray<string>): boolean => {
  let j = 0;
  for (const line of big) if (line === small[j]) j += 1;
  return j === small.length;
};
const options = { baseUrl: 'http://127.0.0.1:4000/v1' };
const expected = scriptedModelCodexConfig(options);

describe('withScriptedModel', () => {
  it('writes the scripted model into an empty config', () => {
    const result = withScriptedModel('', options);
    expect(E.isRight(result) && parse(result.right)).toEqual(expected);
  });

  it('keeps the other keys, tables and comments as written, and replaces the provider table whole', () => {
    const text = [
      '# my settings',
      'model = "gpt-5" # pinned',
      'approval_policy = "on-request"',
      '',
      '[model_providers.scripted]',
      'base_url = "http://127.0.0.1:1/v1"',
      'env_key = "OLD_KEY" # from an earlier run',
      '',
      '[model_providers.azure]',
      'base_url = "https://example.invalid"',
      '',
      '[features]',
      'apps = true # keep me',
      '',
      '[mcp_servers.forms]',
      'command = "node"',
      'args = ["forms.js"]',
      '',
    ].join('\n');
    const result = withScriptedModel(text, { ...options, model: 'gpt-5.5' });
    if (E.isLeft(result)) throw new Error(result.left._tag);
    expect(parse(result.right)).toEqual({
      model: 'gpt-5.5',
      model_provider: 'scripted',
      approval_policy: 'on-request',
      model_providers: { scripted: expected.model_providers['scripted'], azure: { base_url: 'https://example.invalid' } },
      features: { apps: true, unbounded_connection_retries: false, plugins: false },
      mcp_servers: { forms: { command: 'node', args: ['forms.js'] } },
    });
    for (const line of ['# my settings', 'approval_policy = "on-request"', '[model_providers.azure]', 'apps = true # keep me', '[mcp_servers.forms]', 'args = ["forms.js"]']) {
      expect(result.right.split('\n')).toContain(line);
    }
    expect(result.right).toContain('model = "gpt-5.5" # pinned');
    expect(result.right).not.toContain('OLD_KEY');
    // Written again with the same settings, the text does not change.
    expect(withScriptedModel(result.right, { ...options, model: 'gpt-5.5' })).toEqual(result);
  });

  it('refuses a config that is not TOML, without quoting it', () => {
    const result = withScriptedModel('token = "secret-value\n', options);
    expect(E.isLeft(result) && result.left._tag).toBe('MalformedConfig');
    expect(JSON.stringify(result)).not.toContain('secret-value');
  });

  it('on any config document: the other values and every comment are kept, the scripted model is set', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, fc.constantFrom('scripted', 'mock'), ({ text, commentLines }, providerId) => {
        const result = withScriptedModel(text, { ...options, providerId });
        if (E.isLeft(result)) {
          // Only a layout the editor does not rewrite (one of these keys inside an inline value) is refused.
          expect(result.left._tag).toBe('UnsupportedLayout');
          return;
        }
        const before = parse(bodyOf(text)) as Record<string, unknown>;
        const after = parse(bodyOf(result.right)) as Record<string, unknown>;
        const config = scriptedModelCodexConfig({ ...options, providerId });
        const providersBefore = (before['model_providers'] ?? {}) as Record<string, unknown>;
        expect(after).toEqual({
          ...before,
          model_provider: providerId,
          model: config.model,
          model_providers: { ...providersBefore, [providerId]: config.model_providers[providerId] },
          features: { ...((before['features'] ?? {}) as object), ...config.features },
        });
        expect(isSubsequence(commentLines, linesOf(result.right))).toBe(true);
        expect(withScriptedModel(result.right, { ...options, providerId })).toEqual(result);
      }),
      { numRuns: 200 },
    );
  }, 60_000); // each run makes a dozen verified edits, each parsing the document again: seconds on a loaded machine
});
