import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import {
  applyPatch,
  callFunction,
  callTool,
  decodeScript,
  encodeScript,
  fail,
  formatScriptError,
  hang,
  parseScript,
  reasoning,
  respond,
  say,
  shell,
} from '../src/index.js';
import { describeIssue } from '@wework/decode-issues';
import { script } from './arbitraries.js';

/** The issues of a refused script, each as its path and its wording. */
function issues(json: unknown): ReadonlyArray<{ readonly path: string; readonly message: string }> {
  const result = decodeScript(json);
  if (E.isRight(result)) throw new Error(`expected a decode error for ${JSON.stringify(json)}`);
  return result.left.issues.map((issue) => ({ path: issue.path, message: describeIssue(issue) }));
}

describe('decodeScript', () => {
  it('decodes every step and response form', () => {
    const json = [
      { steps: [{ reasoning: 'Think' }, { say: 'Hello' }] },
      { steps: [{ callTool: { server: 'forms', tool: 'echo', arguments: { text: 'hi' } } }] },
      { steps: [{ callTool: { server: 'forms', tool: 'ping', callId: 'c1' } }] },
      { steps: [{ callFunction: { name: 'exec_command', arguments: { cmd: 'ls' }, namespace: 'ns' } }] },
      { steps: [{ shell: { cmd: 'touch x', sandboxPermissions: 'require_escalated', justification: 'needed' } }] },
      { steps: [{ applyPatch: { patch: '*** Begin Patch\n*** End Patch\n' } }] },
      { fail: { status: 503, message: 'down' } },
      { hang: true },
    ];
    expect(decodeScript(json)).toEqual(
      E.right([
        respond(reasoning('Think'), say('Hello')),
        respond(callTool('forms', 'echo', { text: 'hi' })),
        respond(callTool('forms', 'ping', {}, { callId: 'c1' })),
        respond(callFunction('exec_command', { cmd: 'ls' }, { namespace: 'ns' })),
        respond(shell('touch x', { sandboxPermissions: 'require_escalated', justification: 'needed' })),
        respond(applyPatch('*** Begin Patch\n*** End Patch\n')),
        fail(503, 'down'),
        hang(),
      ]),
    );
  });

  it('reports an unknown step kind with its path', () => {
    expect(issues([{ steps: [{ say: 'ok' }, { sya: 'hi' }] }])).toEqual([
      { path: 'script[0].steps[1]', message: 'unknown step "sya" (expected one of say, reasoning, callTool, callFunction, shell, applyPatch)' },
    ]);
  });

  it('reports unknown and missing keys inside a step', () => {
    expect(issues([{ steps: [{ callTool: { server: 'forms', tol: 'echo' } }] }])).toEqual([
      { path: 'script[0].steps[0].callTool.tol', message: 'unknown key "tol" (expected one of server, tool, arguments, callId)' },
      { path: 'script[0].steps[0].callTool.tool', message: 'missing required key "tool"' },
    ]);
  });

  it('reports wrong value types with the expected type', () => {
    expect(issues([{ steps: [{ say: 42 }] }])).toEqual([{ path: 'script[0].steps[0].say', message: 'expected string, got a number' }]);
    expect(issues([{ steps: [{ callTool: { server: 's', tool: 't', arguments: [1] } }] }])).toEqual([
      { path: 'script[0].steps[0].callTool.arguments', message: 'expected a JSON object, got an array (1 items)' },
    ]);
    expect(issues([{ steps: [{ shell: { cmd: 'ls', sandboxPermissions: 'always' } }] }])[0]?.path).toBe('script[0].steps[0].shell.sandboxPermissions');
  });

  it('rejects steps with more or fewer than one key, and malformed responses', () => {
    expect(issues([{ steps: [{ say: 'a', reasoning: 'b' }] }])[0]?.message).toMatch(/exactly one key/);
    expect(issues([{ steps: [{}] }])[0]?.message).toMatch(/got none/);
    expect(issues([{ steps: [], hang: true }])[0]?.message).toMatch(/a response has exactly one key/);
    expect(issues([{ hang: false }])).toEqual([{ path: 'script[0].hang', message: 'expected true, got a boolean' }]);
    expect(issues([{ fail: { status: 200, message: 'x' } }])).toEqual([
      { path: 'script[0].fail.status', message: 'expected an integer from 400 to 599, got a number' },
    ]);
    expect(issues({ steps: [] })[0]).toMatchObject({ path: 'script' });
  });

  it('round trips: decode(encode(script)) = script', () => {
    fc.assert(
      fc.property(script, (s) => {
        expect(decodeScript(JSON.parse(JSON.stringify(encodeScript(s))))).toEqual(E.right(s));
      }),
    );
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const result = decodeScript(json);
        if (E.isLeft(result)) expect(result.left.issues.length).toBeGreaterThan(0);
      }),
    );
  });

  it('never throws on arbitrary step-shaped JSON', () => {
    const stepish = fc.dictionary(fc.constantFrom('say', 'callTool', 'shell', 'applyPatch', 'x'), fc.jsonValue(), { maxKeys: 2 });
    fc.assert(fc.property(fc.array(fc.record({ steps: fc.array(stepish, { maxLength: 3 }) })), (json) => void decodeScript(json)));
  });
});

describe('parseScript', () => {
  it('parses JSON text', () => {
    expect(parseScript('[{"steps":[{"say":"hi"}]}]')).toEqual(E.right([respond(say('hi'))]));
  });

  it('reports invalid JSON as a syntax error, never throws', () => {
    const result = parseScript('[{"steps": [');
    expect(E.isLeft(result) && result.left._tag).toBe('ScriptJsonSyntaxError');
    fc.assert(fc.property(fc.string(), (text) => void parseScript(text)));
  });

  it('locates a syntax error by line and column without quoting the text', () => {
    const result = parseScript('[\n  {"steps": [{"say": "secret-value"}]},\n  {"steps": [}\n]');
    expect(result).toEqual(E.left({ _tag: 'ScriptJsonSyntaxError', line: 3, column: 14, expected: expect.any(String) }));
    expect(E.isLeft(result) && formatScriptError(result.left)).toMatch(/^script is not valid JSON: line 3, column 14: expected /);
    expect(E.isLeft(result) && formatScriptError(result.left)).not.toContain('secret');
  });
});

describe('formatScriptError', () => {
  it('renders one line per issue', () => {
    const result = decodeScript([{ steps: [{ sya: 'x' }] }, { hang: 1 }]);
    expect(E.isLeft(result) && formatScriptError(result.left)).toBe(
      'script[0].steps[0]: unknown step "sya" (expected one of say, reasoning, callTool, callFunction, shell, applyPatch)\n' +
        'script[1].hang: expected true, got a number',
    );
    expect(formatScriptError({ _tag: 'ScriptJsonSyntaxError', line: 2, column: 5, expected: "',' or ']'" })).toBe(
      "script is not valid JSON: line 2, column 5: expected ',' or ']'",
    );
  });
});
