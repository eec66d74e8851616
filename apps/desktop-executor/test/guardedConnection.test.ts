/**
 * The host connection in process, over stdio streams: a handler that throws, or a result that cannot
 * be serialised, still answers its request once and without the error's text; requests in flight on a
 * connection that closes give their share of the shared budget back; output a host leaves untaken
 * pauses reading and, beyond the hard bound, disconnects it; the log of refusals is bounded; a
 * malformed request reusing an id in flight never gives that id a second answer; long-running requests
 * have a per-connection bound and a shared budget of their own, each refusal naming its own bounds;
 * WebSocket connections beyond their bound are refused with 503; a host that ends its input still gets
 * the answers in flight, within the drain bound; what is sent in one run of code leaves stdout as one
 * write, in order.
 */
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HostHandlers } from '@wework/host-protocol';
import type { HostCall } from '../src/host/handlers/HandlerKit.js';

/** Handlers for some methods (a test serves only those it calls). */
type SomeHandlers = Partial<HostHandlers<HostCall>>;
import { WebSocket } from 'ws';
import { guardedHostConnection, type HostChannel } from '../src/host/GuardedConnection.js';
import { serveHostConnection } from '../src/host/HostConnection.js';
import { hostRequestBudget } from '../src/host/HostLimits.js';
import { HOST_LIMITS } from '@wework/host-protocol';
import { hostSessions } from '../src/host/HostSessions.js';
import { stdioConnection, type StdioConnectionOptions } from '../src/host/StdioTransport.js';
import { listenWebSocket } from '../src/host/WebSocketTransport.js';
import type { LogEntry } from '@wework/ports';
import { until } from '@wework/test-support';

/** Serves `api` over a pair of streams; returns a way to send lines and to read the answers. */
function serveInProcess(api: SomeHandlers, options: StdioConnectionOptions = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const log: LogEntry[] = [];
  const answers: Array<Record<string, unknown>> = [];
  const waiting: Array<() => void> = [];
  createInterface({ input: output }).on('line', (line) => {
    answers.push(JSON.parse(line) as Record<string, unknown>);
    waiting.shift()?.();
  });
  const closed = serveHostConnection(stdioConnection(input, output, (entry) => log.push(entry), options), api as HostHandlers<HostCall>, hostSessions(() => undefined), (entry) => log.push(entry));
  const next = (): Promise<Record<string, unknown>> => {
    const seen = answers.length;
    return new Promise((resolve) => {
      const check = (): void => (answers.length > seen ? resolve(answers[seen] ?? {}) : void waiting.push(check));
      check();
    });
  };
  return { input, log, next, closed, answers };
}

/** A channel fed one frame at a time, collecting what the guard sends (parsed). */
function recordingChannel(): { readonly channel: HostChannel; readonly deliver: (text: string) => void; readonly sent: Array<Record<string, unknown>> } {
  let onFrame: Parameters<HostChannel['listen']>[0] = () => undefined;
  const sent: Array<Record<string, unknown>> = [];
  const channel: HostChannel = {
    listen: (listener) => void (onFrame = listener),
    onClose: () => undefined,
    onError: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
    send: (text) => {
      sent.push(JSON.parse(text) as Record<string, unknown>);
      return Promise.resolve();
    },
    unsentBytes: () => 0,
    end: () => undefined,
    destroy: () => undefined,
  };
  return { channel, deliver: (text) => onFrame({ _tag: 'Bytes', bytes: Buffer.from(text) }), sent };
}

/** How long a test here waits for a state: a little under the test timeout (60 s), so a wait that runs out says what never happened. */
const WAIT_MS = 55_000;

