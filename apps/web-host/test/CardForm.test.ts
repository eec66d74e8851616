/**
 * The card's form state against the mapper's own cards: generated plugin forms (every supported
 * schema shape) read into fields with the schema's defaults; what the page sends fits the card by the
 * executor's rule; a multi-select never holds more than `maxItems`; numbers outside their range and
 * text outside its format are refused before sending; and no input makes any of it throw.
 */
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerRefusal, answersToContent, defaultAnswers, elicitationToCard, hostCardKindOf, hostQuestionsOf, type Card, type FormCard } from '@wework/elicitation-mapper';
import { plainHostQuestion, type HostCard } from '@wework/host-protocol';
import { codexElicitationRequestParamsArbitrary } from '@wework/elicitation-mapper/testing';
import { fieldProblem, offersCancel, offersDecline, parseFieldNumber, readCard, replyOf, selectOption, setText, submit, submitOption, toggleOption, type CardModel, type Field } from '../src/CardForm.js';

/** The card/show card the executor sends for a mapper card. */
const hostCard = (card: Card, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  cardId: 'mcpServer/elicitation/request#0',
  origin: 'mcpElicitation',
  threadId: 'thread-1',
  turnId: 'turn-1',
  serverName: 'forms',
  kind: hostCardKindOf(card),
  message: card.message,
  questions: hostQuestionsOf(card),
  submitOnSelect: card.submitOnSelect,
  error: null,
  ...extra,
});

const formCards: fc.Arbitrary<FormCard> = codexElicitationRequestParamsArbitrary.map(({ params }) => elicitationToCard(params)).filter((c): c is E.Right<FormCard> => E.isRight(c) && c.right._tag === 'FormCard').map((c) => c.right);

const modelOf = (card: Card): CardModel => {
  const model = readCard(hostCard(card));
  if (E.isLeft(model)) throw new Error(model.left.message);
  return model.right;
};

const rolloutCard = (max: number | null, min: number | null = null): Card => {
  const card = elicitationToCard({
    threadId: 't',
    turnId: null,
    serverName: 'forms',
    mode: 'form',
    message: 'Choose where to roll out',
    _meta: null,
    requestedSchema: {
      type: 'object',
      properties: {
        regions: { type: 'array', title: 'Regions', ...(min === null ? {} : { minItems: min }), ...(max === null ? {} : { maxItems: max }), items: { anyOf: ['EU', 'US', 'Asia', 'South America'].map((t) => ({ const: t.toLowerCase(), title: t })) } },
      },
    },
  });
  if (E.isLeft(card)) throw new Error('the rollout schema is supported');
  return card.right;
};

