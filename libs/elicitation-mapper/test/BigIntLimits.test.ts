/**
 * Codex's `i64`/`u64` schema fields (`minItems`, `maxItems`) arrive as `bigint`s once the protocol codec
 * decoded the request: the card shows them as the numbers they stand for, and a card is always JSON.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { McpServerElicitationRequest } from '@wework/codex-protocol';
import { elicitationToCard, type FormCard } from '../src/index.js';
import type { MultiChoiceQuestion } from '../src/Card.js';

const request = (limits: Record<string, unknown>) => ({
  threadId: 't',
  turnId: 'u',
  serverName: 'forms',
  mode: 'form',
  _meta: null,
  message: 'Pick regions',
  requestedSchema: { type: 'object', properties: { regions: { type: 'array', items: { type: 'string', enum: ['eu', 'us', 'ap', 'sa'] }, ...limits } } },
});

const multiOf = (params: unknown): MultiChoiceQuestion => {
  const card = elicitationToCard(params);
  if (E.isLeft(card) || card.right._tag !== 'FormCard') throw new Error('expected a form card');
  return (card.right as FormCard).questions[0] as MultiChoiceQuestion;
};

describe('bigint limits from the protocol codec', () => {
  test('the decoded request holds bigints, and the card shows them as numbers', () => {
    const decoded = McpServerElicitationRequest.params.decode(request({ minItems: 1, maxItems: 3 }));
    if (E.isLeft(decoded)) throw new Error('the request must decode');
    expect(JSON.stringify(decoded.right, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).toContain('"maxItems":"3n"');
    const question = multiOf(decoded.right);
    expect(question).toMatchObject({ minItems: 1, maxItems: 3 });
    expect(() => JSON.stringify(question)).not.toThrow();
  });

  test('a bigint limit reads exactly as the same number would, for every safe count', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (min, max) => {
        expect(multiOf(request({ minItems: BigInt(min), maxItems: BigInt(max) }))).toStrictEqual(multiOf(request({ minItems: min, maxItems: max })));
      }),
    );
  });

  test('a bigint beyond the safe integer range is no limit, never a nearby wrong number', () => {
    expect(multiOf(request({ minItems: 2n ** 60n, maxItems: 2n ** 64n + 1n }))).toMatchObject({ minItems: null, maxItems: null });
    expect(multiOf(request({ minItems: -1n }))).toMatchObject({ minItems: null });
  });
});
