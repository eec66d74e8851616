/**
 * Card + answers → ElicitResult: labels to values, booleans, numbers, multi-choice, text; what is
 * omitted; cancel and decline shapes; and the laws (content keys ⊆ schema properties, usable
 * answers are all accepted, unknown ids ignored).
 */
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { answersToContent, defaultAnswers, responseForCard } from '../src/index.js';
import { answersToResult } from '../src/AnswerMapping.js';
import { answersForCard, supportedSchemaArbitrary, usableAnswersForCard } from '../src/testing.js';
import { answers, formCardOf } from './support.js';

const card = formCardOf({
  mode: 'form',
  message: 'Deploy',
  requestedSchema: {
    type: 'object',
    properties: {
      target: { type: 'string', title: 'Target', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }] },
      confirm: { type: 'boolean', title: 'Confirm' },
      replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9 },
      ratio: { type: 'number', title: 'Ratio' },
      regions: { type: 'array', title: 'Regions', items: { anyOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }, { const: 'ap', title: 'Asia' }] } },
      notes: { type: 'string', title: 'Notes' },
    },
    required: ['target', 'confirm'],
  },
});

describe('answers → content', () => {
  test('every kind of question', () => {
    const result = answersToResult(
      card,
      answers({ target: ['Production'], confirm: ['false'], replicas: [' 3 '], ratio: ['0.25'], regions: ['Asia', 'Europe'], notes: ['ship it'] }),
    );
    expect(result).toStrictEqual({
      action: 'accept',
      content: { target: 'production', confirm: false, replicas: 3, ratio: 0.25, regions: ['eu', 'ap'], notes: 'ship it' },
      _meta: null,
    });
  });

  test('multi-choice values come in option order, each once; an empty selection is an empty array', () => {
    expect(answersToContent(card, answers({ regions: ['Asia', 'Europe', 'Asia'] }))).toEqual({ regions: ['eu', 'ap'] });
    expect(answersToContent(card, answers({ regions: [] }))).toEqual({});
  });

  test('numbers: decimal notation only; an integer must be a safe integer; unparsable → omitted', () => {
    const parsed = (raw: string, id = 'ratio'): unknown => answersToContent(card, answers({ [id]: [raw] }))[id];
    expect(parsed('1e3')).toBe(1000);
    expect(parsed('-.5')).toBe(-0.5);
    expect(parsed('+7')).toBe(7);
    expect(parsed('-0')).toBe(0);
    expect(Object.is(parsed('-0'), -0)).toBe(false);
    for (const bad of ['', ' ', 'abc', '0x10', 'Infinity', 'NaN', '1,5', '1e999', '2 3']) expect(parsed(bad)).toBeUndefined();
    expect(parsed('3', 'replicas')).toBe(3);
    expect(parsed('3.0', 'replicas')).toBe(3);
    expect(parsed('3.5', 'replicas')).toBeUndefined();
    expect(parsed('9007199254740993', 'replicas')).toBeUndefined();
  });

  test('ranges are not enforced by the mapping (the plugin validates): 12 replicas passes through', () => {
    expect(answersToContent(card, answers({ replicas: ['12'] }))).toEqual({ replicas: 12 });
  });

  test('a label that names no option omits the key; so does any unknown label of a multi-choice answer', () => {
    expect(answersToContent(card, answers({ target: ['production'], confirm: ['yes'], regions: ['Europe', 'Mars'], notes: ['n'] }))).toEqual({ notes: 'n' });
  });

  test('a single-choice answer uses the first label; text uses the first entry', () => {
    expect(answersToContent(card, answers({ target: ['Staging', 'Production'], notes: ['a', 'b'] }))).toEqual({ target: 'staging', notes: 'a' });
  });

  test('malformed entries are skipped, unknown ids ignored', () => {
    const response = { answers: { target: { answers: [1] }, confirm: 'true', notes: { answers: ['ok'] }, other: { answers: ['x'] } } };
    expect(answersToContent(card, response)).toEqual({ notes: 'ok' });
  });

  test('no usable answer → cancel, exactly', () => {
    expect(answersToResult(card, { answers: {} })).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(answersToResult(card, answers({ target: ['Mars'] }))).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(answersToResult(card, 'nonsense')).toStrictEqual({ action: 'cancel', content: null, _meta: null });
  });

  test('a number that does not parse is omitted, and the form is still accepted (the spec; never a cancel)', () => {
    expect(answersToResult(card, answers({ replicas: ['12abc'], target: ['Production'] }))).toStrictEqual({ action: 'accept', content: { target: 'production' }, _meta: null });
    expect(answersToResult(card, answers({ replicas: ['12abc'] }))).toStrictEqual({ action: 'accept', content: {}, _meta: null });
    expect(answersToResult(card, answers({ ratio: ['0.5.1'], notes: ['n'] }))).toStrictEqual({ action: 'accept', content: { notes: 'n' }, _meta: null });
  });

  test('a form without questions is accepted with {} when the host submits it', () => {
    const empty = formCardOf({ message: 'Continue?', requestedSchema: { type: 'object', properties: {} } });
    expect(answersToResult(empty, { answers: {} })).toStrictEqual({ action: 'accept', content: {}, _meta: null });
    expect(answersToResult(empty, null)).toStrictEqual({ action: 'cancel', content: null, _meta: null });
  });

  test('host cancel and decline are passed through, exactly', () => {
    expect(responseForCard(card, { action: 'cancel' })).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(responseForCard(card, { action: 'decline' })).toStrictEqual({ action: 'decline', content: null, _meta: null });
  });

  test('defaultAnswers submits the defaults: first option, schema default, nothing for plain inputs', () => {
    const withDefaults = formCardOf({
      message: 'm',
      requestedSchema: {
        type: 'object',
        properties: {
          a: { enum: ['x', 'y'], default: 'y' },
          b: { type: 'boolean' },
          c: { type: 'string' },
          d: { type: 'string', default: 'hello' },
          e: { type: 'integer', default: 4 },
          f: { type: 'array', items: { enum: ['p', 'q'] }, default: ['q'] },
        },
      },
    });
    expect(defaultAnswers(withDefaults)).toEqual(answers({ a: ['y'], b: ['true'], d: ['hello'], e: ['4'], f: ['q'] }));
    expect(responseForCard(withDefaults, defaultAnswers(withDefaults))).toStrictEqual({
      action: 'accept',
      content: { a: 'y', b: true, d: 'hello', e: 4, f: ['q'] },
      _meta: null,
    });
  });
});

