/**
 * Every exported function is total: arbitrary JSON (and arbitrary JavaScript values) in any
 * argument never makes it throw; the async one always resolves. Functions that take a card also
 * get real cards, and cards with one field corrupted.
 */
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as api from '../src/index.js';
import { codexElicitationRequestParamsArbitrary, codexToolApprovalParamsArbitrary } from '../src/testing.js';
import { cardOf } from './support.js';

type AnyFunction = (...args: Array<unknown>) => unknown;
const functions: Array<[string, AnyFunction]> = Object.entries(api as Record<string, unknown>).flatMap(([name, value]) =>
  typeof value === 'function' ? [[name, value as AnyFunction] as [string, AnyFunction]] : [],
);

const realCard = fc.oneof(
  codexElicitationRequestParamsArbitrary.map(({ params }) => cardOf(params)),
  codexToolApprovalParamsArbitrary.map((params) => cardOf(params)),
);

/** A real card with one field of one question (or of the card) replaced by anything. */
const corruptedCard = fc
  .tuple(realCard, fc.constantFrom('options', 'values', 'answerType', 'id', 'defaultIndex', 'defaultIndices', 'choices', 'questions', '_tag'), fc.anything(), fc.nat())
  .map(([card, field, value, at]) => {
    const copy = JSON.parse(JSON.stringify(card)) as { questions: Array<Record<string, unknown>> } & Record<string, unknown>;
    if (field === 'questions' || field === '_tag') (copy as Record<string, unknown>)[field] = value;
    else {
      const question = copy.questions[at % Math.max(1, copy.questions.length)];
      if (question !== undefined) question[field] = value;
    }
    return copy;
  });

const argument = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue() },
  { weight: 2, arbitrary: fc.anything() },
  { weight: 2, arbitrary: realCard },
  { weight: 2, arbitrary: corruptedCard },
  { weight: 1, arbitrary: fc.record({ answers: fc.dictionary(fc.string({ maxLength: 4 }), fc.record({ answers: fc.array(fc.string({ maxLength: 4 })) })) }) },
);

describe('every exported function is total', () => {
  test('there are functions to check', () => {
    expect(functions.length).toBeGreaterThan(20);
  });

  test.each(functions)('%s never throws on arbitrary arguments', async (name, fn) => {
    if (name === 'requestForm') {
      await fc.assert(
        fc.asyncProperty(fc.array(argument, { maxLength: 3 }), async (args) => {
          const outcome = (await fn(...args)) as { _tag: string };
          expect(typeof outcome._tag).toBe('string');
        }),
        { numRuns: 60 },
      );
      return;
    }
    fc.assert(
      fc.property(fc.array(argument, { maxLength: 3 }), (args) => {
        fn(...args);
      }),
      { numRuns: 60 },
    );
  });

  test('the two executor calls always produce a decision and one of the three result shapes', () => {
    fc.assert(
      fc.property(argument, argument, (params, reply) => {
        const decision = api.handleElicitationRequest(params);
        expect(['ShowCard', 'Respond']).toContain(decision._tag);
        if (decision._tag === 'ShowCard') {
          const result = api.responseForCard(decision.card, reply as api.HostReply);
          expect(['accept', 'cancel', 'decline']).toContain(result.action);
          if (result.action !== 'accept') expect(result).toStrictEqual({ action: result.action, content: null, _meta: null });
        }
      }),
    );
  });
});