describe('the guarded host connection', () => {
  it('answers the requests of a host that ended its input (a half-close), then closes the connection', async () => {
    let release: (() => void) | undefined;
    const api = { 'executor/info': () => new Promise((resolve) => (release = () => resolve(E.right({ executor: 'held' })))) };
    const served = serveInProcess(api as unknown as SomeHandlers);
    served.input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'executor/info', params: {} })}\n`);
    await until('executor/info to reach its handler', () => release !== undefined, WAIT_MS);
    // Input ended with a request in flight: the connection stays until it is answered.
    let closed = false;
    void served.closed.then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    release?.();
    expect(await served.next()).toMatchObject({ id: 1 });
    await served.closed;
    expect(served.log.map((entry) => entry.event)).not.toContain('host input ended: requests still in flight cut');
  });

  it('closes a half-closed connection at once with nothing in flight, and at the drain bound with a request that never ends', async () => {
    const idle = serveInProcess({});
    idle.input.end();
    await idle.closed;
    const api = { 'executor/info': () => new Promise(() => undefined) };
    const stuck = serveInProcess(api as unknown as SomeHandlers, { drainAfterInputEndMs: 50 });
    stuck.input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'executor/info', params: {} })}\n`);
    await stuck.closed;
    expect(stuck.log).toContainEqual(expect.objectContaining({ event: 'host input ended: requests still in flight cut', fields: { requests: 1, afterMs: 50 } }));
    expect(stuck.answers).toEqual([]);
  });

  it('a WebSocket Close frame waits for the short requests in flight, not for a long-running turn', async () => {
    const { channel, deliver, sent } = recordingChannel();
    let ended: (owed: 'all' | 'short') => void = () => undefined;
    let destroyed = 0;
    const closing: HostChannel = { ...channel, onInputEnd: (listener) => void (ended = listener), destroy: () => void (destroyed += 1) };
    const connection = guardedHostConnection(closing, { log: () => undefined, budget: hostRequestBudget(8), longRunningBudget: hostRequestBudget(8), drainAfterInputEndMs: 60_000 });
    let releaseInfo: (() => void) | undefined;
    connection.onRequest('executor/info', () => new Promise((resolve) => (releaseInfo = () => resolve({ executor: 'held' }))));
    // A turn that waits on a card: it never ends here.
    connection.onRequest('message/send', () => new Promise(() => undefined));
    connection.listen();
    deliver('{"jsonrpc":"2.0","id":"turn","method":"message/send","params":{"taskId":"t","markdown":"hi"}}');
    deliver('{"jsonrpc":"2.0","id":"info","method":"executor/info","params":{}}');
    await until('executor/info to reach its handler', () => releaseInfo !== undefined, WAIT_MS);
    ended('short');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The short request is still owed its answer: the close waits for it.
    expect(destroyed).toBe(0);
    releaseInfo?.();
    await until('the channel destroyed', () => destroyed > 0, WAIT_MS);
    // Closed once the short answer went out, without waiting for the turn or the drain bound.
    expect(sent.map((message) => message['id'])).toEqual(['info']);
    expect(destroyed).toBe(1);
  });

  it('answers a malformed request that reuses the id of one in flight with id null, so that id gets one answer', async () => {
    const { channel, deliver, sent } = recordingChannel();
    let release: (() => void) | undefined;
    const connection = guardedHostConnection(channel, { log: () => undefined, budget: hostRequestBudget(8), longRunningBudget: hostRequestBudget(8) });
    connection.onRequest('slow', () => new Promise((resolve) => (release = () => resolve('done'))));
    connection.listen();
    deliver('{"jsonrpc":"2.0","id":7,"method":"slow"}');
    await until('the slow request to reach its handler', () => release !== undefined, WAIT_MS);
    deliver('{"jsonrpc":"2.0","id":7,"method":7}');
    deliver('{"jsonrpc":"2.0","id":"7","method":["slow"]}');
    // A malformed request with an id nobody uses keeps its id.
    deliver('{"jsonrpc":"2.0","id":8,"method":7}');
    await until('the three malformed requests refused', () => sent.length === 3, WAIT_MS);
    expect(sent.map((message) => [message['id'], (message['error'] as { code?: number } | undefined)?.code])).toEqual([
      [null, -32600],
      [null, -32600],
      [8, -32600],
    ]);
    release?.();
    await until('the answer to the slow request', () => sent.length === 4, WAIT_MS);
    expect(sent[3]).toEqual({ jsonrpc: '2.0', id: 7, result: 'done' });
    expect(sent.filter((message) => message['id'] === 7 || message['id'] === '7')).toHaveLength(1);
  });

  it('bounds long-running requests per connection and over all connections, each refusal naming its own bounds', async () => {
    const budget = hostRequestBudget(2);
    const longRunningBudget = hostRequestBudget(3);
    const hosts = [recordingChannel(), recordingChannel()];
    let waiting = 0;
    for (const host of hosts) {
      const connection = guardedHostConnection(host.channel, { log: () => undefined, budget, longRunningBudget, maxRequestsPerConnection: 2, maxLongRunningPerConnection: 2 });
      connection.onRequest('message/send', () => {
        waiting += 1;
        return new Promise(() => undefined);
      });
      connection.onRequest('executor/info', () => new Promise(() => undefined));
      connection.listen();
    }
    const [first, second] = hosts as [ReturnType<typeof recordingChannel>, ReturnType<typeof recordingChannel>];
    const send = (id: string): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'message/send', params: {} });
    // Three sends on one connection: its own bound (2) refuses the third.
    for (const id of ['a1', 'a2', 'a3']) first.deliver(send(id));
    await until('two sends running and the third refused', () => waiting === 2 && first.sent.length === 1, WAIT_MS);
    expect(first.sent[0]).toEqual({ jsonrpc: '2.0', id: 'a3', error: { code: -32011, message: 'too many long-running requests in flight (at most 2 per connection, 3 in all); retry later', data: { tag: 'Overloaded', retryable: true } } });
    // The other connection gets the one slot left of the shared budget, then is refused.
    for (const id of ['b1', 'b2']) second.deliver(send(id));
    await until("the other connection's send running and its second refused", () => waiting === 3 && second.sent.length === 1, WAIT_MS);
    expect(second.sent[0]).toMatchObject({ id: 'b2', error: { code: -32011, data: { tag: 'Overloaded', retryable: true } } });
    expect(longRunningBudget.inFlight()).toBe(3);
    // Short requests are bounded apart, and their refusal names theirs.
    for (const id of ['s1', 's2', 's3']) second.deliver(JSON.stringify({ jsonrpc: '2.0', id, method: 'executor/info' }));
    await until('the third short request refused', () => second.sent.length === 2, WAIT_MS);
    expect(second.sent[1]).toEqual({ jsonrpc: '2.0', id: 's3', error: { code: -32011, message: 'too many requests in flight (at most 2 per connection, 2 in all); retry later', data: { tag: 'Overloaded', retryable: true } } });
    expect(budget.inFlight()).toBe(2);
    expect(longRunningBudget.inFlight()).toBe(3);
  });

  it('refuses a WebSocket upgrade beyond the bound of open connections with 503, and admits one again once a connection closes', async () => {
    const logged: LogEntry[] = [];
    const token = 'a'.repeat(64);
    const endpoint = await listenWebSocket({ token, maxConnections: 2, log: (entry) => void logged.push(entry) }, (connection) => connection.listen());
    const connect = (): Promise<{ readonly socket: WebSocket } | { readonly status: number }> =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}`, { headers: { authorization: `Bearer ${token}` } });
        socket.once('open', () => resolve({ socket }));
        socket.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
        socket.once('error', reject);
      });
    try {
      const opened = [await connect(), await connect()];
      expect(opened.every((outcome) => 'socket' in outcome)).toBe(true);
      expect(await connect()).toEqual({ status: 503 });
      expect(logged).toContainEqual({ event: 'host connection refused', fields: { reason: 'too many connections' } });
      expect(JSON.stringify(logged)).not.toContain(token);
      const closing = opened[0] as { socket: WebSocket };
      await new Promise<void>((resolve) => {
        closing.socket.once('close', () => resolve());
        closing.socket.close();
      });
      // The server side of the closed socket goes away after the client's; retry until it has.
      let again = await connect();
      while ('status' in again) again = await connect();
      expect('socket' in again).toBe(true);
      for (const outcome of [opened[1], again]) if (outcome !== undefined && 'socket' in outcome) outcome.socket.terminate();
    } finally {
      await endpoint.close();
    }
  });

  it('answers the requests in flight of a WebSocket host that sent its Close frame, then answers its Close with its own code', async () => {
    const logged: LogEntry[] = [];
    const token = 'b'.repeat(64);
    const held: Array<() => void> = [];
    const endpoint = await listenWebSocket({ token, log: (entry) => void logged.push(entry) }, (connection) => {
      connection.onRequest('slow', () => new Promise((resolve) => held.push(() => resolve('done'))));
      connection.listen();
    });
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}`, { headers: { authorization: `Bearer ${token}` } });
      const received: unknown[] = [];
      socket.on('message', (data: Buffer) => void received.push(JSON.parse(data.toString('utf8'))));
      const closed = new Promise<{ readonly code: number; readonly answersBefore: number }>((resolve) => socket.once('close', (code: number) => resolve({ code, answersBefore: received.length })));
      await new Promise((resolve) => socket.once('open', resolve));
      // Two requests in flight, one reusing an id in flight, then the host closes its side.
      for (const frame of ['{"jsonrpc":"2.0","id":1,"method":"slow"}', '{"jsonrpc":"2.0","id":"2","method":"slow"}', '{"jsonrpc":"2.0","id":2,"method":"slow"}']) socket.send(frame);
      await until('two slow requests held and the one reusing an id refused', () => held.length === 2 && received.length === 1, WAIT_MS);
      socket.close(4000, 'bye');
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The Close frame waits for the answers still owed.
      expect(socket.readyState).toBe(WebSocket.CLOSING);
      for (const release of held) release();
      expect(await closed).toEqual({ code: 4000, answersBefore: 3 });
      expect(received).toEqual([
        { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid request: a request with this id is still in flight', data: { tag: 'DuplicateRequestId' } } },
        { jsonrpc: '2.0', id: 1, result: 'done' },
        { jsonrpc: '2.0', id: '2', result: 'done' },
      ]);
      expect(logged.map((entry) => entry.event)).not.toContain('host input ended: requests still in flight cut');
    } finally {
      await endpoint.close();
    }
  });

  it('answers the Close frame of a WebSocket host at once with nothing in flight, and at the drain bound with a request that never ends', async () => {
    const logged: LogEntry[] = [];
    const token = 'c'.repeat(64);
    let started = 0;
    const endpoint = await listenWebSocket({ token, drainAfterInputEndMs: 50, log: (entry) => void logged.push(entry) }, (connection) => {
      connection.onRequest('never', () => {
        started += 1;
        return new Promise(() => undefined);
      });
      connection.listen();
    });
    const connect = async (): Promise<{ readonly socket: WebSocket; readonly closed: Promise<number> }> => {
      const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}`, { headers: { authorization: `Bearer ${token}` } });
      const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
      await new Promise((resolve) => socket.once('open', resolve));
      return { socket, closed };
    };
    try {
      const idle = await connect();
      idle.socket.close(1000);
      expect(await idle.closed).toBe(1000);
      const stuck = await connect();
      const received: unknown[] = [];
      stuck.socket.on('message', (data: Buffer) => void received.push(JSON.parse(data.toString('utf8'))));
      stuck.socket.send('{"jsonrpc":"2.0","id":3,"method":"never"}');
      await until('the never-ending request started', () => started === 1, WAIT_MS);
      stuck.socket.close();
      // No code in the host's Close frame: none in the reply either (1005).
      expect(await stuck.closed).toBe(1005);
      expect(received).toEqual([]);
      expect(logged).toContainEqual(expect.objectContaining({ event: 'host input ended: requests still in flight cut', fields: { requests: 1, afterMs: 50 } }));
    } finally {
      await endpoint.close();
    }
  });

  it('answers every request exactly once, whatever ids it reuses and whenever the host ends its input (property)', async () => {
    type Step = { readonly _tag: 'Send'; readonly id: string | number } | { readonly _tag: 'Answer'; readonly pick: number } | { readonly _tag: 'Settle' };
    const id = fc.integer({ min: 0, max: 5 }).chain((n) => fc.constantFrom<string | number>(n, `${n}`));
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 3, arbitrary: id.map((value) => ({ _tag: 'Send' as const, id: value })) },
      { weight: 2, arbitrary: fc.nat().map((pick) => ({ _tag: 'Answer' as const, pick })) },
      { weight: 1, arbitrary: fc.constant({ _tag: 'Settle' as const }) },
    );
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        let onFrame: Parameters<HostChannel['listen']>[0] = () => undefined;
        let inputEnded: (owed: 'all' | 'short') => void = () => undefined;
        let destroyed = false;
        const sent: Array<Record<string, unknown>> = [];
        const afterDestroy: unknown[] = [];
        const channel: HostChannel = {
          listen: (listener) => void (onFrame = listener),
          onClose: () => undefined,
          onInputEnd: (listener) => void (inputEnded = listener),
          onError: () => undefined,
          pause: () => undefined,
          resume: () => undefined,
          send: (text) => {
            (destroyed ? afterDestroy : sent).push(JSON.parse(text));
            return Promise.resolve();
          },
          unsentBytes: () => 0,
          end: () => undefined,
          destroy: () => void (destroyed = true),
        };
        const held: Array<() => void> = [];
        const connection = guardedHostConnection(channel, { log: () => undefined, budget: hostRequestBudget(8), longRunningBudget: hostRequestBudget(8), maxRequestsPerConnection: 4 });
        connection.onRequest('held', () => new Promise((resolve) => held.push(() => resolve('done'))));
        connection.listen();
        const requests = new Map<string, number>();
        for (const each of steps) {
          if (each._tag === 'Send') {
            requests.set(JSON.stringify(each.id), (requests.get(JSON.stringify(each.id)) ?? 0) + 1);
            onFrame({ _tag: 'Bytes', bytes: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: each.id, method: 'held' })) });
          } else if (each._tag === 'Answer') held.splice(each.pick % Math.max(1, held.length), 1)[0]?.();
          else await settle();
        }
        inputEnded('all');
        // The requests still in flight are answered, then the guard closes the channel.
        while (!destroyed) {
          for (const release of held.splice(0)) release();
          await settle();
        }
        await settle();
        const answers = new Map<string, number>();
        for (const answer of sent) answers.set(JSON.stringify(answer['id']), (answers.get(JSON.stringify(answer['id'])) ?? 0) + 1);
        expect(Object.fromEntries(answers)).toEqual(Object.fromEntries(requests));
        expect(afterDestroy).toEqual([]);
        for (const answer of sent) expect(answer).toSatisfy((reply: Record<string, unknown>) => 'result' in reply || [-32600, -32011].includes((reply['error'] as { code: number }).code));
        connection.dispose();
      }),
      { numRuns: 200 },
    );
  });

  it('answers a handler that throws with -32603, once, without the error text', async () => {
    const host = serveInProcess({
      'executor/info': () => {
        throw new Error('sk-live-secret went wrong');
      },
    });
    const answer = host.next();
    host.input.write('{"jsonrpc":"2.0","id":1,"method":"executor/info","params":{}}\n');
    expect(await answer).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'the executor failed while handling executor/info', data: { tag: 'InternalError' } } });
    expect(JSON.stringify(host.log)).not.toContain('sk-live-secret');
    host.input.end();
    await host.closed;
  });

  it('answers a result that cannot be serialised with -32603', async () => {
    // A defect such a handler could have: a bigint in its result (JSON has none).
    const unserialisable = { executor: 'wework-desktop-executor', protocolVersion: 1n as unknown as number, codexUserAgent: '' };
    const host = serveInProcess({ 'executor/info': () => Promise.resolve(E.right(unserialisable)) as ReturnType<HostHandlers<HostCall>['executor/info']> });
    const answer = host.next();
    host.input.write('{"jsonrpc":"2.0","id":"b","method":"executor/info"}\n');
    expect(await answer).toMatchObject({ id: 'b', error: { code: -32603, message: 'the result could not be serialised' } });
    host.input.end();
    await host.closed;
  });

  it('gives the budget of requests in flight back when the connection closes', async () => {
    const budget = hostRequestBudget(4);
    const input = new PassThrough();
    const output = new PassThrough();
    const answers: string[] = [];
    output.on('data', (chunk: Buffer) => answers.push(...chunk.toString('utf8').split('\n').filter((line) => line !== '')));
    let started = 0;
    let release: () => void = () => undefined;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const channelConnection = guardedHostConnection(
      {
        listen: (onFrame) => void input.on('data', (chunk: Buffer) => chunk.toString('utf8').split('\n').filter((line) => line !== '').forEach((line) => onFrame({ _tag: 'Bytes', bytes: Buffer.from(line) }))),
        onClose: (listener) => void input.on('end', listener),
        onError: () => undefined,
        pause: () => undefined,
        resume: () => undefined,
        send: (text) => new Promise((resolve) => output.write(`${text}\n`, () => resolve())),
        unsentBytes: () => 0,
        end: () => undefined,
        destroy: () => undefined,
      },
      { log: () => undefined, budget, maxRequestsPerConnection: 3 },
    );
    channelConnection.onRequest('hang', () => {
      started += 1;
      if (started === 3) release();
      return new Promise(() => undefined);
    });
    channelConnection.listen();
    input.write(['{"id":1,"method":"hang"}', '{"id":2,"method":"hang"}', '{"id":3,"method":"hang"}', '{"id":4,"method":"hang"}', ''].join('\n'));
    await allStarted;
    expect(budget.inFlight()).toBe(3);
    expect(answers.map((line) => JSON.parse(line) as unknown)).toEqual([{ jsonrpc: '2.0', id: 4, error: expect.objectContaining({ code: -32011, data: { tag: 'Overloaded', retryable: true } }) }]);
    const closedOnce = new Promise<void>((resolve) => channelConnection.onClose(() => resolve()));
    input.end();
    await closedOnce;
    expect(budget.inFlight()).toBe(0);
    expect(budget.hasRoom()).toBe(true);
  });

  it('keeps waiting turns apart: more sends than the short bound wait, and task/stop is still answered', async () => {
    let releaseSends: () => void = () => undefined;
    const sendsReleased = new Promise<void>((resolve) => (releaseSends = resolve));
    const waiting = HOST_LIMITS.maxRequestsPerConnection + 8;
    let sendsStarted = 0;
    const host = serveInProcess({
      'message/send': async () => {
        sendsStarted += 1;
        await sendsReleased;
        return E.left({ code: -32004, message: 'released', tag: 'Released' });
      },
      'task/stop': () => Promise.resolve(E.right({})),
    });
    const stopAnswer = host.next();
    const sends = Array.from({ length: waiting }, (_, i) => `{"jsonrpc":"2.0","id":"send-${i}","method":"message/send","params":{"taskId":"t${i}","markdown":"hi"}}`);
    host.input.write(`${[...sends, '{"jsonrpc":"2.0","id":"stop","method":"task/stop","params":{"taskId":"t0"}}'].join('\n')}\n`);
    // The first answer is the stop's: no send was refused, and none has ended.
    expect(await stopAnswer).toEqual({ jsonrpc: '2.0', id: 'stop', result: {} });
    expect(sendsStarted).toBe(waiting);
    releaseSends();
    while (host.answers.length < waiting + 1) await host.next();
    const sendAnswers = host.answers.slice(1);
    expect(new Set(sendAnswers.map((answer) => answer['id']))).toEqual(new Set(sends.map((_, i) => `send-${i}`)));
    expect(sendAnswers.map((answer) => (answer['error'] as { code?: number } | undefined)?.code)).toEqual(Array.from({ length: waiting }, () => -32004));
    host.input.end();
    await host.closed;
  });

  it('stops reading while the host leaves output untaken, reads again once it is taken, and disconnects it beyond the hard bound', async () => {
    const events: string[] = [];
    let unsent = 0;
    let deliver: (text: string) => void = () => undefined;
    const sent: Array<() => void> = [];
    const connection = guardedHostConnection(
      {
        listen: (onFrame) => void (deliver = (text) => onFrame({ _tag: 'Bytes', bytes: Buffer.from(text) })),
        onClose: () => undefined,
        onError: () => undefined,
        pause: () => void events.push('pause'),
        resume: () => void events.push('resume'),
        send: () => new Promise((resolve) => sent.push(resolve)),
        unsentBytes: () => unsent,
        end: () => undefined,
        destroy: () => void events.push('destroy'),
      },
      { log: (entry) => void events.push(entry.event), budget: hostRequestBudget(8) },
    );
    connection.listen();
    unsent = HOST_LIMITS.pauseReadingAboveBytes + 1;
    deliver('not json');
    expect(events).toEqual(['host message refused', 'host reading paused: output not taken', 'pause']);
    unsent = HOST_LIMITS.pauseReadingAboveBytes / 4;
    sent.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.slice(3)).toEqual(['host reading resumed', 'resume']);
    unsent = HOST_LIMITS.disconnectAboveBytes + 1;
    deliver('still not json');
    expect(events.slice(5)).toEqual(['host message refused', 'host disconnected: output not read', 'destroy']);
  });

  it('writes what is sent in one run of code to stdout as one write, in order, and every send settles', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const writes: string[] = [];
    output.on('data', (chunk: Buffer) => writes.push(chunk.toString('utf8')));
    const connection = stdioConnection(input, output, () => undefined);
    connection.listen();
    const sends = Array.from({ length: 5 }, (_, i) => connection.sendNotification('transcript/item', { n: i }));
    await Promise.all(sends);
    expect(writes).toHaveLength(1);
    expect(writes.join('').split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { params: { n: number } }).params.n)).toEqual([0, 1, 2, 3, 4]);
    await connection.sendNotification('transcript/item', { n: 5 });
    expect(writes).toHaveLength(2);
    output.destroy();
    await expect(connection.sendNotification('transcript/item', { n: 6 })).rejects.toThrow();
    connection.dispose();
  });

  it('logs the first hundred refusals of a connection, then every thousandth', () => {
    const logged: LogEntry[] = [];
    let deliver: (text: string) => void = () => undefined;
    const connection = guardedHostConnection(
      {
        listen: (onFrame) => void (deliver = (text) => onFrame({ _tag: 'Bytes', bytes: Buffer.from(text) })),
        onClose: () => undefined,
        onError: () => undefined,
        pause: () => undefined,
        resume: () => undefined,
        send: () => Promise.resolve(),
        unsentBytes: () => 0,
        end: () => undefined,
        destroy: () => undefined,
      },
      { log: (entry) => void logged.push(entry), budget: hostRequestBudget(8) },
    );
    connection.listen();
    for (let i = 0; i < 3000; i += 1) deliver(`garbage ${i}`);
    expect(logged.map((entry) => entry.fields['refusals'])).toEqual([...Array.from({ length: 100 }, (_, i) => i + 1), 1000, 2000, 3000]);
    expect(JSON.stringify(logged)).not.toContain('garbage');
  });
});
