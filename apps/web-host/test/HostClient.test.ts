/**
 * The browser's connection, over a scripted WebSocket: the token is offered as the subprotocol; an open
 * connection resumes the event stream and asks for the waiting cards; duplicates are dropped and a gap
 * subscribes again from the cursor; a card is answered at most once (a card that does not fit the
 * protocol is refused `-32602` and never shown); a drop answers what was in flight, backs off,
 * reconnects and resumes after the last `seq` it took; requests beyond the bound are refused.
 */
import { plainHostQuestion } from '@wework/host-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostEvent } from '@wework/host-client';
import { HostClient, MAX_PENDING, type HostClientEvents } from '../src/HostClient.js';

class ScriptedSocket {
  static readonly OPEN = 1;
  static readonly instances: ScriptedSocket[] = [];
  readyState = 0;
  readonly sent: Array<Record<string, unknown>> = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: ReadonlyArray<string>,
  ) {
    ScriptedSocket.instances.push(this);
  }
  send(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.();
  }
  open(): void {
    this.readyState = ScriptedSocket.OPEN;
    this.onopen?.();
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The requests sent, by method. */
  requests(method: string): Array<Record<string, unknown>> {
    return this.sent.filter((m) => m['method'] === method);
  }
  /** Answers the last request of `method`. */
  answer(method: string, result: unknown): void {
    const request = this.requests(method).at(-1);
    this.receive({ jsonrpc: '2.0', id: request?.['id'], result });
  }
}

const TOKEN = 'ab'.repeat(32);
/** The `seq` the executor adds to every notification's params. */
const seqOf = (event: HostEvent): number => (event.params as unknown as { seq: number }).seq;
const flush = (): Promise<void> => new Promise<void>((resolve) => queueMicrotask(() => resolve()));
/** Lets the promises of an answer settle (a card's answer goes out once the page's responder resolved it). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) await flush();
};
/** A card as the executor shows it (`HostCard` of `@wework/host-protocol`). */
const hostCard = (cardId: string) => ({
  cardId,
  origin: 'mcpElicitation',
  kind: 'form',
  threadId: 't',
  turnId: 'u1',
  serverName: 'forms',
  message: 'Choose how to continue',
  questions: [
    plainHostQuestion({ id: 'strategy', header: 'Strategy', question: 'How should the plugin continue?', isOther: false, isSecret: false, options: [{ label: 'Safe', description: '' }] }, 'singleChoice'),
  ],
  submitOnSelect: true,
  error: null,
});

let events: HostEvent[];
let states: string[];
let pending: Array<ReadonlyArray<string>>;
let cards: Array<{ card: unknown; respond: (reply: never) => void }>;
let client: HostClient;

const handlers = (): HostClientEvents => ({
  onState: (s) => void states.push(s),
  onEvent: (e) => void events.push(e),
  onCard: (card, respond) => void cards.push({ card, respond: respond as never }),
  onResumed: () => undefined,
  onPending: (ids) => void pending.push(ids),
});
const turnStarted = (seq: number) => ({ jsonrpc: '2.0', method: 'transcript/turnStarted', params: { taskId: 'a', threadId: 't', turnId: `u${seq}`, seq } });

/** Opens the connection and completes the resume (`events/subscribe`, `cards/pending`). */
async function connect(socket: ScriptedSocket, seq: number): Promise<void> {
  socket.open();
  socket.answer('events/subscribe', { reset: false, seq });
  await flush();
  socket.answer('cards/pending', { cards: [] });
  await flush();
}

