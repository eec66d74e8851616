/**
 * End to end, the real desktop executor over its WebSocket: a flood of 1,000 requests from one client
 * is answered exactly once each — the client keeps its requests in flight within the executor's
 * per-connection bound and queues the rest, so the executor never answers `-32011`. A second client on
 * the same executor (`connectExecutorWebSocket`) with queueing off gets `Busy` for what exceeds the
 * bound, at once and locally, and its requests in flight are answered.
 */
import { HOST_LIMITS } from '@wework/host-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import { type HostClient } from '../src/index.js';
import { connectExecutorWebSocket, spawnExecutor, type ExecutorProcess } from '../src/node/index.js';
import { alive, executorHomes, type ExecutorHomes } from './support/executorHomes.js';

let homes: ExecutorHomes | null = null;
let executor: ExecutorProcess | null = null;
let second: HostClient | null = null;
afterAll(async () => {
  await second?.close();
  await executor?.stop();
  await homes?.remove();
});

const FLOOD = 1_000;

describe('a flood of requests', () => {
  it('answers each of 1,000 requests exactly once, within the bound; beyond the bound without a queue, Busy', async () => {
    homes = await executorHomes([]);
    const responses = new Map<unknown, number>();
    const started = await spawnExecutor({
      transport: 'websocket',
      executorHome: homes.executorHome,
      userHome: homes.userHome,
      workspace: homes.workspace,
      client: {
        maxQueued: FLOOD,
        tap: (direction, message) => {
          const m = message as { id?: unknown; method?: unknown };
          if (direction === 'toHost' && m.method === undefined && m.id !== undefined) responses.set(m.id, (responses.get(m.id) ?? 0) + 1);
        },
      },
    });
    if (E.isLeft(started)) throw new Error(`${started.left.message}\n${'stderrTail' in started.left ? started.left.stderrTail : ''}`);
    executor = started.right;
    const { client } = executor;
    const before = responses.size;

    const answers = await Promise.all(Array.from({ length: FLOOD }, (_, i) => (i % 2 === 0 ? client.request('task/list', {}) : client.request('executor/info', {}))));
    expect(answers.filter(E.isLeft)).toEqual([]);
    expect(responses.size - before).toBe(FLOOD);
    expect([...responses.values()].every((n) => n === 1)).toBe(true);
    expect(executor.stderr()).not.toMatch(/reason="overloaded"/);

    // Queueing off: what exceeds the bound is refused locally, never sent.
    const endpoint = executor.endpoint;
    if (endpoint === null) throw new Error('no endpoint');
    const connected = await connectExecutorWebSocket(endpoint.port, endpoint.token, { maxQueued: 0 });
    if (E.isLeft(connected)) throw new Error(connected.left.message);
    second = connected.right;
    const burst = await Promise.all(Array.from({ length: 100 }, () => (second as HostClient).request('task/list', {})));
    expect(burst.filter(E.isRight)).toHaveLength(HOST_LIMITS.maxRequestsPerConnection);
    expect(burst.filter((a) => E.isLeft(a) && a.left._tag === 'Busy')).toHaveLength(100 - HOST_LIMITS.maxRequestsPerConnection);
    expect(executor.stderr()).not.toMatch(/reason="overloaded"/);

    const pid = executor.pid;
    await executor.stop();
    expect(alive(pid)).toBe(false);
  });
});
