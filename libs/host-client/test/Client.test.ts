/**
 * The client over an executor in memory: requests typed and decoded by method, errors as values,
 * bounded requests in flight with a bounded queue, timeouts and aborts; cards answered once, misfits
 * refused; the event stream's cursor across duplicates, gaps and reconnects.
 */
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plainHostQuestion, type HostCard } from '@wework/host-protocol';
import { createHostClient, type HostClient, type HostClientOptions, type StreamNotice } from '../src/index.js';
import type { ProtocolViolation } from '../src/Client.js';
import { fakeExecutor, type FakeConnection, type FakeExecutor } from '../src/testing.js';

export const card = (cardId: string, extra: Partial<HostCard> = {}): HostCard => ({
  cardId,
  origin: 'mcpElicitation',
  kind: 'form',
  threadId: 'thread-1',
  turnId: 'turn-1',
  serverName: 'forms',
  message: 'Choose how to continue',
  questions: [
    plainHostQuestion({ id: 'strategy', header: 'Strategy', question: 'How should the plugin continue?', isOther: false, isSecret: false, options: [{ label: 'Safe', description: '' }] }, 'singleChoice'),
  ],
  submitOnSelect: true,
  error: null,
  ...extra,
});

const turnStarted = (seq: number, taskId = 'a') => ({ jsonrpc: '2.0', method: 'transcript/turnStarted', params: { taskId, threadId: 't', turnId: `u${seq}`, seq } });
const ticks = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
};

let executor: FakeExecutor;
let client: HostClient;
let violations: ProtocolViolation[];
let notices: StreamNotice[];

function make(options: Partial<HostClientOptions> = {}, autoOpen = true): HostClient {
  executor = fakeExecutor({ autoOpen });
  client = createHostClient({ connect: executor.connect, resumeOnConnect: false, ...options });
  violations = [];
  notices = [];
  client.onViolation((v) => void violations.push(v));
  client.onStreamNotice((n) => void notices.push(n));
  return client;
}

/** Answers the resume of a fresh connection: `events/subscribe` with `seq`, then `cards/pending`. */
async function resume(connection: FakeConnection, seq: number, reset = false): Promise<void> {
  connection.answer(connection.requests('events/subscribe').at(-1)?.['id'], { reset, seq });
  await ticks();
  connection.answer(connection.requests('cards/pending').at(-1)?.['id'], { cards: [] });
  await ticks();
}

beforeEach(() => void vi.useFakeTimers());
afterEach(async () => {
  await client.close();
  vi.useRealTimers();
});

