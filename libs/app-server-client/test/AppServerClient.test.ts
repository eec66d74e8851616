import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  McpServerElicitationRequest,
  ServerRequestResolved,
  ThreadArchived,
  ThreadStatusChanged,
  clientNotification,
  clientRequest,
} from '@wework/codex-protocol';
import { WireErrorCode, type JsonRpcMessage } from '@wework/jsonrpc';
import { ClientError, createAppServerClient } from '../src/index.js';
import type { AppServerClient, AppServerClientOptions, ClientEvent } from '../src/index.js';
import type { MessageDirection } from '../src/ClientContract.js';
import { fakePeer, idOf } from './support/fakePeer.js';
import type { FakePeer } from './support/fakePeer.js';

const Echo = clientRequest('test/echo', t.type({ text: t.string }), t.type({ text: t.string }));
const Positional = clientRequest('test/positional', t.tuple([t.number, t.string]), t.null);
const NoParams = clientRequest('test/noParams', t.undefined, t.type({ ok: t.boolean }));
const Scalar = clientRequest('test/scalar', t.string, t.null);
const Ping = clientNotification('test/ping', t.type({ n: t.number }));

const initializeResult = { userAgent: 'codex/0.171.0', codexHome: '/codex-home', platformFamily: 'unix', platformOs: 'linux' };
const formParams = {
  threadId: 'thread-1',
  turnId: 'turn-1',
  serverName: 'forms',
  environmentId: null,
  mode: 'form',
  _meta: null,
  message: 'Choose how to continue',
  requestedSchema: { type: 'object', properties: { strategy: { type: 'string', enum: ['fast', 'safe'] } }, required: ['strategy'] },
};

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function connect(extra: Partial<AppServerClientOptions> = {}): { peer: FakePeer; client: AppServerClient; events: ClientEvent[] } {
  const peer = fakePeer();
  const client = createAppServerClient({ input: peer.input, output: peer.output, ...extra });
  const events: ClientEvent[] = [];
  client.onEvent((event) => events.push(event));
  cleanup.push(() => client.dispose());
  return { peer, client, events };
}

/** Answers the next request of `method` with `reply` (merged with its id). */
async function answer(peer: FakePeer, method: string, reply: object): Promise<JsonRpcMessage> {
  const request = await peer.next((message) => 'method' in message && message.method === method && 'id' in message);
  peer.send({ id: idOf(request), ...reply });
  return request;
}

