/**
 * The refused-answer rule of `card/show` over a connection (the card router's `answerCard` over the host
 * sessions, which only send and receive): a misfit answer shows the card again with an `error`, at most
 * three times in all, then the request gets cancel (decline for execution approvals); and what goes to a
 * host is wire JSON even when decoded values hold bigints. A card goes to the host that sent its task's
 * message, also after the task's thread was replaced.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { collectedAfterGc } from '@wework/test-support';
import { approvalAnswerMisfit, approvalCard, approvalQuestions, responseForApprovalCard } from '@wework/approval-policy';
import { cancelResult, checkedResponseForCard, elicitationToCard, hostQuestionsOf, type ElicitResult } from '@wework/elicitation-mapper';
import { plainHostQuestion, type HostCard } from '@wework/host-protocol';
import { answerCard, type CardDecision } from '../src/cards/CardRouter.js';
import type { ExecutorHost } from '../src/cards/ExecutorHost.js';
import { hostSessions } from '../src/host/HostSessions.js';

/** A connection whose host answers every `card/show` with the next of `answers` (the last one repeats). */
function fakeConnection(answers: ReadonlyArray<unknown>) {
  const shown: Array<{ card: HostCard }> = [];
  const notified: Array<{ method: string; params: unknown }> = [];
  const connection = {
    sendRequest: (_method: string, params: { card: HostCard }) => {
      shown.push(JSON.parse(JSON.stringify(params)) as { card: HostCard });
      return Promise.resolve(answers[Math.min(shown.length, answers.length) - 1]);
    },
    sendNotification: (method: string, params: unknown) => {
      notified.push({ method, params: JSON.parse(JSON.stringify(params)) });
      return Promise.resolve();
    },
  } as unknown as MessageConnection;
  return { connection, shown, notified };
}

const log = () => undefined;

const mapperCard = elicitationToCard({
  threadId: 't',
  turnId: 'u',
  serverName: 'forms',
  mode: 'form',
  message: 'Choose where to roll out',
  requestedSchema: { type: 'object', properties: { regions: { type: 'array', minItems: 1n, maxItems: 3n, items: { anyOf: [{ const: 'eu', title: 'EU' }, { const: 'us', title: 'US' }, { const: 'ap', title: 'Asia' }, { const: 'sa', title: 'South America' }] } } } },
});
if (E.isLeft(mapperCard)) throw new Error(mapperCard.left.message);
const card: HostCard = {
  cardId: 'mcpServer/elicitation/request#0',
  origin: 'mcpElicitation',
  kind: 'form',
  threadId: 't',
  turnId: 'u',
  serverName: 'forms',
  message: 'Choose where to roll out',
  questions: hostQuestionsOf(mapperCard.right),
  submitOnSelect: false,
};
const form = mapperCard.right;
/** The decision the elicitation adapter makes for the form: the mapper's checked answer. */
const formDecision: Extract<CardDecision<ElicitResult>, { _tag: 'Show' }> = {
  _tag: 'Show',
  card,
  answer: (reply) => E.map((response: ElicitResult) => ({ response }))(checkedResponseForCard(form, reply)),
  cancelled: () => ({ response: cancelResult() }),
  refusedTooOften: () => ({ response: cancelResult() }),
};
/** Shows `shown` over `host` until answered; the response the request gets. */
const answered = async <R>(host: ExecutorHost, shown: HostCard, decision: Extract<CardDecision<R>, { _tag: 'Show' }>, controller = new AbortController()) =>
  (await answerCard(host, shown, decision, controller, log)).response;
const tooMany = { answers: { regions: { answers: ['EU', 'US', 'Asia', 'South America'] } } };
const two = { answers: { regions: { answers: ['EU', 'Asia'] } } };