describe('readCard', () => {
  it('never throws, whatever the card, and never quotes a value in its refusal', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const read = readCard(raw);
        if (E.isLeft(read)) expect(read.left.message).not.toMatch(/secret-value/);
      }),
    );
    const refused = readCard({ cardId: 7, origin: 'secret-value' });
    expect(refused).toMatchObject({ left: { _tag: 'InvalidCard' } });
    expect(E.isLeft(refused) && refused.left.message).not.toContain('secret-value');
  });

  it('reads every generated plugin form into one field per question, starting on the schema defaults', () => {
    fc.assert(
      fc.property(formCards, (card) => {
        const model = modelOf(card);
        expect(model.kind).toBe('form');
        expect(model.fields.map((f) => f.id)).toEqual(card.questions.map((q) => q.id));
        // The page's first reply names exactly the defaults the mapper names (first option, or the schema default).
        const defaults = defaultAnswers(card).answers;
        const reply = replyOf(model);
        if (!('answers' in reply)) throw new Error('replyOf answers the questions');
        for (const field of model.fields) {
          const sent = reply.answers[field.id]?.answers ?? [];
          const expected = defaults[field.id]?.answers;
          if (field.kind === 'choice' || field.kind === 'multi') expect(sent).toEqual(expected ?? []);
          else if (expected !== undefined) expect(sent).toEqual(expected);
        }
        expect(model.submitOnSelect).toBe(card.submitOnSelect && card.questions.length === 1);
      }),
    );
  });

  it('reads an approval from its own questions: the advertised decisions in order, with their explanations, and nothing of its own', () => {
    const questions = [
      {
        id: 'decision',
        header: 'Run a command',
        question: 'Codex wants to run a command: touch approved.txt',
        isOther: false,
        isSecret: false,
        options: [
          { label: 'Run once', description: 'Allow this command this time; ask again next time.' },
          { label: 'Stop the task', description: 'Refuse this command and stop the task.' },
        ],
      },
    ];
    const model = readCard({ cardId: 'c', origin: 'commandApproval', kind: 'approval', threadId: 't', turnId: 'u', serverName: null, message: null, questions: questions.map((q) => plainHostQuestion(q, 'approval')), submitOnSelect: true, error: null });
    expect(E.isRight(model)).toBe(true);
    if (E.isLeft(model)) return;
    expect(model.right.kind).toBe('approval');
    expect(model.right.fields).toEqual([{ kind: 'choice', id: 'decision', header: 'Run a command', question: questions[0]?.question, options: questions[0]?.options, selected: 0 }]);
    expect(offersCancel(model.right) || offersDecline(model.right)).toBe(false);
    expect(submitOption(model.right, 'decision', 1)).toEqual({ _tag: 'Send', reply: { answers: { decision: { answers: ['Stop the task'] } } } });
  });

  it('reads a Codex input request: options as a choice, a secret as a secret text, Cancel but no Decline', () => {
    const model = readCard({
      cardId: 'c',
      origin: 'requestUserInput',
      threadId: 't',
      turnId: null,
      serverName: null,
      message: null,
      kind: 'input',
      questions: [
        plainHostQuestion({ id: 'color', header: 'Color', question: 'Which?', isOther: false, isSecret: false, options: [{ label: 'Red', description: '' }] }, 'singleChoice'),
        plainHostQuestion({ id: 'pin', header: 'PIN', question: 'Your PIN', isOther: false, isSecret: true, options: null }, 'text'),
      ],
      submitOnSelect: false,
    });
    expect(E.isRight(model) && model.right.fields.map((f) => [f.kind, f.kind === 'text' && f.secret])).toEqual([
      ['choice', false],
      ['text', true],
    ]);
    expect(E.isRight(model) && [offersCancel(model.right), offersDecline(model.right)]).toEqual([true, false]);
  });
});