describe('AppServerClient requests', () => {
  it('initialize sends clientInfo and experimentalApi, then the initialized notification', async () => {
    const { peer, client } = connect();
    const pending = client.initialize();
    const request = await answer(peer, 'initialize', { result: initializeResult });
    expect(await pending).toEqual(E.right(initializeResult));
    expect(request).toMatchObject({ jsonrpc: '2.0', method: 'initialize', params: { clientInfo: { name: expect.any(String) }, capabilities: { experimentalApi: true } } });
    const initialized = await peer.next((message) => 'method' in message && message.method === 'initialized');
    expect(initialized).toEqual({ jsonrpc: '2.0', method: 'initialized' });
    expect(peer.received.map((message) => ('method' in message ? message.method : 'response'))).toEqual(['initialize', 'initialized']);
  });

  it('initialize passes a Left through and sends no initialized notification', async () => {
    const { peer, client } = connect();
    const pending = client.initialize({ clientInfo: { name: 'host', title: null, version: '9' } });
    const request = await answer(peer, 'initialize', { error: { code: WireErrorCode.InvalidRequest, message: 'Already initialized' } });
    expect(request).toMatchObject({ params: { clientInfo: { name: 'host', title: null, version: '9' } } });
    expect(await pending).toEqual(E.left(ClientError.requestFailed('initialize', -32600, 'Already initialized')));
    expect(peer.received).toHaveLength(1);
  });

  it('encodes params by name, by position or not at all', async () => {
    const { peer, client } = connect();
    const byName = client.request(Echo, { text: 'hi' });
    expect(await answer(peer, 'test/echo', { result: { text: 'hi' } })).toMatchObject({ params: { text: 'hi' } });
    expect(await byName).toEqual(E.right({ text: 'hi' }));

    const byPosition = client.request(Positional, [1, 'a']);
    expect(await answer(peer, 'test/positional', { result: null })).toMatchObject({ params: [1, 'a'] });
    expect(await byPosition).toEqual(E.right(null));

    const none = client.request(NoParams, undefined);
    const sent = await answer(peer, 'test/noParams', { result: { ok: true } });
    expect('params' in sent).toBe(false);
    expect(await none).toEqual(E.right({ ok: true }));
  });

  it('resolves Left(EncodeFailed) for params that are not an object or an array, without sending', async () => {
    const { peer, client } = connect();
    expect(await client.request(Scalar, 'x')).toMatchObject(E.left({ _tag: 'EncodeFailed', method: 'test/scalar' }));
    expect(peer.received).toHaveLength(0);
  });

  it('resolves Left(RequestFailed) with code, message and data of an error reply', async () => {
    const { peer, client } = connect();
    const pending = client.request(Echo, { text: 'x' });
    await answer(peer, 'test/echo', { error: { code: -32600, message: 'Not initialized', data: { hint: 1 } } });
    expect(await pending).toEqual(E.left(ClientError.requestFailed('test/echo', -32600, 'Not initialized', { hint: 1 })));
  });

  it('resolves Left(DecodeFailed) for a result of the wrong shape, naming the path but not the value', async () => {
    const { peer, client } = connect();
    const pending = client.request(Echo, { text: 'x' });
    await answer(peer, 'test/echo', { result: { text: 'secret-token-value'.length } });
    const result = await pending;
    expect(result).toMatchObject(E.left({ _tag: 'DecodeFailed', method: 'test/echo' }));
    if (E.isLeft(result) && result.left._tag === 'DecodeFailed') {
      expect(result.left.message).toContain('.text');
      expect(result.left.message).not.toContain('18');
    }
  });

  it('matches responses to requests by id whatever the reply order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 6 }).chain((texts) => fc.tuple(fc.constant(texts), fc.shuffledSubarray(texts, { minLength: texts.length, maxLength: texts.length }))), async ([texts, replyOrder]) => {
        const { peer, client } = connect();
        const pending = texts.map((text) => client.request(Echo, { text }));
        await peer.next(() => peer.received.length === texts.length);
        for (const text of replyOrder) {
          const request = peer.received.find((message) => 'params' in message && (message.params as { text: string }).text === text);
          if (request === undefined) throw new Error('request not received');
          peer.send({ id: idOf(request), result: { text } });
        }
        expect(await Promise.all(pending)).toEqual(texts.map((text) => E.right({ text })));
        client.dispose();
      }),
      { numRuns: 25 },
    );
  });

  it('sends typed notifications', async () => {
    const { peer, client } = connect();
    expect(await client.notify(Ping, { n: 1 })).toEqual(E.right(undefined));
    expect(await peer.next(() => true)).toEqual({ jsonrpc: '2.0', method: 'test/ping', params: { n: 1 } });
  });

  it('skips a garbage line with a MalformedMessage event and still delivers the next reply', async () => {
    const { peer, client, events } = connect();
    const pending = client.request(Echo, { text: 'after garbage' });
    const request = await peer.next(() => true);
    peer.sendRaw('this is not json\n{"also":"not a message"}\n');
    peer.send({ id: idOf(request), result: { text: 'after garbage' } });
    expect(await pending).toEqual(E.right({ text: 'after garbage' }));
    expect(events.map((event) => event._tag)).toEqual(['MalformedMessage', 'MalformedMessage']);
  });

  it('reports an over-long line and carries on', async () => {
    const { peer, client, events } = connect({ maxLineBytes: 64 });
    const pending = client.request(Echo, { text: 'ok' });
    const request = await peer.next(() => true);
    peer.send({ method: 'configWarning', params: { summary: 'x'.repeat(200) } });
    peer.send({ id: idOf(request), result: { text: 'ok' } });
    expect(await pending).toEqual(E.right({ text: 'ok' }));
    expect(events).toEqual([expect.objectContaining({ _tag: 'LineTooLong', limitBytes: 64 })]);
  });
});

