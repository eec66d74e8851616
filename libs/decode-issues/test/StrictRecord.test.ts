import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeIssue, isRecord, listIssues, strictRecord } from '../src/index.js';

const Call = strictRecord('Call', { server: t.string, tool: t.string }, { arguments: t.UnknownRecord, callId: t.string });
const known = ['server', 'tool', 'arguments', 'callId'];

const issuesOf = (value: unknown): ReadonlyArray<{ readonly path: string; readonly line: string }> => {
  const result = Call.decode(value);
  if (E.isRight(result)) throw new Error('expected a decode failure');
  return listIssues(result.left, { root: 'call' }).map((issue) => ({ path: issue.path, line: describeIssue(issue) }));
};

const validCall = fc.record(
  { server: fc.string(), tool: fc.string(), arguments: fc.dictionary(fc.string(), fc.jsonValue()), callId: fc.string() },
  { requiredKeys: ['server', 'tool'] },
);
const unknownKey = fc.string({ minLength: 1 }).filter((key) => !known.includes(key) && key !== '__proto__');

describe('strictRecord', () => {
  it('decodes the known keys and leaves absent optional ones out', () => {
    expect(Call.decode({ server: 'forms', tool: 'echo' })).toEqual(E.right({ server: 'forms', tool: 'echo' }));
    expect(Call.decode({ server: 'forms', tool: 'echo', callId: 'c1', arguments: { text: 'hi' } })).toEqual(
      E.right({ server: 'forms', tool: 'echo', callId: 'c1', arguments: { text: 'hi' } }),
    );
    expect(Call.decode({ server: 'forms', tool: 'echo', callId: undefined })).toEqual(E.right({ server: 'forms', tool: 'echo' }));
  });

  it('names an unknown key, a missing required key and a wrong value each at its path, all at once', () => {
    expect(issuesOf({ server: 'forms', tol: 'echo', callId: 7 })).toEqual([
      { path: 'call.tol', line: 'unknown key "tol" (expected one of server, tool, arguments, callId)' },
      { path: 'call.tool', line: 'missing required key "tool"' },
      { path: 'call.callId', line: 'expected string, got a number' },
    ]);
  });

  it('refuses what is not an object, saying which keys it wants', () => {
    for (const value of [null, [], 'call', 3]) {
      expect(issuesOf(value)).toEqual([{ path: 'call', line: 'expected an object with keys server, tool, arguments, callId' }]);
    }
  });

  it('encodes without the optional keys that are absent', () => {
    expect(Call.encode({ server: 's', tool: 't' })).toEqual({ server: 's', tool: 't' });
  });

  it('decodes every record of known keys to itself, and is agrees', () => {
    fc.assert(
      fc.property(validCall, (call) => {
        expect(Call.decode(call)).toEqual(E.right(call));
        expect(Call.is(call)).toBe(true);
        expect(Call.encode(call)).toEqual(call);
      }),
    );
  });

  it('rejects every unknown key with its own path, and is agrees', () => {
    fc.assert(
      fc.property(validCall, fc.uniqueArray(unknownKey, { minLength: 1, maxLength: 4 }), (call, extra) => {
        const value: Record<string, unknown> = { ...call };
        for (const key of extra) value[key] = 1;
        const issues = issuesOf(value);
        expect(issues.map((issue) => issue.path).sort()).toEqual([...listIssuesPaths(extra)].sort());
        expect(issues.every((issue) => issue.line.startsWith('unknown key '))).toBe(true);
        expect(Call.is(value)).toBe(false);
      }),
    );
  });

  it('never throws, and what it decodes is a record of known keys only', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = Call.decode(value);
        if (E.isRight(result)) {
          expect(isRecord(result.right)).toBe(true);
          expect(Object.keys(result.right).every((key) => known.includes(key))).toBe(true);
        }
        expect(Call.is(value)).toBe(E.isRight(result) && isRecord(value) && Object.values(value).every((v) => v !== undefined));
      }),
    );
  });
});

/** The paths `listIssues` gives keys directly under the root `call` (dotted, as `issuePath` spells them). */
const listIssuesPaths = (keys: ReadonlyArray<string>): ReadonlyArray<string> => keys.map((key) => `call.${key}`);