describe('requests', () => {
  it('encodes the params, decodes the result by method, and answers an error reply with its code and data', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const listed = client.request('task/list', {});
    const stopped = client.request('task/stop', { taskId: 'nope' });
    const info = client.request('task/list', {});
    const [a, b, d] = c.requests();
    expect(a).toEqual({ jsonrpc: '2.0', id: 1, method: 'task/list', params: {} });
    c.answer(a?.['id'], { tasks: [] });
    c.answerError(b?.['id'], -32001, 'no task "nope" is open in the executor', { tag: 'TaskNotFound' });
    c.answer(d?.['id'], { tasks: 'not a list' });
    expect(await listed).toEqual(E.right({ tasks: [] }));
    expect(await stopped).toEqual(E.left({ _tag: 'ExecutorError', code: -32001, message: 'no task "nope" is open in the executor', data: { tag: 'TaskNotFound' } }));
    expect(await info).toEqual(E.left({ _tag: 'InvalidResult', method: 'task/list', message: expect.stringContaining('result.tasks') }));
    expect(JSON.stringify(await info)).not.toContain('not a list');
  });

  it('reads error data with HostErrorData: retryable kept, a misfit as null', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const busyOne = client.request('task/list', {});
    const odd = client.request('task/list', {});
    const [a, b] = c.requests();
    c.answerError(a?.['id'], -32011, 'too many requests in flight', { tag: 'Overloaded', retryable: true });
    c.answerError(b?.['id'], -32603, 'failed', { tag: 7 });
    expect(await busyOne).toMatchObject({ left: { code: -32011, data: { tag: 'Overloaded', retryable: true } } });
    expect(await odd).toMatchObject({ left: { code: -32603, data: null } });
  });

  it('keeps the executor’s bound of requests in flight, queues the rest in order, and answers Busy beyond the queue', async () => {
    make({ maxRequestsInFlight: 2, maxQueued: 1 });
    await client.start();
    const c = executor.latest();
    const answers = [client.request('task/list', {}), client.request('task/list', {}), client.request('task/list', {})];
    expect(await client.request('task/list', {})).toEqual(E.left({ _tag: 'Busy', message: 'too many requests in flight; try again' }));
    expect(c.requests()).toHaveLength(2);
    // Long-running requests count apart: a waiting turn never holds back a short request.
    const send = client.request('message/send', { taskId: 'a', markdown: 'hi' });
    expect(c.requests('message/send')).toHaveLength(1);
    c.answer(c.requests()[0]?.['id'], { tasks: [] });
    expect(c.requests('task/list')).toHaveLength(3);
    for (const r of c.requests('task/list').slice(1)) c.answer(r['id'], { tasks: [] });
    expect((await Promise.all(answers)).every(E.isRight)).toBe(true);
    void send;
  });

  it('times out a request and keeps its slot until the executor answers; aborts on the signal', async () => {
    make({ maxRequestsInFlight: 1, maxQueued: 4 });
    await client.start();
    const c = executor.latest();
    const slow = client.request('task/list', {}, { timeoutMs: 1000 });
    const next = client.request('task/list', {});
    vi.advanceTimersByTime(1000);
    expect(await slow).toEqual(E.left({ _tag: 'TimedOut', method: 'task/list', timeoutMs: 1000, message: 'no answer to task/list within 1000 ms' }));
    expect(c.sent.filter((m) => m['method'] === '$/cancelRequest')).toEqual([{ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 1 } }]);
    // The executor still counts the first as in flight: the second waits until its (ignored) answer.
    expect(c.requests('task/list')).toHaveLength(1);
    c.answer(1, { tasks: [] });
    expect(c.requests('task/list')).toHaveLength(2);
    c.answer(2, { tasks: [] });
    expect(await next).toEqual(E.right({ tasks: [] }));
    const controller = new AbortController();
    const abortable = client.request('task/list', {}, { signal: controller.signal });
    controller.abort();
    expect(await abortable).toEqual(E.left({ _tag: 'Aborted', method: 'task/list', message: 'task/list was aborted' }));
    const already = new AbortController();
    already.abort();
    expect(await client.request('task/list', {}, { signal: already.signal })).toMatchObject({ left: { _tag: 'Aborted' } });
  });

  it('answers what is in flight or queued Disconnected when the connection drops, and refuses while disconnected', async () => {
    make({ maxRequestsInFlight: 1, reconnect: false });
    await client.start();
    const inFlight = client.request('task/list', {});
    const waiting = client.request('task/list', {});
    executor.latest().close();
    expect(await inFlight).toEqual(E.left({ _tag: 'Disconnected', message: 'the connection to the executor dropped' }));
    expect(await waiting).toEqual(E.left({ _tag: 'Disconnected', message: 'the connection to the executor dropped' }));
    expect(client.state()).toBe('disconnected');
    expect(await client.request('task/list', {})).toEqual(E.left({ _tag: 'Disconnected', message: 'not connected to the executor' }));
  });

  it('sends params that do not fit the codec as given (the executor answers -32602) and refuses what is not JSON', async () => {
    make();
    await client.start();
    const c = executor.latest();
    void client.request('message/send', { taskId: 7 } as never);
    expect(c.requests('message/send')[0]?.['params']).toEqual({ taskId: 7 });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(await client.request('task/stop', cyclic as never)).toMatchObject({ left: { _tag: 'InvalidRequest', method: 'task/stop' } });
    expect(await client.request('no/such' as never, {} as never)).toMatchObject({ left: { _tag: 'InvalidRequest' } });
  });

  it('reports responses to nothing and unreadable messages as violations, never throwing', async () => {
    make();
    await client.start();
    const c = executor.latest();
    for (const text of ['not json', '[1,2]', '{"jsonrpc":"1.0","id":1}', '{"id":99,"result":{}}', '{"id":null,"error":{"code":-32700,"message":"parse error"}}', '{"method":5}']) c.sendText(text);
    expect(violations.map((v) => v.kind)).toEqual(['NotJson', 'NotJsonRpc', 'NotJsonRpc', 'UnexpectedResponse', 'ErrorWithoutId', 'NotJsonRpc']);
  });

  it('taps every message both ways with credentials redacted', async () => {
    const seen: Array<[string, unknown]> = [];
    make({ tap: (direction, message) => void seen.push([direction, message]) });
    await client.start();
    void client.request('runtime/setWegentToken', { token: 'secret-canary', expiresIn: 60 } as never);
    executor.latest().answer(1, { receivedAt: 1, refreshAt: 2, expiresAt: 3 });
    expect(JSON.stringify(seen)).not.toContain('secret-canary');
    expect(executor.latest().sent[0]).toMatchObject({ params: { token: 'secret-canary' } });
    expect(seen.map(([d]) => d)).toEqual(['toExecutor', 'toHost']);
  });
});

