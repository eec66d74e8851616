/**
 * The example at the top of README.md, kept compiling and passing, against an executor in memory.
 */
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import { createHostClient, describeHostClientError } from '../src/index.js';
import { fakeExecutor } from '../src/testing.js';

test('README example', async () => {
  const executor = fakeExecutor({
    onMessage: (m, c) => {
      if (m['method'] === 'events/subscribe') c.answer(m['id'], { reset: false, seq: 0 });
      if (m['method'] === 'cards/pending') c.answer(m['id'], { cards: [] });
      if (m['method'] === 'task/create') c.answerError(m['id'], -32002, 'the task exists', { tag: 'TaskExists' });
    },
  });
  const workspace = '/w';
  const deltas: string[] = [];
  const append = (delta: string): number => deltas.push(delta);
  const shown: string[] = [];
  const show = (message: string): number => shown.push(message);

  // In the README: `browserWebSocketTransport('ws://127.0.0.1:43117/', token)`; here the executor in memory.
  const connect = executor.connect;
  // --- README example begins ---
  const client = createHostClient({ connect });
  client.onCard(async (card) => ({ answers: { [card.questions[0]!.id]: { answers: ['Safe'] } } }));
  client.onNotification('transcript/agentMessageDelta', (params) => append(params.delta));
  await client.start(); // opens, then events/subscribe and cards/pending
  const created = await client.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace } });
  if (E.isLeft(created)) show(describeHostClientError(created.left)); // ExecutorError (code, data.tag), Busy, TimedOut, …
  // --- README example ends ---

  executor.latest().send({ jsonrpc: '2.0', method: 'transcript/agentMessageDelta', params: { taskId: 'task-1', threadId: 't', turnId: 'u', itemId: 'i', delta: 'Aye', seq: 1 } });
  expect(deltas).toEqual(['Aye']);
  expect(shown).toEqual(['the task exists (-32002, TaskExists)']);
  await client.close();
});
