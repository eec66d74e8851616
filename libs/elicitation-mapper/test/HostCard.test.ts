/**
 * The mapper's card as the protocol's card, the typed Codex entry, and the refused-answer step.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { McpServerElicitationRequestParams } from '@wework/codex-protocol';
import { HostQuestion } from '@wework/host-protocol';
import {
  answerRefusal,
  elicitationToCard,
  handleCodexElicitationRequest,
  handleElicitationRequest,
  hostCardKindOf,
  hostQuestionsOf,
  hostUrlOf,
  nextCardShow,
} from '../src/index.js';
import { CARD_SHOWS } from '../src/CardShows.js';
import { answersForCard, codexElicitationRequestParamsArbitrary, codexToolApprovalParamsArbitrary } from '../src/testing.js';

const card = elicitationToCard({
  mode: 'form',
  message: 'Roll out',
  requestedSchema: {
    type: 'object',
    properties: {
      target: { type: 'string', title: 'Target', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }], default: 'production' },
      regions: { type: 'array', minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'eu', title: 'EU' }, { const: 'us', title: 'US' }] }, default: ['us'] },
      note: { type: 'string', format: 'email', maxLength: 40, default: 'ops@example.com' },
      replicas: { type: 'integer', minimum: 1, maximum: 9 },
      confirm: { type: 'boolean', default: false },
    },
    required: ['target'],
  },
});
if (E.isLeft(card)) throw new Error(card.left.message);

describe('hostQuestionsOf', () => {
  test('each question keeps its answer type, default answer (as labels or text) and limits', () => {
    const byId = Object.fromEntries(hostQuestionsOf(card.right).map((q) => [q.id, q]));
    expect(byId['target']).toMatchObject({ answerType: 'singleChoice', required: true, defaultAnswers: ['Production'], options: [{ label: 'Staging' }, { label: 'Production' }] });
    expect(byId['regions']).toMatchObject({ answerType: 'multiChoice', required: false, defaultAnswers: ['US'], minItems: 1, maxItems: 2 });
    expect(byId['note']).toMatchObject({ answerType: 'text', options: null, defaultAnswers: ['ops@example.com'], format: 'email', maxLength: 40 });
    expect(byId['replicas']).toMatchObject({ answerType: 'integer', defaultAnswers: [], minimum: 1, maximum: 9 });
    expect(byId['confirm']).toMatchObject({ answerType: 'boolean', defaultAnswers: ['false'] });
    expect(hostCardKindOf(card.right)).toBe('form');
  });

  test('every question of every card the mapper builds fits the protocol\'s question codec', () => {
    fc.assert(
      fc.property(fc.oneof(codexElicitationRequestParamsArbitrary.map(({ params }) => params), codexToolApprovalParamsArbitrary), (params) => {
        const built = elicitationToCard(params);
        if (E.isLeft(built)) return;
        const questions = hostQuestionsOf(built.right);
        expect(questions.map((q) => q.id)).toEqual(built.right.questions.map((q) => q.id));
        for (const question of questions) expect(HostQuestion.is(question)).toBe(true);
        expect(hostCardKindOf(built.right)).toBe(built.right._tag === 'FormCard' ? 'form' : 'toolApproval');
      }),
      { numRuns: 200 },
    );
  });
});

describe('one strict reading for both cards', () => {
  test('an answer is refused on the protocol card exactly when, and as, it is refused on the mapper card', () => {
    const cards = fc.oneof(codexElicitationRequestParamsArbitrary.map(({ params }) => params), codexToolApprovalParamsArbitrary).chain((params) => {
      const built = elicitationToCard(params);
      return E.isLeft(built) ? fc.constant(null) : fc.tuple(fc.constant(built.right), answersForCard(built.right));
    });
    fc.assert(
      fc.property(cards, (pair) => {
        if (pair === null) return;
        const [mapperCard, reply] = pair;
        expect(answerRefusal({ questions: hostQuestionsOf(mapperCard) }, reply)).toEqual(answerRefusal(mapperCard, reply));
      }),
      { numRuns: 300 },
    );
  });

  test('options carry the values they stand for', () => {
    const target = hostQuestionsOf(card.right).find((q) => q.id === 'target');
    expect(target?.options?.map((o) => o.value)).toEqual(['staging', 'production']);
  });
});

describe('handleCodexElicitationRequest', () => {
  test('decides as the untyped entry does, on params Codex already decoded', () => {
    fc.assert(
      fc.property(fc.oneof(codexElicitationRequestParamsArbitrary.map(({ params }) => params), codexToolApprovalParamsArbitrary), (params) => {
        expect(handleCodexElicitationRequest(params as McpServerElicitationRequestParams)).toEqual(handleElicitationRequest(params));
      }),
      { numRuns: 200 },
    );
  });

  test('a URL-mode request with a javascript: link is declined with the scheme named; an https one is a url card', () => {
    const declined = handleCodexElicitationRequest({ threadId: 't', turnId: null, serverName: 's', environmentId: null, mode: 'url', _meta: null, message: 'Open', url: 'javascript:alert(1)', elicitationId: 'e' });
    expect(declined).toMatchObject({ _tag: 'Respond', response: { action: 'decline' }, reason: { _tag: 'UnsupportedUrl', problem: 'scheme', scheme: 'javascript' } });
    const shown = handleCodexElicitationRequest({ threadId: 't', turnId: null, serverName: 's', environmentId: null, mode: 'url', _meta: null, message: 'Open', url: 'https://example.com', elicitationId: 'e' });
    expect(shown).toMatchObject({ _tag: 'ShowCard', card: { _tag: 'UrlCard', source: { serverName: 's', threadId: 't', turnId: null } } });
    expect(shown._tag === 'ShowCard' && hostCardKindOf(shown.card)).toBe('url');
    expect(shown._tag === 'ShowCard' && hostUrlOf(shown.card)).toEqual({ url: 'https://example.com/', scheme: 'https', host: 'example.com', elicitationId: 'e' });
  });
});

describe('nextCardShow', () => {
  const refusal = { questionId: 'regions', problem: 'TooManyPicks', message: 'regions: 3 picks, at most 2 allowed' };
  test('a fitting answer is the response; a refused one is shown again until the shows are used up, then the fallback', () => {
    expect(nextCardShow(1, E.right('ok'), 'cancel', false)).toEqual({ _tag: 'Respond', response: 'ok', refusedTooOften: false });
    expect(nextCardShow(1, E.left(refusal), 'cancel', false)).toEqual({ _tag: 'ShowAgain', error: { ...refusal, attemptsLeft: 2 } });
    expect(nextCardShow(2, E.left(refusal), 'cancel', false)).toEqual({ _tag: 'ShowAgain', error: { ...refusal, attemptsLeft: 1 } });
    expect(nextCardShow(CARD_SHOWS, E.left(refusal), 'cancel', false)).toEqual({ _tag: 'Respond', response: 'cancel', refusedTooOften: true });
    expect(nextCardShow(1, E.left(refusal), 'decline', true)).toEqual({ _tag: 'Respond', response: 'decline', refusedTooOften: true });
  });

  test('a card is shown at most CARD_SHOWS times, whatever the answers', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }), (fits) => {
        let shows = 0;
        for (const fit of fits) {
          shows += 1;
          const step = nextCardShow(shows, fit ? E.right('answer') : E.left(refusal), 'cancel', false);
          if (step._tag === 'Respond') {
            expect(step.response).toBe(fit ? 'answer' : 'cancel');
            break;
          }
          expect(step.error.attemptsLeft).toBe(CARD_SHOWS - shows);
        }
        expect(shows).toBeLessThanOrEqual(CARD_SHOWS);
      }),
    );
  });
});
