import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeErrors, describeIssue, describeKind, expectedTypeName, formatDecodeIssues, issuePath, listIssues } from '../src/index.js';

const errorsOf = <A>(codec: t.Decoder<unknown, A>, value: unknown): t.Errors => {
  const result = codec.decode(value);
  if (E.isRight(result)) throw new Error('expected a decode failure');
  return result.left;
};

const SECRET = 'CANARY-secret-value';

describe('issues never carry a value', () => {
  it('names path, type and kind only', () => {
    const issues = describeErrors(errorsOf(t.type({ token: t.number, list: t.array(t.number) }), { token: SECRET, list: [SECRET] }), 'params');
    expect(issues).toContainEqual({ path: 'params.token', expected: 'number', actual: 'a string (19 characters)' });
    expect(issues).toContainEqual({ path: 'params.list[0]', expected: 'number', actual: 'a string (19 characters)' });
    expect(formatDecodeIssues(issues)).not.toContain(SECRET);
    expect(describeKind(SECRET)).toBe('a string (19 characters)');
  });
});

describe('issuePath spells a context as the boundary needs', () => {
  const codec = t.type({ items: t.array(t.union([t.type({ id: t.string }), t.null])) });
  const [first] = errorsOf(codec, { items: [{ id: 7 }] });
  const context = first?.context ?? [];

  it('keeps every key, dotted, by default', () => {
    expect(issuePath(context)).toBe('items.0.0.id');
  });

  it('puts indices in brackets after a root, or leaves them out', () => {
    expect(issuePath(context, { root: 'doc', indices: 'brackets' })).toBe('doc.items[0][0].id');
    expect(issuePath(context, { indices: 'omit' })).toBe('items.id');
  });

  it('leaves out the members a union tried', () => {
    expect(issuePath(context, { members: 'skipUnions' })).toBe('items.0.id');
    expect(issuePath(context, { root: 'doc', indices: 'brackets', members: 'skipUnionsAndIntersections' })).toBe('doc.items[0].id');
  });

  it('names the innermost expected type', () => {
    expect(first === undefined ? undefined : expectedTypeName(first)).toBe('string');
  });
});

describe('listIssues keeps the boundary path style and the codec own messages', () => {
  it('names path, expected type and kind, in the style asked for', () => {
    expect(listIssues(errorsOf(t.type({ steps: t.array(t.string) }), { steps: [1, true] }), { root: 'script', indices: 'brackets' })).toEqual([
      { path: 'script.steps[0]', expected: 'string', actual: 'a number' },
      { path: 'script.steps[1]', expected: 'string', actual: 'a boolean' },
    ]);
  });

  it('keeps a message the codec gave, which then stands for expected and got', () => {
    const Even = new t.Type<number, number, unknown>('Even', (u): u is number => typeof u === 'number' && u % 2 === 0, (u, c) => (typeof u === 'number' && u % 2 === 0 ? t.success(u) : t.failure(u, c, 'an even number, please')), t.identity);
    const [issue] = listIssues(errorsOf(t.type({ n: Even }), { n: 3 }));
    expect(issue).toEqual({ path: 'n', expected: 'Even', actual: 'a number', message: 'an even number, please' });
    expect(issue && describeIssue(issue)).toBe('an even number, please');
    expect(formatDecodeIssues(issue ? [issue] : [])).toBe('n: an even number, please');
  });

  it('lists an issue repeated at one path once', () => {
    const codec = t.type({ a: t.union([t.string, t.number]) });
    expect(listIssues(errorsOf(codec, { a: true }), { members: 'skipUnions' })).toEqual([{ path: 'a', expected: 'string', actual: 'a boolean' }, { path: 'a', expected: 'number', actual: 'a boolean' }]);
    expect(listIssues([...errorsOf(codec, { a: true }), ...errorsOf(codec, { a: true })], { members: 'skipUnions' })).toHaveLength(2);
  });

  it('never prints a value', () => {
    fc.assert(
      fc.property(fc.string().map((s) => `CANARY-${s}`), (secret) => {
        const text = formatDecodeIssues(listIssues(errorsOf(t.type({ a: t.number, b: t.array(t.number) }), { a: secret, b: [secret] })));
        expect(text).not.toContain(secret);
      }),
    );
  });
});