describe('cards', () => {
  it('hands the decoded card to the handler and answers once with its reply', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const shown: HostCard[] = [];
    client.onCard((k) => {
      shown.push(k);
      return { answers: { strategy: { answers: ['Safe'] } } };
    });
    c.send({ jsonrpc: '2.0', id: 0, method: 'card/show', params: { card: card('c1') } });
    await ticks();
    expect(shown).toEqual([card('c1')]);
    expect(c.sent).toEqual([{ jsonrpc: '2.0', id: 0, result: { answers: { strategy: { answers: ['Safe'] } } } }]);
  });

  it('refuses a card that does not fit with -32602 (no value echoed) and reports it', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const handler = vi.fn(() => ({ action: 'cancel' as const }));
    client.onCard(handler);
    c.send({ jsonrpc: '2.0', id: 3, method: 'card/show', params: { card: { cardId: 'c1', origin: 'secret-value' } } });
    expect(handler).not.toHaveBeenCalled();
    expect(c.sent[0]).toMatchObject({ id: 3, error: { code: -32602 } });
    expect(JSON.stringify(c.sent)).not.toContain('secret-value');
    expect(violations).toMatchObject([{ kind: 'InvalidCard', method: 'card/show' }]);
    c.send({ jsonrpc: '2.0', id: 4, method: 'other/request', params: {} });
    expect(c.sent[1]).toMatchObject({ id: 4, error: { code: -32601 } });
  });

  /** A started client (no reconnect) whose card handler keeps each card open: its signal and its answer. */
  const cardsHeldOpen = async () => {
    make({ reconnect: false });
    await client.start();
    const c = executor.latest();
    const signals: AbortSignal[] = [];
    const replies: Array<(reply: { action: 'cancel' }) => void> = [];
    client.onCard((_card, { signal }) => {
      signals.push(signal);
      return new Promise((resolve) => replies.push(resolve));
    });
    return { c, signals, replies };
  };

  it('aborts the handler when card/dismissed names the card or the connection drops; the card is answered -32800 at once, a late answer is not sent', async () => {
    const { c, signals, replies } = await cardsHeldOpen();
    c.send({ jsonrpc: '2.0', id: 0, method: 'card/show', params: { card: card('c1') } });
    c.send({ jsonrpc: '2.0', id: 1, method: 'card/show', params: { card: card('c2', { error: { questionId: 'strategy', problem: 'UnknownOption', message: 'strategy: no such option', attemptsLeft: 2 } }) } });
    c.send({ jsonrpc: '2.0', method: 'card/dismissed', params: { cardId: 'c1', seq: 1 } });
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    replies[0]?.({ action: 'cancel' });
    await ticks();
    expect(c.sent).toEqual([{ jsonrpc: '2.0', id: 0, error: { code: -32800, message: 'the card was dismissed' } }]);
    c.close();
    expect(signals[1]?.aborted).toBe(true);
    expect(c.sent).toHaveLength(1);
  });

  it('ends a card on the executor\'s $/cancelRequest as on card/dismissed, and takes other $/ notifications without a violation', async () => {
    const { c, signals, replies } = await cardsHeldOpen();
    c.send({ jsonrpc: '2.0', id: 'a', method: 'card/show', params: { card: card('c1') } });
    c.send({ jsonrpc: '2.0', id: 7, method: 'card/show', params: { card: card('c2') } });
    c.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'a' } });
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    expect(c.sent).toEqual([{ jsonrpc: '2.0', id: 'a', error: { code: -32800, message: 'the card was dismissed' } }]);
    // The dismissal that follows, a cancel of no card, a malformed cancel and another $/ notification change nothing.
    c.send({ jsonrpc: '2.0', method: 'card/dismissed', params: { cardId: 'c1', seq: 1 } });
    c.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 99 } });
    c.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: null });
    c.send({ jsonrpc: '2.0', method: '$/progress', params: { token: 1, value: {} } });
    replies[0]?.({ action: 'cancel' });
    await ticks();
    expect(c.sent).toHaveLength(1);
    expect(signals[1]?.aborted).toBe(false);
    expect(violations).toEqual([]);
    replies[1]?.({ action: 'cancel' });
    await ticks();
    expect(c.sent[1]).toEqual({ jsonrpc: '2.0', id: 7, result: { action: 'cancel' } });
  });

  it('answers an error when the handler throws, and -32601 without a handler', async () => {
    make();
    await client.start();
    const c = executor.latest();
    c.send({ jsonrpc: '2.0', id: 0, method: 'card/show', params: { card: card('c1') } });
    expect(c.sent[0]).toMatchObject({ id: 0, error: { code: -32601 } });
    client.onCard(() => {
      throw new Error('the policy has no answer: SECRET');
    });
    c.send({ jsonrpc: '2.0', id: 1, method: 'card/show', params: { card: card('c1') } });
    expect(c.sent[1]).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'the host could not answer the card' } });
  });
});

