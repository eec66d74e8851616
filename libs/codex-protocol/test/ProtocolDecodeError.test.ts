import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describe, expect, test } from 'vitest';
import * as C from '../src/codecs/codecs.js';
import { describeErrors, formatDecodeIssues } from '@wework/decode-issues';
import { invalidParams, invalidResult, unknownMethod } from '../src/ProtocolDecodeError.js';
import { arbitraryOf } from '../src/testing.js';
import { corrupted } from './lawsSupport.js';

const errorsOf = (codec: t.Mixed, input: unknown): t.Errors => {
  const result = codec.decode(input);
  if (E.isRight(result)) throw new Error('expected a decode failure');
  return result.left;
};

const validQuestion = { id: 'q', header: 'H', question: 'Q?', isOther: false, isSecret: false, options: null };
const validUserInput = { threadId: 't', turnId: 'u', itemId: 'i', questions: [validQuestion], isBlocking: true, autoResolutionMs: null };

describe('describeErrors', () => {
  test('names a missing required property by its path', () => {
    const { questions: _questions, ...withoutQuestions } = validUserInput;
    expect(describeErrors(errorsOf(C.ToolRequestUserInputParams, withoutQuestions), 'params')).toEqual([
      { path: 'params.questions', expected: 'Array<ToolRequestUserInputQuestion>', actual: 'nothing (missing)' },
    ]);
  });

  test('follows arrays with indices and skips union members', () => {
    const input = { ...validUserInput, questions: [validQuestion, { ...validQuestion, isSecret: 'no' }] };
    expect(describeErrors(errorsOf(C.ToolRequestUserInputParams, input), 'params')).toEqual([
      { path: 'params.questions[1].isSecret', expected: 'boolean', actual: 'a string (2 characters)' },
    ]);
  });

  test('names the union a value failed, once, and never quotes the string, not even where an enumeration was expected', () => {
    const input = { threadId: 't', turnId: 'u', itemId: 'i', decision: 'maybe' };
    expect(describeErrors(errorsOf(C.FileChangeRequestApprovalResponse, input), 'result')).toEqual([
      { path: 'result.decision', expected: 'FileChangeApprovalDecision', actual: 'a string (5 characters)' },
    ]);
  });

  test('names only the kind of a number or a boolean, never the value', () => {
    const issues = describeErrors(errorsOf(t.type({ pin: t.string, flag: t.string }), { pin: 918273, flag: true }), 'params');
    expect(formatDecodeIssues(issues)).toBe('params.pin: expected string, got a number; params.flag: expected string, got a boolean');
  });

  test('never prints any value of any failed decode', () => {
    const marker = 'zq9';
    const leaf = fc.oneof(fc.constant(`${marker}-secret`), fc.constant(918273), fc.constant(true), fc.constant(marker));
    const codec = t.type({ a: t.number, b: t.keyof({ x: null }), c: t.array(t.boolean), d: t.union([t.literal('on'), t.literal('off')]) });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(fc.string(), leaf, { maxKeys: 2 }))), (input) => {
        const result = codec.decode(input);
        if (E.isRight(result)) return;
        const text = formatDecodeIssues(describeErrors(result.left, 'params'));
        expect(text).not.toContain(marker);
        expect(text).not.toContain('918273');
        expect(text).not.toContain('true');
      }),
      { numRuns: 300 },
    );
  });

  test('uses the tag of a tagged union to report inside the chosen member', () => {
    const input = { threadId: 't', turnId: null, serverName: 's', environmentId: null, mode: 'url', _meta: null, message: 'm', url: 'u' };
    expect(describeErrors(errorsOf(C.McpServerElicitationRequestParams, input), 'params')).toEqual([
      { path: 'params.elicitationId', expected: 'string', actual: 'nothing (missing)' },
    ]);
  });

  test('never quotes a free-form string, so secrets stay out of messages', () => {
    const secret = 'sk-live-0123456789';
    const error = invalidParams('x', errorsOf(t.type({ token: t.number }), { token: secret }));
    expect(error.message).not.toContain(secret);
    expect(error.message).toBe('Invalid params of x: params.token: expected number, got a string (18 characters)');
  });

  test('builds a message for any failure of any codec, without throwing', () => {
    const codecs = Object.values(C) as t.Mixed[];
    fc.assert(
      fc.property(fc.constantFrom(...codecs).chain((codec) => corrupted(codec, arbitraryOf(codec)).map((input) => [codec, input] as const)), ([codec, input]) => {
        const result = codec.decode(input);
        if (E.isLeft(result)) {
          const error = invalidResult('m', result.left);
          expect(error.issues.length).toBeGreaterThan(0);
          expect(error.message.startsWith('Invalid result of m: result')).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('lists five issues and counts the rest', () => {
    const error = invalidParams('m', errorsOf(t.type({ a: t.string, b: t.string, c: t.string, d: t.string, e: t.string, f: t.string, g: t.string }), {}));
    expect(error.issues).toHaveLength(7);
    expect(error.message.endsWith('; and 2 more')).toBe(true);
  });
});

describe('unknownMethod', () => {
  test('says which kind of message had which method', () => {
    expect(unknownMethod('serverRequest', 'x/y')).toEqual({
      _tag: 'UnknownMethod',
      kind: 'serverRequest',
      method: 'x/y',
      message: 'Unknown serverRequest method "x/y"',
    });
  });
});
