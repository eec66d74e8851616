import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInChecks, expectationChecks, isSubsequence, methodsReceivedByPlugin } from '../src/Expectations.js';
import type { TurnReport } from '../src/Report.js';

const turn = (status: string, messages: string[] = []): TurnReport => ({ input: 'x', turnId: 't', status, expectedStatus: 'completed', durationMs: 1, agentMessages: messages, items: [], error: null });

describe('checks', () => {
  it('isSubsequence holds for any subsequence and fails for a reordering', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 8 }), fc.func(fc.boolean()), (seen, keep) => {
        expect(isSubsequence(seen.filter((_, i) => keep(i)), seen)).toBe(true);
      }),
    );
    expect(isSubsequence(['b', 'a'], ['a', 'b'])).toBe(false);
  });

  it('reads the methods a plugin received from the proxy log', () => {
    const log = [
      { seq: 0, at: 'a', direction: 'client-to-server' as const, message: { jsonrpc: '2.0', id: 1, method: 'initialize' } },
      { seq: 1, at: 'a', direction: 'server-to-client' as const, message: { jsonrpc: '2.0', id: 1, result: {} } },
      { seq: 2, at: 'a', direction: 'client-to-server' as const, raw: 'garbage', error: 'bad' },
      { seq: 3, at: 'a', direction: 'client-to-server' as const, message: { jsonrpc: '2.0', id: 2, method: 'tools/call' } },
    ];
    expect(methodsReceivedByPlugin(log)).toEqual(['initialize', 'tools/call']);
  });

  it('fails a turn that ended otherwise than expected, and a card answered with a problem', () => {
    const checks = builtInChecks({
      turns: [turn('completed'), turn('failed')],
      cards: [{ atMs: 1, method: 'm', params: {}, response: {}, source: { _tag: 'Otherwise', policy: 'fail', unscripted: true }, problem: 'no scripted answer' }],
      modelRequests: [],
      plugins: {},
    });
    expect(checks.map((check) => check.passed)).toEqual([true, false, false]);
  });

  it('evaluates the expect block', () => {
    const checks = expectationChecks(
      { finalMessageContains: ['done'], serverRequests: ['a', 'b'], pluginReceived: { p: ['tools/call'] } },
      { turns: [turn('completed', ['all done'])], cards: [{ atMs: 1, method: 'b', params: {}, response: {}, source: { _tag: 'ByQuestionId' } }], modelRequests: [], plugins: {} },
    );
    expect(checks.map((check) => [check.name, check.passed])).toEqual([
      ['final message contains "done"', true],
      ['server requests a → b', false],
      ['plugin p received tools/call', false],
    ]);
  });
});
