import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerCard, questionIds, type CardRequest } from '../src/ScriptedUser.js';

const form = (properties: Record<string, unknown>, serverName = 'forms'): CardRequest => ({
  method: 'mcpServer/elicitation/request',
  params: { threadId: 't', turnId: 'u', serverName, environmentId: null, mode: 'form', _meta: null, message: 'm', requestedSchema: { type: 'object', properties } },
});
const input = (...ids: string[]): CardRequest => ({
  method: 'item/tool/requestUserInput',
  params: { threadId: 't', turnId: 'u', itemId: 'i', isBlocking: true, autoResolutionMs: null, questions: ids.map((id) => ({ id, header: id, question: id, isOther: false, isSecret: false, options: null })) },
});
const command: CardRequest = { method: 'item/commandExecution/requestApproval', params: { threadId: 't', turnId: 'u', itemId: 'i', command: 'ls' } };

describe('questionIds', () => {
  it('reads form property keys and requestUserInput question ids, in order', () => {
    expect(questionIds(form({ b: {}, a: {} }))).toEqual(['b', 'a']);
    expect(questionIds(input('x', 'y'))).toEqual(['x', 'y']);
    expect(questionIds(command)).toEqual([]);
  });

  it('never throws on arbitrary params', () => {
    fc.assert(fc.property(fc.string(), fc.jsonValue(), (method, params) => Array.isArray(questionIds({ method, params }))));
  });
});

describe('answerCard', () => {
  it('uses ordered answers first, skipping consumed ones and ones whose filters do not match', () => {
    const user = {
      answers: [
        { method: 'item/commandExecution/requestApproval', decision: 'accept' },
        { serverName: 'other', action: 'decline' as const },
        { action: 'accept' as const, content: { target: 'production' } },
      ],
    };
    expect(answerCard(user, new Set(), form({ target: {} }))).toEqual({
      response: { action: 'accept', content: { target: 'production' }, _meta: null },
      source: { _tag: 'Ordered', index: 2 },
    });
    expect(answerCard(user, new Set([2]), form({ target: {} }, 'other')).response).toEqual({ action: 'decline', content: null, _meta: null });
    expect(answerCard(user, new Set(), command)).toEqual({ response: { decision: 'accept' }, source: { _tag: 'Ordered', index: 0 } });
  });

  it('answers by question id when every question has a value', () => {
    const user = { byQuestionId: { target: 'staging', confirm: true } };
    expect(answerCard(user, new Set(), form({ target: {} })).response).toEqual({ action: 'accept', content: { target: 'staging' }, _meta: null });
    expect(answerCard(user, new Set(), input('target', 'confirm')).response).toEqual({ answers: { target: { answers: ['staging'] }, confirm: { answers: ['true'] } } });
  });

  it('cancels an unscripted card and reports the problem unless told otherwise', () => {
    const answer = answerCard(undefined, new Set(), form({ target: {} }));
    expect(answer.response).toEqual({ action: 'cancel', content: null, _meta: null });
    expect(answer.problem).toMatch(/no scripted answer for mcpServer\/elicitation\/request \(question ids: target\)/);
    const declined = answerCard({ otherwise: 'decline' }, new Set(), command);
    expect(declined).toEqual({ response: { decision: 'decline' }, source: { _tag: 'Otherwise', policy: 'decline', unscripted: true } });
  });

  it('flags an approval decision given to a form, and a card answer given to an approval', () => {
    expect(answerCard({ answers: [{ decision: 'accept' }] }, new Set(), form({ a: {} })).problem).toMatch(/is a decision/);
    expect(answerCard({ answers: [{ content: {} }] }, new Set(), command).problem).toMatch(/has no decision/);
  });

  it('grants the requested permissions for a permissions approval, with the scope of the decision', () => {
    const request: CardRequest = { method: 'item/permissions/requestApproval', params: { permissions: { network: { enabled: true } } } };
    expect(answerCard({ answers: [{ decision: 'acceptForSession' }] }, new Set(), request).response).toEqual({ permissions: { network: { enabled: true } }, scope: 'session' });
    expect(answerCard({ answers: [{ decision: 'decline' }] }, new Set(), request).response).toEqual({ permissions: {}, scope: 'turn' });
  });

  it('sends a verbatim response', () => {
    expect(answerCard({ answers: [{ respond: { anything: 1 } }] }, new Set(), command).response).toEqual({ anything: 1 });
  });

  it('consumes ordered answers in order across many cards', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('accept', 'decline', 'cancel'), { maxLength: 10 }), (decisions) => {
        const user = { answers: decisions.map((decision) => ({ decision })) };
        const consumed = new Set<number>();
        const seen = decisions.map(() => {
          const answer = answerCard(user, consumed, command);
          if (answer.source._tag === 'Ordered') consumed.add(answer.source.index);
          return answer.response['decision'];
        });
        expect(seen).toEqual(decisions);
      }),
    );
  });
});
