/**
 * Option labels are unique within a question, so every label maps back to one stable value, even
 * when options share a title; the rule is the README's.
 */
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { answersToResult } from '../src/AnswerMapping.js';
import { uniqueLabels } from '../src/internal/optionLabels.js';
import { supportedSchemaArbitrary } from '../src/testing.js';
import { answers, formCardOf } from './support.js';

describe('uniqueLabels', () => {
  test('distinct titles are kept as they are', () => {
    expect(uniqueLabels(['Fast', 'Safe'], ['fast', 'safe'])).toEqual(['Fast', 'Safe']);
  });

  test('shared titles show their value', () => {
    expect(uniqueLabels(['Fast', 'Fast', 'Safe'], ['f1', 'f2', 'safe'])).toEqual(['Fast (f1)', 'Fast (f2)', 'Safe']);
  });

  test('a missing or blank title falls back to the value, an empty value to "(empty)"', () => {
    expect(uniqueLabels([null, ' ', ''], ['a', 'b', ''])).toEqual(['a', 'b', '(empty)']);
  });

  test('contrived collisions get a number, never taking a label another option shows', () => {
    // "A" twice → "A (b)" and "A (c)"; "A (b)" is also the first option's own title.
    expect(uniqueLabels(['A (b)', 'A', 'A'], ['z', 'b', 'c'])).toEqual(['A (b)', 'A (b) #2', 'A (c)']);
    expect(uniqueLabels(['A (b)', 'A', 'A', 'A (b) #2'], ['z', 'b', 'c', 'y'])).toEqual(['A (b)', 'A (b) #3', 'A (c)', 'A (b) #2']);
  });

  test('labels are always unique and one per value', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.constantFrom('a', 'b', '', ' ', 'A (b)', 'A (b) #2'), fc.string({ maxLength: 4 })), { maxLength: 12 }).chain((values) =>
          fc.tuple(fc.constant(values), fc.array(fc.option(fc.oneof(fc.constantFrom('A', 'A (b)', 'A (b) #2', ''), fc.string({ maxLength: 4 })), { nil: null }), { minLength: values.length, maxLength: values.length })),
        ),
        ([values, titles]) => {
          const labels = uniqueLabels(titles, values);
          expect(labels).toHaveLength(values.length);
          expect(new Set(labels).size).toBe(labels.length);
        },
      ),
    );
  });
});

describe('label ↔ value round trip on cards', () => {
  test('answering each option by its label returns that option’s value, for every option of every choice question', () => {
    fc.assert(
      fc.property(supportedSchemaArbitrary, ({ requestedSchema }) => {
        const card = formCardOf({ message: 'm', requestedSchema });
        for (const q of card.questions) {
          if (q.options === null) continue;
          expect(new Set(q.options.map((o) => o.label)).size).toBe(q.options.length);
          q.options.forEach((option, i) => {
            const result = answersToResult(card, answers({ [q.id]: [option.label] }));
            const expected = q.answerType === 'multiChoice' ? [q.values[i]] : q.values[i];
            // toEqual, not toStrictEqual: vitest's strict mode compares `.constructor`, which is a
            // generated property key here.
            expect(result).toEqual({ action: 'accept', content: { [q.id]: expected }, _meta: null });
            expect(Object.keys(result.content ?? {})).toEqual([q.id]);
          });
        }
      }),
    );
  });

  test('colliding titles: both "Fast" options stay reachable', () => {
    const card = formCardOf({ message: 'm', requestedSchema: { type: 'object', properties: { s: { oneOf: [{ const: 'fast-v1', title: 'Fast' }, { const: 'fast-v2', title: 'Fast' }] } } } });
    expect(card.questions[0]?.options).toEqual([
      { label: 'Fast (fast-v1)', description: '' },
      { label: 'Fast (fast-v2)', description: '' },
    ]);
    expect(answersToResult(card, answers({ s: ['Fast (fast-v2)'] }))).toStrictEqual({ action: 'accept', content: { s: 'fast-v2' }, _meta: null });
  });

  test('a repeated value keeps its first option only', () => {
    const card = formCardOf({ message: 'm', requestedSchema: { type: 'object', properties: { s: { enum: ['a', 'b', 'a'], enumNames: ['First A', 'B', 'Second A'] } } } });
    expect(card.questions[0]).toMatchObject({ options: [{ label: 'First A' }, { label: 'B' }], values: ['a', 'b'] });
  });
});
