/**
 * End to end, the real desktop executor over its WebSocket (the real app-server, the sample forms
 * plugin, a scripted model): a host drops its connection mid-turn while a plugin form waits; the client
 * reconnects by itself after its backoff, resumes with `events/subscribe { after }` then `cards/pending`,
 * the form comes back (same `cardId`) and is answered, and the turn completes. The first show's handler
 * was aborted by the drop.
 */
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { HostCard } from '@wework/host-protocol';
import { callTool, respond, say } from '@wework/scripted-model';
import { spawnExecutor, type ExecutorProcess } from '../src/node/index.js';
import { alive, executorHomes, type ExecutorHomes } from './support/executorHomes.js';

let homes: ExecutorHomes | null = null;
let executor: ExecutorProcess | null = null;
afterAll(async () => {
  await executor?.stop();
  await homes?.remove();
});

describe('a host that drops and reconnects mid-turn', () => {
  it('gets the waiting form back, answers it, and the turn completes', async () => {
    homes = await executorHomes([respond(callTool('forms', 'choose_strategy')), respond(say('Aye, the safe course it is.'))], { forms: true });
    const sent: Array<{ readonly method: unknown; readonly params: unknown }> = [];
    const started = await spawnExecutor({
      transport: 'websocket',
      executorHome: homes.executorHome,
      userHome: homes.userHome,
      workspace: homes.workspace,
      waitForPlugins: ['forms'],
      client: {
        reconnect: { minDelayMs: 100, maxDelayMs: 1_000 },
        tap: (direction, message) => {
          if (direction === 'toExecutor' && typeof message === 'object' && message !== null && 'method' in message) sent.push({ method: message.method, params: (message as { params?: unknown }).params });
        },
      },
    });
    if (E.isLeft(started)) throw new Error(`${started.left.message}\n${'stderrTail' in started.left ? started.left.stderrTail : ''}`);
    executor = started.right;
    const { client } = executor;
    const violations: unknown[] = [];
    client.onViolation((v) => void violations.push(v));

    const shows: Array<{ readonly card: HostCard; readonly signal: AbortSignal }> = [];
    client.onCard((card, { signal }) => {
      shows.push({ card, signal });
      // The first show is never answered: the connection drops under it.
      if (shows.length === 1) return new Promise(() => undefined);
      return { answers: { strategy: { answers: ['Safe'] } } };
    });

    const task = { taskId: 'task-a', modelSelection: { model: null, options: { permissionMode: 'full-access' as const } }, executionRequest: { workspace: homes.workspace } };
    expect(await client.request('task/create', task)).toMatchObject({ right: { task: { taskId: 'task-a' } } });
    const completed = client.nextNotification('transcript/turnCompleted', (p) => p.taskId === 'task-a', { timeoutMs: 90_000 });
    const send = client.request('message/send', { taskId: 'task-a', markdown: 'Use [$Forms](plugin://forms@local-market).' });
    const deadline = Date.now() + 60_000;
    while (shows.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shows[0]?.card).toMatchObject({ origin: 'mcpElicitation', serverName: 'forms' });
    const cursor = client.lastSeq();

    await client.drop();
    // The turn's own request was on the dropped connection; the turn goes on in the executor.
    expect(await send).toMatchObject({ left: { _tag: 'Disconnected' } });
    expect(shows[0]?.signal.aborted).toBe(true);

    const turn = await completed;
    expect(E.isRight(turn) && turn.right.turn.status).toBe('completed');
    expect(shows).toHaveLength(2);
    expect(shows[1]?.card.cardId).toBe(shows[0]?.card.cardId);
    const resumes = sent.filter((m) => m.method === 'events/subscribe' || m.method === 'cards/pending').map((m) => [m.method, m.params]);
    expect(resumes.slice(-2)).toEqual([
      ['events/subscribe', { after: cursor }],
      ['cards/pending', {}],
    ]);
    expect(client.state()).toBe('open');
    expect(await client.request('cards/pending', {})).toEqual(E.right({ cards: [] }));
    expect(violations).toEqual([]);

    const pid = executor.pid;
    await executor.stop();
    expect(alive(pid)).toBe(false);
  });
});
