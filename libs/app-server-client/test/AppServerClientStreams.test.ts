import { afterEach, describe, expect, it, vi } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { clientRequest, serverNotification } from '@wework/codex-protocol';
import { createAppServerClient } from '../src/index.js';
import type { JsonRpcMessage } from '@wework/jsonrpc';
import type { AppServerClient, ClientEvent } from '../src/index.js';
import type { RawNotification } from '../src/ClientContract.js';
import { fakePeer, idOf } from './support/fakePeer.js';
import type { FakePeer } from './support/fakePeer.js';

const Echo = clientRequest('test/echo', t.type({ text: t.string }), t.type({ text: t.string }));
const Tick = serverNotification('test/tick', t.type({ n: t.number }));

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function connect(): { peer: FakePeer; client: AppServerClient; events: ClientEvent[] } {
  const peer = fakePeer();
  const client = createAppServerClient({ input: peer.input, output: peer.output });
  const events: ClientEvent[] = [];
  client.onEvent((event) => events.push(event));
  cleanup.push(() => client.dispose());
  return { peer, client, events };
}

const isMethod = (method: string) => (message: JsonRpcMessage): boolean => 'method' in message && message.method === method;
const tick = (n: number): object => ({ method: 'test/tick', params: { n } });
const turns = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

describe('request signals', () => {
  it('aborting sends $/cancelRequest for the request and resolves RequestAborted at once', async () => {
    const { peer, client } = connect();
    const controller = new AbortController();
    const pending = client.request(Echo, { text: 'hi' }, { signal: controller.signal });
    const request = await peer.next(isMethod('test/echo'));
    controller.abort();
    expect(await pending).toEqual(E.left({ _tag: 'RequestAborted', method: 'test/echo' }));
    const cancel = await peer.next(isMethod('$/cancelRequest'));
    expect(cancel).toMatchObject({ params: { id: idOf(request) } });
    // A reply that still comes changes nothing and breaks nothing.
    peer.send({ id: idOf(request), result: { text: 'late' } });
    const next = client.request(Echo, { text: 'again' });
    const second = await peer.next(isMethod('test/echo'), peer.received.indexOf(request) + 1);
    peer.send({ id: idOf(second), result: { text: 'again' } });
    expect(await next).toEqual(E.right({ text: 'again' }));
  });

  it('an already aborted signal sends nothing', async () => {
    const { peer, client } = connect();
    expect(await client.request(Echo, { text: 'hi' }, { signal: AbortSignal.abort() })).toEqual(E.left({ _tag: 'RequestAborted', method: 'test/echo' }));
    await turns();
    expect(peer.received).toEqual([]);
  });

  it('a signal that never aborts changes nothing; aborting after the reply sends no cancel', async () => {
    const { peer, client } = connect();
    const controller = new AbortController();
    const pending = client.request(Echo, { text: 'hi' }, { signal: controller.signal });
    const request = await peer.next(isMethod('test/echo'));
    peer.send({ id: idOf(request), result: { text: 'hi' } });
    expect(await pending).toEqual(E.right({ text: 'hi' }));
    controller.abort();
    await turns();
    expect(peer.received.some(isMethod('$/cancelRequest'))).toBe(false);
  });
});

describe('notification streams', () => {
  it('delivers one method decoded, in wire order, and ends when the client ends', async () => {
    const { peer, client } = connect();
    const seen: number[] = [];
    const done = (async () => {
      for await (const params of client.notifications(Tick)) seen.push(params.n);
    })();
    peer.send(tick(1));
    peer.send({ method: 'test/other', params: {} });
    peer.send(tick(2));
    peer.send({ method: 'test/tick', params: { n: 'not a number' } });
    peer.send(tick(3));
    peer.end();
    await done;
    expect(seen).toEqual([1, 2, 3]);
  });

  it('without a descriptor delivers every notification undecoded', async () => {
    const { peer, client } = connect();
    const seen: RawNotification[] = [];
    const done = (async () => {
      for await (const notification of client.notifications()) seen.push(notification);
    })();
    peer.send(tick(1));
    peer.send({ method: 'test/other', params: { x: true } });
    peer.end();
    await done;
    expect(seen).toEqual([
      { method: 'test/tick', params: { n: 1 } },
      { method: 'test/other', params: { x: true } },
    ]);
  });

  it('ends when its signal aborts or the loop breaks, and stops listening', async () => {
    const { peer, client } = connect();
    const controller = new AbortController();
    const seen: number[] = [];
    const aborted = (async () => {
      for await (const params of client.notifications(Tick, { signal: controller.signal })) {
        seen.push(params.n);
        if (params.n === 1) controller.abort();
      }
    })();
    const broken: number[] = [];
    const breaking = (async () => {
      for await (const params of client.notifications(Tick)) {
        broken.push(params.n);
        break;
      }
    })();
    peer.send(tick(1));
    peer.send(tick(2));
    await Promise.all([aborted, breaking]);
    expect(seen).toEqual([1]);
    expect(broken).toEqual([1]);
  });

  it('a slow consumer keeps at most bufferSize notifications: the oldest are dropped, with an event each', async () => {
    const { peer, client, events } = connect();
    const stream = client.notifications(Tick, { bufferSize: 2 })[Symbol.asyncIterator]();
    for (const n of [1, 2, 3, 4]) peer.send(tick(n));
    // All four have arrived once the second drop is reported (however long the machine takes to deliver them).
    await vi.waitFor(() => expect(events.filter((event) => event._tag === 'NotificationsDropped')).toHaveLength(2), { timeout: 10_000 });
    expect(await stream.next()).toEqual({ done: false, value: { n: 3 } });
    expect(await stream.next()).toEqual({ done: false, value: { n: 4 } });
    expect(events.filter((event) => event._tag === 'NotificationsDropped')).toEqual([
      { _tag: 'NotificationsDropped', method: 'test/tick', bufferSize: 2 },
      { _tag: 'NotificationsDropped', method: 'test/tick', bufferSize: 2 },
    ]);
    client.dispose();
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('a stream of an ended client is empty', async () => {
    const { client } = connect();
    client.dispose();
    const seen: unknown[] = [];
    for await (const notification of client.notifications()) seen.push(notification);
    expect(seen).toEqual([]);
  });
});

describe('async disposal', () => {
  it('await using disposes the client at the end of the block', async () => {
    const peer = fakePeer();
    let outer: AppServerClient | undefined;
    {
      await using client = createAppServerClient({ input: peer.input, output: peer.output });
      outer = client;
      expect(client.terminalError).toBeUndefined();
    }
    expect(outer.terminalError).toEqual({ _tag: 'Disposed' });
  });
});