describe('what the page sends', () => {
  it('always fits the card by the executor rule, whatever the user did, or is held back with a problem', () => {
    const edit = fc.record({ field: fc.nat(), index: fc.nat({ max: 6 }), text: fc.oneof(fc.string(), fc.integer().map(String), fc.double().map(String)), kind: fc.constantFrom('select', 'toggle', 'text') });
    fc.assert(
      fc.property(formCards, fc.array(edit, { maxLength: 12 }), (card, edits) => {
        let model = modelOf(card);
        for (const e of edits) {
          const field = model.fields[e.field % Math.max(1, model.fields.length)];
          if (field === undefined) continue;
          model = e.kind === 'select' ? selectOption(model, field.id, e.index) : e.kind === 'toggle' ? toggleOption(model, field.id, e.index)[0] : setText(model, field.id, e.text);
        }
        const outcome = submit(model);
        if (outcome._tag === 'Send') {
          expect(answerRefusal(card, outcome.reply)).toBeNull();
          // Numbers reach the plugin within their range.
          const content = answersToContent(card, outcome.reply);
          for (const field of model.fields) {
            const value = content[field.id];
            if (field.kind === 'number' && typeof value === 'number') {
              if (field.minimum !== null) expect(value).toBeGreaterThanOrEqual(field.minimum);
              if (field.maximum !== null) expect(value).toBeLessThanOrEqual(field.maximum);
            }
          }
        } else {
          expect(outcome.problems.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('sends text even when empty, and leaves an empty number unanswered', () => {
    const text: Field = { kind: 'text', id: 'note', header: 'Note', question: 'Note', value: '', format: null, minLength: null, maxLength: null, secret: false };
    const number: Field = { kind: 'number', id: 'n', header: 'N', question: 'N', value: ' ', integer: true, minimum: 1, maximum: 9 };
    const card: HostCard = {
      cardId: 'c',
      origin: 'mcpElicitation',
      kind: 'form',
      threadId: 't',
      turnId: null,
      serverName: null,
      message: null,
      questions: [
        plainHostQuestion({ id: 'note', header: 'Note', question: 'Note', isOther: false, isSecret: false, options: null }, 'text'),
        { ...plainHostQuestion({ id: 'n', header: 'N', question: 'N', isOther: false, isSecret: false, options: null }, 'integer'), minimum: 1, maximum: 9 },
      ],
      submitOnSelect: false,
    };
    const model: CardModel = { cardId: 'c', origin: 'mcpElicitation', threadId: 't', kind: 'form', message: null, serverName: null, fields: [text, number], submitOnSelect: false, error: null, card };
    expect(submit(model)).toEqual({ _tag: 'Send', reply: { answers: { note: { answers: [''] }, n: { answers: [] } } } });
  });
});

describe('the multi-select', () => {
  it('never holds more than maxItems picks, in option order, and refuses exactly the picks beyond it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(fc.nat({ max: 3 }), { maxLength: 20 }), (max, clicks) => {
        let model = modelOf(rolloutCard(max));
        for (const index of clicks) {
          const before = model.fields[0];
          const [next, outcome] = toggleOption(model, 'regions', index);
          model = next;
          const field = model.fields[0];
          if (field?.kind !== 'multi' || before?.kind !== 'multi') throw new Error('a multi-select');
          expect(field.selected.length).toBeLessThanOrEqual(max);
          expect([...field.selected]).toEqual([...new Set(field.selected)].sort((a, b) => a - b));
          expect(outcome === 'refused').toBe(!before.selected.includes(index) && before.selected.length >= max);
        }
      }),
    );
  });

  it('holds back fewer picks than minItems before sending', () => {
    const model = modelOf(rolloutCard(3, 1));
    expect(submit(model)).toEqual({ _tag: 'Problems', problems: [{ fieldId: 'regions', message: 'Pick at least 1 option.' }] });
    const [picked] = toggleOption(model, 'regions', 2);
    expect(submit(picked)).toEqual({ _tag: 'Send', reply: { answers: { regions: { answers: ['Asia'] } } } });
  });
});

describe('field problems', () => {
  const numberField = (value: string, integer: boolean): Field => ({ kind: 'number', id: 'n', header: 'N', question: 'N', value, integer, minimum: 1, maximum: 9 });
  const textField = (value: string, format: string | null): Field => ({ kind: 'text', id: 't', header: 'T', question: 'T', value, format, minLength: null, maxLength: null, secret: false });

  it('refuses numbers outside the range and text that is no number, and takes those inside', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (n) => {
        const problem = fieldProblem(numberField(String(n), true));
        expect(problem === null).toBe(n >= 1 && n <= 9);
      }),
    );
    expect(fieldProblem(numberField('3.5', true))).toBe('Enter a whole number.');
    expect(fieldProblem(numberField('3.5', false))).toBeNull();
    expect(fieldProblem(numberField('three', false))).toBe('Enter a number.');
    expect(fieldProblem(numberField('', true))).toBeNull();
    expect(parseFieldNumber('1e3', false)).toBe(1000);
    expect(parseFieldNumber('0x10', false)).toBeUndefined();
  });

  it('checks the format hints email, uri and date only when there is text', () => {
    expect(fieldProblem(textField('', 'email'))).toBeNull();
    expect(fieldProblem(textField('ada@example.com', 'email'))).toBeNull();
    expect(fieldProblem(textField('ada', 'email'))).toBe('Enter an email address, like name@example.com.');
    expect(fieldProblem(textField('https://example.com/x', 'uri'))).toBeNull();
    expect(fieldProblem(textField('example.com', 'uri'))).toBe('Enter a full address, like https://example.com.');
    expect(fieldProblem(textField('2026-02-28', 'date'))).toBeNull();
    expect(fieldProblem(textField('2026-02-30', 'date'))).toBe('Enter a date as YYYY-MM-DD.');
    expect(fieldProblem(textField('anything', 'color'))).toBeNull();
    fc.assert(fc.property(fc.string(), fc.constantFrom('email', 'uri', 'date', null), (value, format) => void fieldProblem(textField(value, format))));
  });
});
