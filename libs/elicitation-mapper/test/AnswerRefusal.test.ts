/**
 * The strict reading of a host's answer: what does not fit the card is refused with the field and
 * the problem (never the host's text), and what fits maps exactly as the lenient mapping does — so
 * no answer is silently narrowed to less than the user meant.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { answerRefusal, checkedResponseForCard, responseForCard, userInputAnswerRefusal } from '../src/index.js';
import { answersForCard, codexToolApprovalParamsArbitrary, supportedSchemaArbitrary, usableAnswersForCard } from '../src/testing.js';
import { approvalCardOf, formCardOf } from './support.js';
import { parseNumber } from '../src/internal/answerReading.js';

const answers = (entries: Record<string, ReadonlyArray<string>>) => ({ answers: Object.fromEntries(Object.entries(entries).map(([id, list]) => [id, { answers: list }])) });

const card = formCardOf({
  message: 'Release',
  requestedSchema: {
    type: 'object',
    properties: {
      target: { type: 'string', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }] },
      regions: { type: 'array', items: { type: 'string', enum: ['eu', 'us', 'ap', 'sa'], enumNames: ['EU', 'US', 'Asia', 'South America'] }, minItems: 1, maxItems: 3 },
      replicas: { type: 'integer' },
      note: { type: 'string' },
    },
  },
});

describe('answerRefusal', () => {
  test('names the field and the problem for each kind of misfit', () => {
    const cases: Array<[unknown, string | null, string, string]> = [
      [answers({ target: ['Mars'] }), 'target', 'UnknownOption', 'target: the answer names none of the options'],
      [answers({ target: ['Staging', 'Production'] }), 'target', 'TooManyAnswers', 'target: 2 answers to a question that takes one'],
      [answers({ regions: ['EU', 'US', 'Asia', 'South America'] }), 'regions', 'TooManyPicks', 'regions: 4 picks, at most 3 allowed'],
      [answers({ regions: ['EU', 'Atlantis'] }), 'regions', 'UnknownOption', 'regions: a pick names none of the options'],
      [answers({ note: ['a', 'b'] }), 'note', 'TooManyAnswers', 'note: 2 answers to a question that takes one'],
      [answers({ colour: ['red'] }), null, 'UnknownQuestion', 'answer: an answer to a question the card does not have'],
      [{ answers: { target: { answers: [7] } } }, null, 'NotAnAnswer', 'answer: an entry is not { answers: [strings] }'],
      [{ action: 'accept' }, null, 'NotAnAnswer', 'answer: neither answers nor an action'],
      ['nonsense', null, 'NotAnAnswer', 'answer: neither answers nor an action'],
    ];
    for (const [reply, questionId, problem, message] of cases) {
      expect(answerRefusal(card, reply), JSON.stringify(reply)).toStrictEqual({ _tag: 'AnswerRefused', questionId, problem, message });
    }
  });

  test('too few picks is refused; within the limits fits; cancel, decline and unanswered questions fit', () => {
    const few = formCardOf({ message: 'm', requestedSchema: { type: 'object', properties: { tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2 } } } });
    expect(answerRefusal(few, answers({ tags: ['a'] }))).toMatchObject({ questionId: 'tags', problem: 'TooFewPicks', message: 'tags: 1 picks, at least 2 needed' });
    expect(answerRefusal(few, answers({ tags: ['a', 'a'] }))).toMatchObject({ problem: 'TooFewPicks' });
    expect(answerRefusal(few, answers({ tags: ['c', 'a'] }))).toBeNull();
    expect(answerRefusal(card, answers({ regions: ['EU', 'US', 'Asia'], target: ['Production'] }))).toBeNull();
    expect(answerRefusal(card, { action: 'cancel' })).toBeNull();
    expect(answerRefusal(card, { action: 'decline' })).toBeNull();
    expect(answerRefusal(card, answers({ regions: [] }))).toBeNull();
    expect(answerRefusal(card, { answers: {} })).toBeNull();
    // A number that does not parse fits: the mapping leaves it out of the content, the action stays accept.
    expect(answerRefusal(card, answers({ replicas: ['three'] }))).toBeNull();
    expect(checkedResponseForCard(card, answers({ replicas: ['three'], target: ['Staging'] }))).toEqual(E.right({ action: 'accept', content: { target: 'staging' }, _meta: null }));
  });

  test('a tool approval must be answered with one of the choices it offers', () => {
    const approval = approvalCardOf({
      threadId: 't',
      turnId: 'u',
      serverName: 'forms',
      mode: 'form',
      message: 'Allow?',
      requestedSchema: { type: 'object', properties: {} },
      _meta: { codex_approval_kind: 'mcp_tool_call', tool_name: 'echo' },
    });
    expect(answerRefusal(approval, answers({ approval: ['Always allow'] }))).toMatchObject({ questionId: 'approval', problem: 'UnknownOption' });
    expect(answerRefusal(approval, { answers: {} })).toMatchObject({ questionId: 'approval', problem: 'MissingAnswer' });
    expect(answerRefusal(approval, answers({ approval: ['Allow once'] }))).toBeNull();
  });

  test('checkedResponseForCard: Left with the refusal, else exactly what responseForCard gives', () => {
    expect(checkedResponseForCard(card, answers({ regions: ['EU', 'US', 'Asia', 'South America'] }))).toMatchObject({ _tag: 'Left', left: { problem: 'TooManyPicks' } });
    expect(checkedResponseForCard(card, answers({ regions: ['Asia', 'EU'] }))).toStrictEqual(E.right({ action: 'accept', content: { regions: ['eu', 'ap'] }, _meta: null }));
  });
});

describe('userInputAnswerRefusal (Codex’s own request_user_input)', () => {
  const questions = [
    { id: 'color', header: 'Color', question: 'Which color?', isOther: false, isSecret: false, options: [{ label: 'Red', description: '' }, { label: 'Blue', description: '' }] },
    { id: 'name', header: 'Name', question: 'Your name?', isOther: false, isSecret: false, options: null },
    { id: 'size', header: 'Size', question: 'Which size?', isOther: true, isSecret: false, options: [{ label: 'S', description: '' }] },
  ];

  test('a label no option has (without "other") and an unknown question are refused; free text and "other" fit', () => {
    expect(userInputAnswerRefusal(questions, answers({ color: ['Green'] }))).toStrictEqual({ _tag: 'AnswerRefused', questionId: 'color', problem: 'UnknownOption', message: 'color: the answer names none of the options' });
    expect(userInputAnswerRefusal(questions, answers({ shape: ['round'] }))).toMatchObject({ questionId: null, problem: 'UnknownQuestion' });
    expect(userInputAnswerRefusal(questions, { answers: 5 })).toMatchObject({ problem: 'NotAnAnswer' });
    expect(userInputAnswerRefusal(questions, answers({ color: ['Blue'], name: ['Ada'], size: ['XXL'] }))).toBeNull();
    expect(userInputAnswerRefusal(questions, { action: 'cancel' })).toBeNull();
    expect(userInputAnswerRefusal(questions, { answers: {} })).toBeNull();
  });

  test('never throws, whatever the questions and the reply', () => {
    fc.assert(fc.property(fc.anything(), fc.anything(), (qs, reply) => void userInputAnswerRefusal(qs as never, reply)));
  });
});

describe('laws', () => {
  const cardAnd = (answersOf: typeof answersForCard) =>
    supportedSchemaArbitrary.chain((schema) => {
      const formCard = formCardOf({ message: 'm', requestedSchema: schema.requestedSchema });
      return fc.tuple(fc.constant(formCard), answersOf(formCard));
    });

  test('usable answers are never refused, and map exactly as responseForCard maps them', () => {
    fc.assert(
      fc.property(cardAnd(usableAnswersForCard), ([formCard, response]) => {
        // Compared as JSON: a property key such as `constructor` confuses structural equality.
        expect(JSON.stringify(checkedResponseForCard(formCard, response))).toBe(JSON.stringify(E.right(responseForCard(formCard, response))));
      }),
    );
  });

  test('an answer that fits loses nothing but a number that does not parse: every other answered question has its key in the content', () => {
    fc.assert(
      fc.property(cardAnd(answersForCard), ([formCard, response]) => {
        const checked = checkedResponseForCard(formCard, response);
        if (E.isLeft(checked)) {
          expect(checked.left.message.length).toBeLessThanOrEqual(120);
          if (checked.left.questionId !== null) expect(formCard.questions.map((q) => q.id)).toContain(checked.left.questionId);
          return;
        }
        // The forms spec: a number or integer that does not parse is omitted (the action stays accept).
        const unparsed = (id: string, texts: ReadonlyArray<string>): boolean => {
          const question = formCard.questions.find((q) => q.id === id);
          return (question?.answerType === 'number' || question?.answerType === 'integer') && parseNumber(texts[0], question.answerType === 'integer') === undefined;
        };
        const answered = Object.entries(response.answers)
          .filter(([id, entry]) => (entry?.answers.length ?? 0) > 0 && !unparsed(id, entry?.answers ?? []))
          .map(([id]) => id);
        if (answered.length === 0) return;
        expect(checked.right.action).toBe('accept');
        if (checked.right.action === 'accept') {
          // A form's accept always carries content (only an opened link is accepted without).
          expect(checked.right.content).not.toBeNull();
          expect(Object.keys(checked.right.content ?? {}).sort()).toEqual([...answered].sort());
        }
      }),
    );
  });

  test('picks are refused exactly when their count is outside the array limits', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.nat(5), fc.subarray(['a', 'b', 'c', 'd', 'e']), (min, max, picks) => {
        const limited = formCardOf({ message: 'm', requestedSchema: { type: 'object', properties: { p: { type: 'array', items: { enum: ['a', 'b', 'c', 'd', 'e'] }, minItems: BigInt(min), maxItems: BigInt(max) } } } });
        const refusal = answerRefusal(limited, answers({ p: picks }));
        const outside = picks.length > 0 && (picks.length < min || picks.length > max);
        expect(refusal === null).toBe(!outside);
      }),
    );
  });

  test('never throws, for any card and any reply', () => {
    fc.assert(
      fc.property(fc.oneof(cardAnd(answersForCard).map(([c]) => c), codexToolApprovalParamsArbitrary.map(approvalCardOf)), fc.anything(), (anyCard, reply) => {
        expect(() => checkedResponseForCard(anyCard, reply)).not.toThrow();
      }),
    );
  });
});