describe('AppServerClient server requests', () => {
  it('routes a server request to its handler with decoded params and the request id, and replies with the encoded result', async () => {
    const { peer, client } = connect();
    const seen: unknown[] = [];
    client.onServerRequest(McpServerElicitationRequest, (params, context) => {
      seen.push({ mode: params.mode, serverName: params.serverName, id: context.id });
      return E.right({ action: 'accept', content: { strategy: 'safe' }, _meta: null });
    });
    peer.send({ id: 0, method: 'mcpServer/elicitation/request', params: formParams });
    const reply = await peer.next((message) => 'id' in message && message.id === 0);
    expect(reply).toEqual({ jsonrpc: '2.0', id: 0, result: { action: 'accept', content: { strategy: 'safe' }, _meta: null } });
    expect(seen).toEqual([{ mode: 'form', serverName: 'forms', id: 0 }]);
  });

  it('answers invalid params with -32602 and reports them, without calling the handler', async () => {
    const { peer, client, events } = connect();
    let called = false;
    client.onServerRequest(McpServerElicitationRequest, () => {
      called = true;
      return E.right({ action: 'decline', content: null, _meta: null });
    });
    peer.send({ id: 'r1', method: 'mcpServer/elicitation/request', params: { threadId: 7 } });
    const reply = await peer.next((message) => 'id' in message && message.id === 'r1');
    expect(reply).toMatchObject({ id: 'r1', error: { code: WireErrorCode.InvalidParams } });
    expect(called).toBe(false);
    expect(events).toEqual([expect.objectContaining({ _tag: 'ServerRequestRejected', reason: 'InvalidParams', id: 'r1', code: -32602 })]);
  });

  it('answers a method without handler with -32601', async () => {
    const { peer, events } = connect();
    peer.send({ id: 5, method: 'item/tool/call', params: {} });
    const reply = await peer.next((message) => 'id' in message && message.id === 5);
    expect(reply).toMatchObject({ id: 5, error: { code: WireErrorCode.MethodNotFound } });
    expect(events).toEqual([expect.objectContaining({ _tag: 'ServerRequestRejected', reason: 'NoHandler', method: 'item/tool/call' })]);
  });

  it('turns a throwing, rejecting, Left-returning or ill-typed handler into an error reply', async () => {
    const { peer, client, events } = connect();
    const behaviours: (() => unknown)[] = [
      () => {
        throw new Error('boom');
      },
      () => Promise.reject(new Error('async boom')),
      () => E.left({ code: 4001, message: 'user cancelled', data: { why: 'test' } }),
      () => E.left({ message: 'no code' }),
      () => ({ not: 'an Either' }),
      () => E.right({ action: 'maybe', content: null, _meta: null }),
    ];
    let call = 0;
    client.onServerRequest(McpServerElicitationRequest, () => (behaviours[call++]?.() as never));
    behaviours.forEach((_, index) => peer.send({ id: index, method: 'mcpServer/elicitation/request', params: formParams }));
    const replies = await Promise.all(behaviours.map((_, index) => peer.next((message) => 'id' in message && message.id === index)));
    expect(replies.map((reply) => ('error' in reply ? reply.error.code : 'ok'))).toEqual([-32603, -32603, 4001, -32603, -32603, -32603]);
    expect(replies[2]).toMatchObject({ error: { message: 'user cancelled', data: { why: 'test' } } });
    expect(replies[0]).toMatchObject({ error: { message: expect.not.stringContaining('boom') } });
    expect(events.map((event) => (event._tag === 'ServerRequestRejected' ? event.reason : event._tag))).toEqual([
      'HandlerThrew',
      'HandlerThrew',
      'HandlerFailed',
      'HandlerFailed',
      'InvalidResult',
      'InvalidResult',
    ]);
  });

  it('lets the latest handler win and stops routing after dispose', async () => {
    const { peer, client } = connect();
    client.onServerRequest(McpServerElicitationRequest, () => E.right({ action: 'decline', content: null, _meta: null }));
    const latest = client.onServerRequest(McpServerElicitationRequest, () => E.right({ action: 'cancel', content: null, _meta: null }));
    peer.send({ id: 1, method: 'mcpServer/elicitation/request', params: formParams });
    expect(await peer.next((message) => 'id' in message && message.id === 1)).toMatchObject({ result: { action: 'cancel' } });
    latest.dispose();
    peer.send({ id: 2, method: 'mcpServer/elicitation/request', params: formParams });
    expect(await peer.next((message) => 'id' in message && message.id === 2)).toMatchObject({ error: { code: -32601 } });
  });
});

