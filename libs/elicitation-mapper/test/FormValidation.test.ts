/**
 * The validators the spec leaves to plugins: required and non-empty, the custom option + text
 * pattern, numeric ranges and integers, membership in the offered values; and the rules a schema
 * implies.
 */
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, test } from 'vitest';
import {
  checkAllowed,
  checkCustomOption,
  checkRange,
  checkRequired,
  resolveCustomOption,
  type FormValidationError,
} from '../src/FormValidation.js';
import { formRulesFromSchema, validateForm } from '../src/index.js';

const tags = (errors: ReadonlyArray<FormValidationError>): Array<string> => errors.map((e) => e._tag);
const rule = { choiceKey: 'strategy', customChoice: 'custom', textKey: 'customStrategy' };

describe('checkRequired', () => {
  test('present and non-empty passes; missing, null, blank and empty arrays fail', () => {
    expect(checkRequired({ a: 'x', b: false, c: 0, d: ['y'] }, ['a', 'b', 'c', 'd'])).toEqual([]);
    expect(tags(checkRequired({ b: null, c: '  ', d: [] }, ['a', 'b', 'c', 'd']))).toEqual(['MissingValue', 'MissingValue', 'EmptyValue', 'EmptyValue']);
  });

  test('a content that is not an object', () => {
    expect(tags(checkRequired('nope', ['a']))).toEqual(['NotAnObject']);
  });
});

describe('the custom option pattern (spec: "Custom Option")', () => {
  test('custom needs a non-blank text; other choices ignore the text', () => {
    expect(resolveCustomOption({ strategy: 'custom', customStrategy: ' Inspect the diff first ' }, rule)).toEqual(E.right({ choice: 'custom', customText: 'Inspect the diff first' }));
    expect(resolveCustomOption({ strategy: 'fast', customStrategy: 'ignored' }, rule)).toEqual(E.right({ choice: 'fast', customText: null }));
    expect(resolveCustomOption({ strategy: 'fast' }, rule)).toEqual(E.right({ choice: 'fast', customText: null }));
    expect(tags(checkCustomOption({ strategy: 'custom', customStrategy: '' }, rule))).toEqual(['CustomTextMissing']);
    expect(tags(checkCustomOption({ strategy: 'custom' }, rule))).toEqual(['CustomTextMissing']);
    expect(tags(checkCustomOption({}, rule))).toEqual(['MissingValue']);
    expect(tags(checkCustomOption({ strategy: 3 }, rule))).toEqual(['WrongType']);
  });

  test('the error says which field to fill', () => {
    expect(checkCustomOption({ strategy: 'custom' }, rule)[0]?.message).toBe('"customStrategy" must describe the custom choice when "strategy" is "custom"');
  });
});

describe('checkRange and checkAllowed', () => {
  test('ranges and integers; an absent key passes', () => {
    expect(checkRange({ n: 5 }, 'n', { minimum: 1, maximum: 9, integer: true })).toEqual([]);
    expect(checkRange({}, 'n', { minimum: 1 })).toEqual([]);
    expect(checkRange({ n: 12 }, 'n', { minimum: 1, maximum: 9 })).toEqual([{ _tag: 'OutOfRange', key: 'n', value: 12, minimum: 1, maximum: 9, message: '"n" must be >= 1 and <= 9' }]);
    expect(tags(checkRange({ n: 2.5 }, 'n', { integer: true }))).toEqual(['NotAnInteger']);
    expect(tags(checkRange({ n: '5' }, 'n', {}))).toEqual(['WrongType']);
  });

  test('membership for strings and arrays of strings', () => {
    expect(checkAllowed({ t: 'staging' }, 't', ['staging', 'production'])).toEqual([]);
    expect(checkAllowed({ r: ['eu', 'us'] }, 'r', ['eu', 'us', 'ap'])).toEqual([]);
    expect(tags(checkAllowed({ t: 'prod' }, 't', ['staging', 'production']))).toEqual(['NotAllowed']);
    expect(tags(checkAllowed({ r: ['eu', 'mars'] }, 'r', ['eu']))).toEqual(['NotAllowed']);
    expect(tags(checkAllowed({ t: 1 }, 't', ['1']))).toEqual(['WrongType']);
  });
});

describe('validateForm and formRulesFromSchema', () => {
  const schema = {
    type: 'object',
    properties: {
      strategy: { type: 'string', oneOf: [{ const: 'fast', title: 'Fast' }, { const: 'safe', title: 'Safe' }, { const: 'custom', title: 'Custom' }] },
      customStrategy: { type: 'string' },
      replicas: { type: 'integer', minimum: 1, maximum: 9 },
    },
    required: ['strategy'],
  };

  test('the rules a schema implies', () => {
    expect(formRulesFromSchema(schema)).toEqual(
      E.right({ required: ['strategy'], allowed: { strategy: ['fast', 'safe', 'custom'] }, ranges: { replicas: { integer: true, minimum: 1, maximum: 9 } } }),
    );
    expect(E.isLeft(formRulesFromSchema({ type: 'object' }))).toBe(true);
  });

  test('all rules at once: Right(content) when valid, every error otherwise', () => {
    const rules = formRulesFromSchema(schema);
    if (E.isLeft(rules)) throw new Error(rules.left.message);
    const all = { ...rules.right, customOptions: [rule] };
    expect(validateForm({ strategy: 'safe', replicas: 3 }, all)).toEqual(E.right({ strategy: 'safe', replicas: 3 }));
    const invalid = validateForm({ strategy: 'custom', replicas: 10 }, all);
    expect(E.isLeft(invalid) && tags(invalid.left)).toEqual(['OutOfRange', 'CustomTextMissing']);
    expect(validateForm([], all)).toEqual(E.left([{ _tag: 'NotAnObject', message: 'The form content is not an object' }]));
  });
});
