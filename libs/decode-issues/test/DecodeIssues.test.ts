import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describe, expect, it } from 'vitest';
import { describeErrors, describeKind, expectedTypeName, formatDecodeIssues, issuePath } from '../src/index.js';

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
