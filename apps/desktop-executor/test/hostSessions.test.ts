/**
 * The refused-answer rule of `card/show` over a connection: a misfit answer shows the card again with an
 * `error`, at most three times in all, then the request gets cancel (decline for execution approvals);
 * and what goes to a host is wire JSON even when decoded values hold bigints. A card goes to the host that
 * sent its task's message, also after the task's thread was replaced.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { approvalCard } from '@wework/approval-policy';
import { elicitationToCard } from '@wework/elicitation-mapper';
import type { HostCard } from '@wework/host-protocol';
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
  threadId: 't',
  turnId: 'u',
  serverName: 'forms',
  message: 'Choose where to roll out',
  questions: [{ id: 'regions', header: 'Regions', question: 'Regions', isOther: false, isSecret: false, options: [{ label: 'EU', description: '' }] }],
  submitOnSelect: false,
  card: mapperCard.right,
  approval: null,
};
const tooMany = { answers: { regions: { answers: ['EU', 'US', 'Asia', 'South America'] } } };
const two = { answers: { regions: { answers: ['EU', 'Asia'] } } };
const log = () => undefined;

describe('card/show and refused answers', () => {
  it('shows the card again with the error; an answer that fits is returned as given', async () => {
    const fake = fakeConnection([tooMany, two]);
    const sessions = hostSessions(log);
    sessions.add(fake.connection);
    expect(await sessions.showCard(card, new AbortController().signal)).toEqual(two);
    expect(fake.shown.map((params) => params.card.error ?? null)).toEqual([
      null,
      { questionId: 'regions', problem: 'TooManyPicks', message: 'regions: 4 picks, at most 3 allowed', attemptsLeft: 2 },
    ]);
    expect(fake.shown[0]?.card.card).toMatchObject({ questions: [{ minItems: 1, maxItems: 3 }] });
  });

  it('after three refused answers the request gets cancel; an execution approval gets decline', async () => {
    const fake = fakeConnection([{ answers: { colour: { answers: ['red'] } } }]);
    const sessions = hostSessions(log);
    sessions.add(fake.connection);
    expect(await sessions.showCard(card, new AbortController().signal)).toEqual({ action: 'cancel' });
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
    const approval: HostCard = { ...card, card: null, origin: 'commandApproval', approval: command.right };
    expect(await sessions.showCard(approval, new AbortController().signal)).toEqual({ action: 'decline' });
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
    expect(await sessions.showCard(card, controller.signal)).toEqual({ action: 'cancel' });
    expect(fake.shown).toHaveLength(1);
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
