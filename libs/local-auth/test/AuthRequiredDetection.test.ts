import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectAuthRequired } from '../src/index.js';
import { DETECTION_LIMITS, detectionInput } from '../src/AuthRequiredDetection.js';
import { authRequiredMessageArbitrary } from '../src/testing.js';

const card = (pluginKey: string, connectorSlug: string, extra: Record<string, unknown> = {}) => ({ _tag: 'ConnectorAuthRequired', pluginKey, connectorSlug, ...extra });
const none = (reason: string) => ({ _tag: 'NotAuthRequired', reason });

describe('detectAuthRequired: corpus', () => {
  const corpus: Array<[string, unknown, unknown]> = [
    [
      'auth required in text',
      { role: 'assistant', content: 'I could not list your issues.\nconnector_auth_required pluginKey=gitlab@wegent connectorSlug=glab' },
      card('gitlab@wegent', 'glab', { toolName: undefined, source: 'text' }),
    ],
    [
      'auth required in prose, identity followed by punctuation',
      { role: 'assistant', content: 'Login needed (connector_auth_required): pluginKey: dingtalk@wegent, connectorSlug: dws.' },
      card('dingtalk@wegent', 'dws', { toolName: undefined, source: 'text' }),
    ],
    [
      'auth required as JSON text in a tool output',
      { role: 'assistant', content: 'Stopped.', blocks: [{ type: 'tool', name: 'gitlab.mr_list', output: '{"error":"connector_auth_required","pluginKey":"gitlab@wegent","connectorSlug":"glab"}' }] },
      card('gitlab@wegent', 'glab', { toolName: undefined, source: 'text' }),
    ],
    [
      'auth required in a structured tool error',
      { role: 'assistant', content: 'The DingTalk login expired.', blocks: [{ type: 'tool', name: 'dingtalk.send', error: { code: 'connector_auth_required', message: 'Login expired', pluginKey: 'dingtalk@wegent', connectorSlug: 'dws' } }] },
      card('dingtalk@wegent', 'dws', { toolName: 'dingtalk.send', source: 'structured' }),
    ],
    [
      'auth required in structured MCP tool content',
      { role: 'system', blocks: [{ type: 'tool', name: 'dingtalk.send', result: { isError: true, content: [{ type: 'text', text: 'Please log in' }], structuredContent: { error: { data: { kind: 'connector_auth_required', plugin_key: 'dingtalk@wegent', connector_slug: 'dws' } } } } }] },
      card('dingtalk@wegent', 'dws', { toolName: 'dingtalk.send', source: 'structured' }),
    ],
    ['a network failure', { role: 'assistant', error: { message: 'fetch failed', code: 'ECONNREFUSED' }, content: 'The request to gitlab.com failed.' }, none('network_failure')],
    ['a network failure in a tool block', { role: 'assistant', blocks: [{ type: 'tool', name: 'glab', error: 'getaddrinfo ENOTFOUND gitlab.example.com' }] }, none('network_failure')],
    ['a business permission error', { role: 'assistant', blocks: [{ type: 'tool', name: 'gitlab.merge', result: { isError: true, content: [{ type: 'text', text: '403 Forbidden: you do not have permission to merge' }] } }] }, none('permission_denied')],
    ['a native remote MCP authorization request', { role: 'assistant', content: 'The MCP server "linear" requires OAuth authorization. Run `codex mcp login linear`.' }, none('remote_mcp_auth')],
    ['auth required without identity', { role: 'assistant', content: 'connector_auth_required' }, none('missing_identity')],
    ['auth required with a plugin key only', { role: 'assistant', blocks: [{ type: 'tool', error: { code: 'connector_auth_required', pluginKey: 'gitlab@wegent' } }] }, none('missing_identity')],
    [
      'two different identities',
      { role: 'assistant', blocks: [{ type: 'tool', error: { code: 'connector_auth_required', pluginKey: 'a@x', connectorSlug: 'one' } }, { type: 'tool', error: { code: 'connector_auth_required', pluginKey: 'b@x', connectorSlug: 'two' } }] },
      none('ambiguous_identity'),
    ],
    ['a marker only in renderPayload', { role: 'assistant', content: 'Here is the form.', blocks: [{ type: 'tool', name: 'x', renderPayload: { code: 'connector_auth_required', pluginKey: 'a@x', connectorSlug: 's' } }] }, none('no_signal')],
    ['a user message', { role: 'user', content: 'connector_auth_required pluginKey=a@x connectorSlug=s' }, none('not_final_message')],
    ['an ordinary answer', { role: 'assistant', content: 'Done: 3 issues found.' }, none('no_signal')],
  ];
  it.each(corpus)('%s', (_name, message, expected) => {
    expect(detectAuthRequired(message)).toEqual(expected);
  });

  it('a huge message is read only up to the bound', () => {
    const filler = 'x'.repeat(5 * 1024 * 1024);
    const early = { role: 'assistant', content: `connector_auth_required pluginKey=gitlab@wegent connectorSlug=glab\n${filler}` };
    const late = { role: 'assistant', content: `${filler}\nconnector_auth_required pluginKey=gitlab@wegent connectorSlug=glab` };
    expect(detectAuthRequired(early)).toMatchObject({ _tag: 'ConnectorAuthRequired', pluginKey: 'gitlab@wegent' });
    expect(detectAuthRequired(late)).toEqual(none('no_signal'));
    const input = detectionInput(late);
    expect(input.truncated).toBe(true);
    expect(input.text.length).toBeLessThanOrEqual(DETECTION_LIMITS.maxTextLength);
  });

  it('a message with very many or deeply nested blocks stays within the node bound', () => {
    let nested: unknown = { code: 'x' };
    for (let depth = 0; depth < 10_000; depth++) nested = { cause: nested };
    const blocks = Array.from({ length: 100_000 }, (_, index) => ({ type: 'tool', name: `t${index}`, error: nested }));
    const input = detectionInput({ role: 'assistant', blocks });
    expect(input.nodesVisited).toBeLessThanOrEqual(DETECTION_LIMITS.maxNodes);
    expect(detectAuthRequired({ role: 'assistant', blocks })).toEqual(none('no_signal'));
  });
});

describe('detectAuthRequired: properties', () => {
  it('never throws on arbitrary JSON and keeps its work within the bounds', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom('assistant', 'system', 'user'), (value, role) => {
        const message = { role, content: value, error: value, blocks: [value, { type: 'tool', error: value, result: value }] };
        const detection = detectAuthRequired(message);
        expect(['ConnectorAuthRequired', 'NotAuthRequired']).toContain(detection._tag);
        const input = detectionInput(message);
        expect(input.text.length).toBeLessThanOrEqual(DETECTION_LIMITS.maxTextLength);
        expect(input.nodesVisited).toBeLessThanOrEqual(DETECTION_LIMITS.maxNodes);
      }),
    );
    fc.assert(fc.property(fc.jsonValue(), (value) => void detectAuthRequired(value)));
  });

  it('finds the exact identity in every generated auth-required message', () => {
    const identity = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}@[a-z]{1,8}$/), fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/));
    fc.assert(
      fc.property(identity.chain(([pluginKey, slug]) => authRequiredMessageArbitrary(pluginKey, slug).map((message) => [pluginKey, slug, message] as const)), ([pluginKey, slug, message]) => {
        expect(detectAuthRequired(message)).toMatchObject({ _tag: 'ConnectorAuthRequired', pluginKey, connectorSlug: slug });
      }),
    );
  });
});