describe('the event stream', () => {
  it('takes each event once in order, drops duplicates, and subscribes again from the cursor on a gap', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const taken: number[] = [];
    client.onNotification('transcript/turnStarted', (p) => void taken.push((p as unknown as { seq: number }).seq));
    for (const seq of [1, 1, 2, 5, 6]) c.send(turnStarted(seq));
    expect(taken).toEqual([1, 2]);
    expect(c.requests('events/subscribe').map((r) => r['params'])).toEqual([{ after: 2 }]);
    for (const seq of [3, 4, 5, 6]) c.send(turnStarted(seq));
    c.answer(c.requests('events/subscribe')[0]?.['id'], { reset: false, seq: 6 });
    expect(taken).toEqual([1, 2, 3, 4, 5, 6]);
    expect(notices).toEqual([
      { _tag: 'Duplicate', seq: 1, method: 'transcript/turnStarted', params: turnStarted(1).params },
      { _tag: 'Gap', seq: 5, cursor: 2 },
      { _tag: 'Gap', seq: 6, cursor: 2 },
    ]);
  });

  it('a gap answered reset goes on from the answered seq and tells the host to reload', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const resumed: unknown[] = [];
    client.onResumed((r) => void resumed.push(r));
    c.send(turnStarted(1));
    c.send(turnStarted(40));
    c.answer(c.requests('events/subscribe')[0]?.['id'], { reset: true, seq: 45 });
    await ticks();
    expect(client.lastSeq()).toBe(45);
    expect(resumed).toEqual([{ reset: true, seq: 45 }]);
  });

  it('decodes notifications: a misfit or an unknown method is a violation, not delivered (its seq still taken)', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const events: unknown[] = [];
    client.onEvent((e) => void events.push(e));
    c.send({ jsonrpc: '2.0', method: 'transcript/turnStarted', params: { taskId: 7, threadId: 't', turnId: 'u', seq: 1 } });
    c.send({ jsonrpc: '2.0', method: 'something/new', params: { seq: 2 } });
    c.send({ jsonrpc: '2.0', method: 'transcript/turnStarted', params: { taskId: 'a', threadId: 't', turnId: 'u' } });
    c.send(turnStarted(3));
    expect(events).toHaveLength(1);
    expect(violations.map((v) => [v.kind, v.method])).toEqual([
      ['InvalidNotification', 'transcript/turnStarted'],
      ['UnknownNotification', null],
      ['InvalidNotification', 'transcript/turnStarted'],
    ]);
    expect(client.lastSeq()).toBe(3);
  });

  it('keeps the latest runtime status from the stream and from executor/info', async () => {
    make();
    await client.start();
    const c = executor.latest();
    const seen: string[] = [];
    client.onRuntimeStatus((s) => void seen.push(s.state));
    const status = { state: 'restarting', reason: 'the app-server exited', exitCode: null, signal: 'SIGKILL', stderrTail: null, crashes: 1, retryInMs: 500, pid: null };
    c.send({ jsonrpc: '2.0', method: 'runtime/status', params: { ...status, seq: 1 } });
    expect(client.runtimeStatus()).toMatchObject({ state: 'restarting' });
    void client.request('executor/info', {});
    c.answer(c.requests('executor/info')[0]?.['id'], { executor: 'x', protocolVersion: 1, codexUserAgent: 'ua', runtime: { ...status, state: 'ready', reason: null, signal: null, retryInMs: null, pid: 9 } });
    expect(seen).toEqual(['restarting', 'ready']);
  });

  it('waits for a matching notification with a timeout, an abort, and a bound', async () => {
    make({ maxWaiters: 2 });
    await client.start();
    const c = executor.latest();
    const b = client.nextNotification('transcript/turnStarted', (p) => p.taskId === 'b', { timeoutMs: 1000 });
    const never = client.nextNotification('card/dismissed', () => true, { timeoutMs: 500 });
    expect(await client.nextNotification('card/dismissed')).toMatchObject({ left: { _tag: 'Busy' } });
    c.send(turnStarted(1, 'a'));
    c.send(turnStarted(2, 'b'));
    expect(await b).toMatchObject({ right: { taskId: 'b', seq: 2 } });
    vi.advanceTimersByTime(500);
    expect(await never).toMatchObject({ left: { _tag: 'TimedOut', method: 'card/dismissed', timeoutMs: 500 } });
  });

  it('after a drop: backs off, reconnects, resumes after the cursor, then asks for the waiting cards', async () => {
    make({ resumeOnConnect: true, reconnect: { minDelayMs: 100, maxDelayMs: 400 } });
    const states: string[] = [];
    client.onStateChange((s) => void states.push(s));
    const pending: unknown[] = [];
    client.onPendingCards((cards) => void pending.push(cards));
    void client.start();
    const first = executor.latest();
    expect(first.requests('events/subscribe')[0]?.['params']).toEqual({});
    await resume(first, 7);
    first.send(turnStarted(8));
    expect(client.lastSeq()).toBe(8);
    first.close();
    expect(states).toEqual(['connecting', 'open', 'reconnecting']);
    vi.advanceTimersByTime(99);
    expect(executor.connections).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = executor.latest();
    expect(second.requests('events/subscribe')[0]?.['params']).toEqual({ after: 8 });
    // The replay arrives before the answer; a live event before it would be a gap that this subscribe covers.
    second.send(turnStarted(10));
    second.send(turnStarted(9));
    second.send(turnStarted(10));
    await resume(second, 10);
    expect(second.requests('events/subscribe')).toHaveLength(1);
    expect(client.lastSeq()).toBe(10);
    expect(states.at(-1)).toBe('open');
    expect(pending).toEqual([[], []]);
  });

  it('stops after maxAttempts failed reconnects in a row', async () => {
    make({ reconnect: { minDelayMs: 10, maxDelayMs: 10, maxAttempts: 2 } }, false);
    const started = client.start();
    executor.latest().open();
    expect(await started).toEqual(E.right(undefined));
    executor.latest().close();
    for (let i = 0; i < 5; i += 1) {
      vi.advanceTimersByTime(10);
      executor.latest().refuse(503);
    }
    expect(executor.connections).toHaveLength(3);
    expect(client.state()).toBe('disconnected');
  });

  it('reconnect() opens a new connection now and answers with the subscribe; a stale cursor is reset', async () => {
    make({ reconnect: false });
    await client.start();
    executor.latest().send(turnStarted(1));
    executor.latest().send(turnStarted(2));
    const done = client.reconnect({ after: 1 });
    await ticks();
    const next = executor.latest();
    expect(executor.connections).toHaveLength(2);
    expect(next.requests('events/subscribe')[0]?.['params']).toEqual({ after: 1 });
    next.send(turnStarted(2));
    next.answer(next.requests('events/subscribe')[0]?.['id'], { reset: true, seq: 30 });
    await ticks();
    next.answer(next.requests('cards/pending')[0]?.['id'], { cards: [] });
    expect(await done).toEqual(E.right({ reset: true, seq: 30 }));
    expect(client.lastSeq()).toBe(30);
    expect(notices.map((n) => n._tag)).toEqual(['Duplicate', 'Reset']);
  });

  it('one stream for the window’s subscribers: the first subscribes with the cursor, the last unsubscribes', async () => {
    make();
    await client.start();
    const c = executor.latest();
    c.send(turnStarted(1));
    const first = client.addSubscriber('chat');
    c.answer(c.requests('events/subscribe')[0]?.['id'], { reset: false, seq: 1 });
    expect(await first).toEqual(E.right(undefined));
    expect(await client.addSubscriber('plugins')).toEqual(E.right(undefined));
    expect(await client.removeSubscriber('chat')).toEqual(E.right(undefined));
    const last = client.removeSubscriber('plugins');
    c.answer(c.requests('events/unsubscribe')[0]?.['id'], {});
    expect(await last).toEqual(E.right(undefined));
    expect(c.requests().map((r) => [r['method'], r['params']])).toEqual([
      ['events/subscribe', { after: 1 }],
      ['events/unsubscribe', {}],
    ]);
  });

  it('close answers everything Disconnected and ends in closed', async () => {
    make();
    await client.start();
    const waiting = client.request('task/list', {});
    const wait = client.nextNotification('card/dismissed');
    await client.close();
    expect(await waiting).toMatchObject({ left: { _tag: 'Disconnected' } });
    expect(await wait).toMatchObject({ left: { _tag: 'Disconnected' } });
    expect(client.state()).toBe('closed');
    expect(await client.request('task/list', {})).toMatchObject({ left: { _tag: 'Disconnected', message: 'the client is closed' } });
  });
});