beforeEach(() => {
  ScriptedSocket.instances.length = 0;
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.useFakeTimers();
  events = [];
  states = [];
  pending = [];
  cards = [];
  client = new HostClient('ws://127.0.0.1:1/', TOKEN, handlers());
  client.start();
});
afterEach(() => {
  client.close();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('HostClient', () => {
  it('offers the token as its subprotocol, resumes the stream and asks for the waiting cards', async () => {
    const socket = ScriptedSocket.instances[0]!;
    expect(socket.protocols).toEqual([TOKEN]);
    await connect(socket, 0);
    expect(socket.requests('events/subscribe')[0]?.['params']).toEqual({});
    expect(socket.requests('cards/pending')).toHaveLength(1);
    expect(states).toEqual(['connecting', 'open']);
    expect(pending).toEqual([[]]);
  });

  it('takes each event once in order, drops duplicates, and subscribes again from the cursor on a gap', async () => {
    const socket = ScriptedSocket.instances[0]!;
    await connect(socket, 0);
    socket.receive(turnStarted(1));
    socket.receive(turnStarted(1));
    socket.receive(turnStarted(2));
    expect(events.map(seqOf)).toEqual([1, 2]);
    socket.receive(turnStarted(5));
    socket.receive(turnStarted(6));
    expect(events).toHaveLength(2);
    expect(socket.requests('events/subscribe').map((r) => r['params'])).toEqual([{}, { after: 2 }]);
    // The replay arrives in order before the answer.
    for (const seq of [3, 4, 5, 6]) socket.receive(turnStarted(seq));
    expect(events.map(seqOf)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(client.lastSeq()).toBe(6);
  });

  it('a new page takes the stream from the executor’s current seq: the next live event is taken, not a gap', async () => {
    const socket = ScriptedSocket.instances[0]!;
    // The executor already sent 41 events before this page connected.
    await connect(socket, 41);
    socket.receive(turnStarted(42));
    socket.receive(turnStarted(43));
    expect(events.map(seqOf)).toEqual([42, 43]);
    expect(socket.requests('events/subscribe').map((r) => r['params'])).toEqual([{}]);
    expect(client.lastSeq()).toBe(43);
  });

  it('a new page takes a live event that arrives before its subscription is answered', async () => {
    const socket = ScriptedSocket.instances[0]!;
    socket.open();
    socket.receive(turnStarted(8));
    socket.answer('events/subscribe', { reset: false, seq: 8 });
    await flush();
    socket.receive(turnStarted(9));
    expect(events.map(seqOf)).toEqual([8, 9]);
    expect(socket.requests('events/subscribe')).toHaveLength(1);
  });

  it('hands a card over with a responder that answers once', async () => {
    const socket = ScriptedSocket.instances[0]!;
    await connect(socket, 0);
    socket.receive({ jsonrpc: '2.0', id: 0, method: 'card/show', params: { card: hostCard('c1') } });
    expect(cards.map((c) => c.card)).toEqual([hostCard('c1')]);
    cards[0]?.respond({ action: 'cancel' } as never);
    cards[0]?.respond({ action: 'decline' } as never);
    await settle();
    expect(socket.sent.filter((m) => m['id'] === 0)).toEqual([{ jsonrpc: '2.0', id: 0, result: { action: 'cancel' } }]);
    // A card that does not fit the protocol is never shown: it is refused, naming the place, never the value.
    socket.receive({ jsonrpc: '2.0', id: 8, method: 'card/show', params: { card: { cardId: 'c2', origin: 'elsewhere' } } });
    expect(cards).toHaveLength(1);
    expect(socket.sent.find((m) => m['id'] === 8)).toMatchObject({ error: { code: -32602 } });
    expect(JSON.stringify(socket.sent.find((m) => m['id'] === 8))).not.toContain('elsewhere');
    socket.receive({ jsonrpc: '2.0', id: 9, method: 'something/else', params: {} });
    expect(socket.sent.find((m) => m['id'] === 9)).toMatchObject({ error: { code: -32601 } });
  });

  it('answers what was in flight when the connection drops, backs off, reconnects and resumes after the last seq', async () => {
    const first = ScriptedSocket.instances[0]!;
    await connect(first, 0);
    first.receive(turnStarted(1));
    const inFlight = client.request('task/list', {});
    first.receive({ jsonrpc: '2.0', id: 0, method: 'card/show', params: { card: hostCard('c1') } });
    first.close();
    expect(await inFlight).toEqual(E.left({ _tag: 'Disconnected', message: 'the connection to the executor dropped' }));
    expect(states.at(-1)).toBe('reconnecting');
    // A responder of the dropped connection does nothing.
    cards[0]?.respond({ action: 'cancel' } as never);
    await settle();
    expect(first.sent.some((m) => m['id'] === 0)).toBe(false);
    vi.advanceTimersByTime(249);
    expect(ScriptedSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = ScriptedSocket.instances[1]!;
    await connect(second, 1);
    expect(second.requests('events/subscribe')[0]?.['params']).toEqual({ after: 1 });
    expect(states.at(-1)).toBe('open');
  });

  it('refuses requests beyond the bound at once, and decodes what it gets back', async () => {
    const socket = ScriptedSocket.instances[0]!;
    await connect(socket, 0);
    const waiting = Array.from({ length: MAX_PENDING }, () => client.request('task/list', {}));
    expect(await client.request('task/list', {})).toEqual(E.left({ _tag: 'Busy', message: 'too many requests in flight; try again' }));
    const lists = socket.requests('task/list');
    socket.receive({ jsonrpc: '2.0', id: lists[0]?.['id'], result: { tasks: 'not a list' } });
    socket.receive({ jsonrpc: '2.0', id: lists[1]?.['id'], error: { code: -32001, message: 'no task' } });
    socket.receive({ jsonrpc: '2.0', id: lists[2]?.['id'], result: { tasks: [] } });
    expect(await waiting[0]).toMatchObject({ left: { _tag: 'Misfit' } });
    expect(await waiting[1]).toEqual(E.left({ _tag: 'Rejected', code: -32001, message: 'no task' }));
    expect(await waiting[2]).toEqual(E.right({ tasks: [] }));
  });
});