describe('card/show and refused answers', () => {
  it('shows the card again with the error; an answer that fits is mapped as given', async () => {
    const fake = fakeConnection([tooMany, two]);
    const sessions = hostSessions(log);
    sessions.add(fake.connection);
    expect(await answered(sessions, card, formDecision)).toEqual({ action: 'accept', content: { regions: ['eu', 'ap'] }, _meta: null });
    expect(fake.shown.map((params) => params.card.error ?? null)).toEqual([
      null,
      { questionId: 'regions', problem: 'TooManyPicks', message: 'regions: 4 picks, at most 3 allowed', attemptsLeft: 2 },
    ]);
    expect(fake.shown[0]?.card.questions).toMatchObject([{ id: 'regions', answerType: 'multiChoice', minItems: 1, maxItems: 3 }]);
  });

  it('after three refused answers the request gets cancel; an execution approval gets decline', async () => {
    const fake = fakeConnection([{ answers: { colour: { answers: ['red'] } } }]);
    const sessions = hostSessions(log);
    sessions.add(fake.connection);
    expect(await answered(sessions, card, formDecision)).toEqual(cancelResult());
    expect(fake.shown.map((params) => params.card.error?.attemptsLeft ?? null)).toEqual([null, 2, 1]);
    expect(new Set(fake.shown.map((params) => params.card.cardId)).size).toBe(1);
    const command = approvalCard('item/commandExecution/requestApproval', {
      threadId: 't',
      turnId: 'u',
      itemId: 'call_0',
      startedAtMs: 1,
      environmentId: 'local',
      kind: 'command',
      reason: 'create the marker file',
      command: "/bin/bash -lc 'touch x'",
      cwd: '/workspace',
      commandActions: [{ type: 'unknown', command: 'touch x' }],
      availableDecisions: ['accept', 'cancel'],
    });
    if (E.isLeft(command)) throw new Error(command.left.message);
    const approval = command.right;
    const approvalHostCard: HostCard = { ...card, origin: 'commandApproval', kind: 'approval', questions: approvalQuestions(approval).map((q) => plainHostQuestion(q, 'approval', approval.decisions)) };
    const decision: Extract<CardDecision<unknown>, { _tag: 'Show' }> = {
      _tag: 'Show',
      card: approvalHostCard,
      answer: (reply) => {
        const misfit = approvalAnswerMisfit(approval, reply);
        return misfit === null ? E.right({ response: responseForApprovalCard(approval, reply).response }) : E.left({ questionId: 'decision', problem: misfit._tag, message: misfit.message });
      },
      cancelled: () => ({ response: responseForApprovalCard(approval, { action: 'cancel' }).response }),
      refusedTooOften: () => ({ response: responseForApprovalCard(approval, { action: 'decline' }).response }),
    };
    expect(await answered(sessions, approvalHostCard, decision)).toEqual({ decision: 'decline' });
  });

  it('a card settled meanwhile is not shown again', async () => {
    const controller = new AbortController();
    const fake = fakeConnection([tooMany]);
    const sessions = hostSessions(log);
    sessions.add(fake.connection);
    const connection = fake.connection as unknown as { sendRequest: (m: string, p: { card: HostCard }) => Promise<unknown> };
    const send = connection.sendRequest;
    connection.sendRequest = (method, params) => {
      const answer = send(method, params);
      controller.abort();
      return answer;
    };
    expect(await answered(sessions, card, formDecision, controller)).toEqual(cancelResult());
    expect(fake.shown).toHaveLength(1);
  });

  it('an answered card keeps nothing alive for as long as its host stays connected', async () => {
    const sessions = hostSessions(log);
    const answers: Array<WeakRef<object>> = [];
    const connection = {
      sendRequest: () => {
        const answer = { answers: { regions: { answers: ['x'.repeat(1000)] } } };
        answers.push(new WeakRef(answer));
        return Promise.resolve(answer);
      },
      sendNotification: () => Promise.resolve(),
    } as unknown as MessageConnection;
    sessions.add(connection);
    /** Shows one card to the end; nothing of its answer leaves this function. */
    const showOne = async (): Promise<void> => {
      const raw = await sessions.showCard(card, new AbortController().signal);
      if (raw === undefined) throw new Error('no answer');
    };
    for (let i = 0; i < 3; i += 1) await showOne();
    expect(sessions.count()).toBe(1);
    expect(await collectedAfterGc(answers)).toEqual([true, true, true]);
  });

  it('a card settled meanwhile is over at once though its host never answers: cancel, dismissed, no longer pending', { timeout: 5_000 }, async () => {
    const notified: Array<{ method: string; params: unknown }> = [];
    const tokens: Array<{ readonly isCancellationRequested: boolean }> = [];
    const connection = {
      sendRequest: (_method: string, _params: unknown, token: { readonly isCancellationRequested: boolean }) => {
        tokens.push(token);
        return new Promise<never>(() => undefined);
      },
      sendNotification: (method: string, params: unknown) => {
        notified.push({ method, params });
        return Promise.resolve();
      },
    } as unknown as MessageConnection;
    const sessions = hostSessions(log);
    const session = sessions.add(connection);
    const controller = new AbortController();
    const settled = sessions.showCard(card, controller.signal);
    expect(sessions.pendingCards(session).map((pending) => pending.cardId)).toEqual([card.cardId]);
    controller.abort();
    expect(await settled).toEqual({ action: 'cancel' });
    // The request was cancelled (the executor sends $/cancelRequest) and the card is no longer pending.
    expect(tokens.map((token) => token.isCancellationRequested)).toEqual([true]);
    expect(sessions.pendingCards(session)).toEqual([]);
    expect(notified).toEqual([{ method: 'card/dismissed', params: { cardId: card.cardId, seq: 1 } }]);
  });

  it('notifications are wire JSON: a bigint goes out as its number', () => {
    const fake = fakeConnection([]);
    const sessions = hostSessions(log);
    sessions.add(fake.connection);
    sessions.broadcast('transcript/item', { item: { durationMs: 12n } });
    expect(fake.notified).toEqual([{ method: 'transcript/item', params: { item: { durationMs: 12 }, seq: 1 } }]);
  });
});

describe('card owners', () => {
  it('a card goes to the host that sent its task\'s message, also on the thread that replaced the task\'s thread', async () => {
    const threadOfTask = new Map([['task-1', 't']]);
    const taskOf = (threadId: string): string | undefined => [...threadOfTask].find(([, thread]) => thread === threadId)?.[0];
    const sessions = hostSessions(log, taskOf);
    const sender = fakeConnection([two]);
    const other = fakeConnection([two]);
    const senderSession = sessions.add(sender.connection);
    sessions.add(other.connection);
    sessions.claimThread('t', senderSession);
    threadOfTask.set('task-1', 't2');
    expect(await sessions.showCard({ ...card, threadId: 't2' }, new AbortController().signal)).toEqual(two);
    expect(sender.shown).toHaveLength(1);
    expect(other.shown).toHaveLength(0);
    // A thread of no known task: the most recent host.
    expect(await sessions.showCard({ ...card, threadId: 'elsewhere' }, new AbortController().signal)).toEqual(two);
    expect(other.shown).toHaveLength(1);
    sessions.claimTask('task-1', sessions.add(fakeConnection([two]).connection));
    expect(await sessions.showCard({ ...card, threadId: 't2' }, new AbortController().signal)).toEqual(two);
    expect(sender.shown).toHaveLength(1);
  });
});