describe('AppServerClient notifications and tap', () => {
  it('delivers decoded notifications, skips invalid ones with an event, and gives every notification to the catch-all', async () => {
    const { peer, client, events } = connect();
    const archived: string[] = [];
    const raw: string[] = [];
    client.on(ThreadArchived, (params) => archived.push(params.threadId));
    client.onAnyNotification((notification) => raw.push(notification.method));
    peer.send({ method: 'thread/archived', params: { threadId: 't1' }, emittedAtMs: 1 });
    peer.send({ method: 'thread/archived', params: { threadId: 42 } });
    peer.send({ method: 'some/future/notification', params: { x: 1 } });
    peer.send({ method: 'thread/archived', params: { threadId: 't2' } });
    await waitFor(() => raw.length === 4);
    expect(archived).toEqual(['t1', 't2']);
    expect(raw).toEqual(['thread/archived', 'thread/archived', 'some/future/notification', 'thread/archived']);
    expect(events).toEqual([expect.objectContaining({ _tag: 'InvalidNotification', method: 'thread/archived' })]);
  });

  it('delivers a notification carrying a literal of a newer Codex, and reports where (never the value)', async () => {
    const { peer, client, events } = connect();
    const statuses: unknown[] = [];
    client.on(ThreadStatusChanged, (params) => statuses.push(params.status));
    peer.send({ method: 'thread/status/changed', params: { threadId: 't1', status: { type: 'hibernating', since: 'sk-secret-1' } } });
    peer.send({ method: 'thread/status/changed', params: { threadId: 't1', status: { type: 'idle' } } });
    await waitFor(() => statuses.length === 2);
    expect(statuses[0]).toMatchObject({ _unknown: true, literal: 'hibernating' });
    expect(statuses[1]).toEqual({ type: 'idle' });
    expect(events).toEqual([
      { _tag: 'UnknownProtocolValues', method: 'thread/status/changed', side: 'params', parts: [{ kind: 'variant', path: '$.status.type', codec: 'ThreadStatus', literal: 'hibernating' }] },
    ]);
    expect(JSON.stringify(events)).not.toContain('sk-secret-1');
  });

  it('keeps notification order for any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant('thread/archived'), fc.constant('serverRequest/resolved'), fc.string({ minLength: 1, maxLength: 8 })), { maxLength: 20 }), async (methods) => {
        const { peer, client } = connect();
        const typed: string[] = [];
        const raw: string[] = [];
        client.on(ThreadArchived, () => typed.push('thread/archived'));
        client.on(ServerRequestResolved, () => typed.push('serverRequest/resolved'));
        client.onAnyNotification((notification) => raw.push(notification.method));
        for (const method of methods) peer.send({ method, params: { threadId: 't', requestId: 1 } });
        await waitFor(() => raw.length === methods.length);
        expect(raw).toEqual(methods);
        expect(typed).toEqual(methods.filter((method) => method === 'thread/archived' || method === 'serverRequest/resolved'));
        client.dispose();
      }),
      { numRuns: 25 },
    );
  });

  it('keeps the wire order of notifications, responses and server requests, sent together or one by one', async () => {
    for (const together of [true, false]) {
      const { peer, client } = connect();
      const seen: string[] = [];
      client.onAnyNotification((notification) => seen.push(notification.method));
      client.onServerRequest(McpServerElicitationRequest, () => {
        seen.push('server request');
        return E.right({ action: 'decline', content: null, _meta: null });
      });
      const pending = client.request(Echo, { text: 'x' }).then(() => seen.push('response'));
      const request = await peer.next((message) => 'method' in message && message.method === 'test/echo');
      const lines = [
        { method: 'test/a', params: {} },
        { id: idOf(request), result: { text: 'x' } },
        { method: 'test/b', params: {} },
        { id: 0, method: 'mcpServer/elicitation/request', params: formParams },
        { method: 'test/c', params: {} },
      ];
      if (together) peer.sendRaw(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      else for (const line of lines) peer.send(line);
      await pending;
      await waitFor(() => seen.length === 5);
      expect(seen).toEqual(['test/a', 'response', 'test/b', 'server request', 'test/c']);
      client.dispose();
    }
  });

  it('isolates a throwing listener and unsubscribes on dispose', async () => {
    const { peer, client, events } = connect();
    const seen: string[] = [];
    client.on(ThreadArchived, () => {
      throw new Error('listener bug');
    });
    const subscription = client.on(ThreadArchived, (params) => seen.push(params.threadId));
    peer.send({ method: 'thread/archived', params: { threadId: 'a' } });
    await waitFor(() => seen.length === 1);
    subscription.dispose();
    const raw: string[] = [];
    client.onAnyNotification((notification) => raw.push(notification.method));
    peer.send({ method: 'thread/archived', params: { threadId: 'b' } });
    await waitFor(() => raw.length === 1);
    expect(seen).toEqual(['a']);
    expect(events.filter((event) => event._tag === 'ListenerFailed')).toHaveLength(2);
  });

  it('taps every message both ways, in wire order', async () => {
    const { peer, client } = connect();
    const tapped: [MessageDirection, JsonRpcMessage][] = [];
    client.onMessage((direction, message) => tapped.push([direction, message]));
    client.onServerRequest(McpServerElicitationRequest, () => E.right({ action: 'decline', content: null, _meta: null }));
    const pending = client.request(Echo, { text: 'x' });
    await answer(peer, 'test/echo', { result: { text: 'x' } });
    await pending;
    peer.send({ id: 0, method: 'mcpServer/elicitation/request', params: formParams });
    await peer.next((message) => 'result' in message);
    expect(tapped.map(([direction, message]) => `${direction}:${'method' in message ? message.method : 'response'}`)).toEqual([
      'outgoing:test/echo',
      'incoming:response',
      'incoming:mcpServer/elicitation/request',
      'outgoing:response',
    ]);
    expect(tapped[1]?.[1]).toEqual({ id: 0, result: { text: 'x' } });
  });
});