describe('laws', () => {
  const cardAndAnswers = (answersOf: typeof answersForCard) =>
    supportedSchemaArbitrary.chain((schema) => {
      const formCard = formCardOf({ message: 'm', requestedSchema: schema.requestedSchema });
      return fc.tuple(fc.constant(schema), fc.constant(formCard), answersOf(formCard));
    });

  test('content keys ⊆ schema properties; results have one of the three exact shapes; a number that does not parse is omitted, never a cancel', () => {
    fc.assert(
      fc.property(cardAndAnswers(answersForCard), ([schema, formCard, response]) => {
        const result = responseForCard(formCard, response);
        if (result.action === 'accept') {
          expect(result._meta).toBeNull();
          // A form's accept always carries content (only an opened link is accepted without).
          expect(result.content).not.toBeNull();
          const content = result.content ?? {};
          for (const key of Object.keys(content)) expect(schema.keys).toContain(key);
          // Empty content only for a submission whose only answers were numbers that do not parse (the spec omits them).
          const answeredNumber = formCard.questions.some((q) => (q.answerType === 'number' || q.answerType === 'integer') && Object.hasOwn(response.answers, q.id) && (response.answers[q.id]?.answers.length ?? 0) > 0);
          expect(Object.keys(content).length > 0 || answeredNumber).toBe(true);
        } else {
          expect(result).toStrictEqual({ action: 'cancel', content: null, _meta: null });
        }
      }),
    );
  });

  test('usable answers to every question are all accepted, each value of its question’s kind', () => {
    fc.assert(
      fc.property(cardAndAnswers(usableAnswersForCard), ([schema, formCard, response]) => {
        const result = responseForCard(formCard, response);
        expect(result.action).toBe('accept');
        const content = result.content ?? {};
        expect(Object.keys(content)).toEqual(schema.keys);
        formCard.questions.forEach((q) => {
          const value = content[q.id];
          switch (q.answerType) {
            case 'singleChoice':
              expect(q.values).toContain(value);
              break;
            case 'boolean':
              expect(typeof value).toBe('boolean');
              break;
            case 'multiChoice':
              expect(Array.isArray(value) && value.every((v) => q.values.includes(v))).toBe(true);
              break;
            case 'text':
              expect(typeof value).toBe('string');
              break;
            case 'integer':
              expect(Number.isSafeInteger(value)).toBe(true);
              break;
            case 'number':
              expect(Number.isFinite(value)).toBe(true);
              break;
          }
        });
      }),
    );
  });

  test('answers to unknown question ids change nothing', () => {
    fc.assert(
      fc.property(cardAndAnswers(usableAnswersForCard), fc.dictionary(fc.string(), fc.record({ answers: fc.array(fc.string()) })), ([, formCard, response], extra) => {
        const ids = new Set(formCard.questions.map((q) => q.id));
        const unknown = Object.fromEntries(Object.entries(extra).filter(([id]) => !ids.has(id)));
        expect(responseForCard(formCard, { answers: { ...unknown, ...response.answers } })).toEqual(responseForCard(formCard, response));
      }),
    );
  });
});
