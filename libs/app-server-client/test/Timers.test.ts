/**
 * The client's waits run on the `Timers` it was created with: nothing times out until those timers
 * say the time has passed, however long the test really waits, and every wait that ends early is
 * cancelled (no sleep is left behind).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { afterEach, describe, expect, it } from 'vitest';
import { clientRequest } from '@wework/codex-protocol';
import { manualTimers, type ManualTimers } from '@wework/ports/testing';
import type { JsonRpcMessage } from '@wework/jsonrpc';
import { ClientError, createAppServerClient, runTurn, trackMcpStartup, type AppServerClient } from '../src/index.js';
import { fakePeer, idOf, type FakePeer } from './support/fakePeer.js';

const Echo = clientRequest('test/echo', t.type({ text: t.string }), t.type({ text: t.string }));
const realWait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function connect(): { peer: FakePeer; client: AppServerClient; timers: ManualTimers } {
  const peer = fakePeer();
  const timers = manualTimers();
  const client = createAppServerClient({ input: peer.input, output: peer.output, timers, requestTimeoutMs: 50 });
  cleanup.push(() => client.dispose());
  return { peer, client, timers };
}

const isRequest = (method: string) => (message: JsonRpcMessage): boolean => 'method' in message && message.method === method && 'id' in message;

describe('the timers of a client', () => {
  it('are the ones it was created with', () => {
    const { client, timers } = connect();
    expect(client.timers).toBe(timers);
  });

  it('time a request out only once they have advanced past its timeout', async () => {
    const { peer, client, timers } = connect();
    let settled: unknown;
    const pending = client.request(Echo, { text: 'slow' }).then((result) => (settled = result));
    await peer.next(isRequest('test/echo'));
    await realWait(80);
    expect(settled).toBeUndefined();
    timers.advance(49);
    await realWait(5);
    expect(settled).toBeUndefined();
    timers.advance(1);
    await pending;
    expect(settled).toEqual(E.left(ClientError.requestTimedOut('test/echo', 50)));
  });

  it('leave no sleep behind once a request is answered', async () => {
    const { peer, client, timers } = connect();
    const pending = client.request(Echo, { text: 'quick' });
    const request = await peer.next(isRequest('test/echo'));
    expect(timers.pending()).toBe(1);
    peer.send({ id: idOf(request), result: { text: 'quick' } });
    expect(await pending).toEqual(E.right({ text: 'quick' }));
    await realWait(0);
    expect(timers.pending()).toBe(0);
  });

  it('time runTurn out on the client’s clock', async () => {
    const { peer, client, timers } = connect();
    let settled: unknown;
    const running = runTurn(client, { threadId: 'thread-1', input: [{ type: 'text', text: 'hello', text_elements: [] }] }, { timeoutMs: 1_000, interruptOnStop: false }).then((outcome) => (settled = outcome));
    const start = await peer.next(isRequest('turn/start'));
    peer.send({
      id: idOf(start),
      result: { turn: { id: 'turn-1', rootTurnId: null, items: [], itemsView: 'notLoaded', status: 'inProgress', error: null, startedAt: null, completedAt: null, durationMs: null } },
    });
    await realWait(20);
    expect(settled).toBeUndefined();
    timers.advance(1_000);
    await running;
    expect(settled).toMatchObject({ _tag: 'TimedOut', turnId: 'turn-1', timeoutMs: 1_000 });
  });

  it('time trackMcpStartup out on the client’s clock', async () => {
    const { client, timers } = connect();
    let settled: unknown;
    const waiting = trackMcpStartup(client)
      .whenSettled(['never'], 30)
      .then((result) => (settled = result));
    await realWait(40);
    expect(settled).toBeUndefined();
    timers.advance(30);
    await waiting;
    expect(settled).toEqual(E.left({ _tag: 'McpServersNotReady', pending: ['never'], timeoutMs: 30 }));
  });
});