describe('AppServerClient lifecycle', () => {
  it('dispose resolves pending requests Left(Disposed), and later calls too', async () => {
    const { peer, client, events } = connect();
    const pending = [client.request(Echo, { text: 'a' }), client.request(Echo, { text: 'b' })];
    await peer.next(() => peer.received.length === 2);
    client.dispose();
    client.dispose();
    expect(await Promise.all(pending)).toEqual([E.left(ClientError.disposed()), E.left(ClientError.disposed())]);
    expect(await client.request(Echo, { text: 'c' })).toEqual(E.left(ClientError.disposed()));
    expect(await client.notify(Ping, { n: 1 })).toEqual(E.left(ClientError.disposed()));
    expect(await client.closed).toEqual(ClientError.disposed());
    expect(client.terminalError).toEqual(ClientError.disposed());
    expect(events).toEqual([ClientError.disposed()]);
  });

  it('resolves pending requests Left(ConnectionClosed) when the input ends, after delivering what arrived before', async () => {
    const { peer, client, events } = connect();
    const answered = client.request(Echo, { text: 'answered' });
    const unanswered = client.request(Echo, { text: 'unanswered' });
    await peer.next(() => peer.received.length === 2);
    const first = peer.received[0];
    if (first === undefined) throw new Error('no request');
    peer.send({ id: idOf(first), result: { text: 'answered' } });
    peer.end();
    expect(await answered).toEqual(E.right({ text: 'answered' }));
    expect(await unanswered).toEqual(E.left(ClientError.connectionClosed()));
    expect(await client.closed).toEqual(ClientError.connectionClosed());
    expect(events).toEqual([ClientError.connectionClosed()]);
  });

  it('resolves pending requests with the ProcessExited of peerExit', async () => {
    const exit = ClientError.processExited(null, 'SIGKILL', 'stderr tail');
    let exited!: (value: typeof exit) => void;
    const { peer, client, events } = connect({ peerExit: new Promise((resolve) => (exited = resolve)), closeGraceMs: 200 });
    const pending = client.request(Echo, { text: 'x' });
    await peer.next(() => true);
    exited(exit);
    peer.end();
    expect(await pending).toEqual(E.left(exit));
    expect(events).toEqual([exit]);
  });

  it('resolves with ProcessExited even when the input stays open', async () => {
    const exit = ClientError.processExited(1, null, '');
    const { peer, client } = connect({ peerExit: Promise.resolve(exit), closeGraceMs: 50 });
    const pending = client.request(Echo, { text: 'x' });
    expect(await pending).toEqual(E.left(exit));
    expect(peer.input.writableEnded).toBe(false);
  });

  it('resolves Left when the output is gone instead of throwing', async () => {
    const { peer, client } = connect();
    peer.output.destroy();
    const result = await client.request(Echo, { text: 'x' });
    expect(E.isLeft(result)).toBe(true);
    if (E.isLeft(result)) expect(['ConnectionClosed', 'TransportError']).toContain(result.left._tag);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('AppServerClient timeouts and overload', () => {
  it('a request without a reply resolves RequestTimedOut after its timeout and raises RequestAbandoned; a late reply is ignored', async () => {
    const { peer, client, events } = connect({ requestTimeouts: { 'test/echo': 50 } });
    const pending = client.request(Echo, { text: 'never answered' });
    const request = await peer.next((message) => 'method' in message && message.method === 'test/echo');
    expect(await pending).toEqual(E.left(ClientError.requestTimedOut('test/echo', 50)));
    expect(events).toContainEqual({ _tag: 'RequestAbandoned', method: 'test/echo', id: idOf(request), timeoutMs: 50 });
    peer.send({ id: idOf(request), result: { text: 'too late' } });
    // The connection carries on: the next request is answered.
    const next = client.request(NoParams, undefined);
    await answer(peer, 'test/noParams', { result: { ok: true } });
    expect(await next).toEqual(E.right({ ok: true }));
  });

  it("Codex's -32001 answer becomes Overloaded, retryable", async () => {
    const { peer, client } = connect();
    const pending = client.request(Echo, { text: 'flood' });
    await answer(peer, 'test/echo', { error: { code: -32001, message: 'Server overloaded; retry later.' } });
    expect(await pending).toEqual(E.left({ _tag: 'Overloaded', method: 'test/echo', message: 'Server overloaded; retry later.', retryable: true }));
  });
});
