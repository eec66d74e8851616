import { afterEach, describe, expect, it } from 'vitest';
import { collectedAfterGc } from './support/gc.js';
import * as E from 'fp-ts/lib/Either.js';
import { createAppServerClient, describeClientErrorCategory, isTurnEnded, runTurn } from '../src/index.js';
import type { JsonRpcMessage } from '@wework/jsonrpc';
import type { AppServerClient, TurnOutcome } from '../src/index.js';
import { fakePeer, idOf } from './support/fakePeer.js';
import type { FakePeer } from './support/fakePeer.js';
import { codecs, isUnknownVariant, type ThreadItem } from '@wework/codex-protocol';

const threadId = 'thread-1';
const input = [{ type: 'text' as const, text: 'hello', text_elements: [] }];
const turn = (id: string, status: 'inProgress' | 'completed' | 'failed' | 'interrupted', message?: string) => ({
  id,
  rootTurnId: null,
  items: [],
  itemsView: 'notLoaded',
  status,
  error: message === undefined ? null : { message, codexErrorInfo: null, additionalDetails: null, misalignment: null },
  startedAt: null,
  completedAt: null,
  durationMs: null,
});
const plan = (id: string, text: string) => ({ type: 'plan', id, text });
/** The id of an item this version knows (an item type of a newer Codex has none typed). */
const itemId = (item: ThreadItem): string | undefined => (isUnknownVariant(item) ? undefined : item.id);
const itemCompleted = (turnId: string, item: object, thread = threadId) => ({ method: 'item/completed', params: { threadId: thread, turnId, item, completedAtMs: 1 } });
const turnCompleted = (turnId: string, status: 'completed' | 'failed' | 'interrupted', thread = threadId, message?: string) => ({
  method: 'turn/completed',
  params: { threadId: thread, turn: turn(turnId, status, message) },
});

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function connect(): { peer: FakePeer; client: AppServerClient } {
  const peer = fakePeer();
  const client = createAppServerClient({ input: peer.input, output: peer.output });
  cleanup.push(() => client.dispose());
  return { peer, client };
}

const isRequest = (method: string) => (message: JsonRpcMessage): boolean => 'method' in message && message.method === method && 'id' in message;

/** Answers the next `turn/start` with a started turn of id `turnId`. */
const answered = new WeakSet<JsonRpcMessage>();
async function startTurn(peer: FakePeer, turnId: string): Promise<JsonRpcMessage> {
  const request = await peer.next((message) => isRequest('turn/start')(message) && !answered.has(message));
  answered.add(request);
  peer.send({ id: idOf(request), result: { turn: turn(turnId, 'inProgress') } });
  return request;
}

describe('runTurn', () => {
  it('starts the turn and ends with its turn/completed and the items it completed, in order', async () => {
    const { peer, client } = connect();
    const started: string[] = [];
    const running = runTurn(client, { threadId, input }, { onStarted: (t) => started.push(t.id) });
    const request = await startTurn(peer, 'turn-1');
    expect(request).toMatchObject({ method: 'turn/start', params: { threadId, input } });
    peer.send(itemCompleted('turn-1', plan('p1', 'first')));
    peer.send(itemCompleted('turn-other', plan('p2', 'of another turn')));
    peer.send(itemCompleted('turn-1', plan('p3', 'second'), 'thread-other'));
    peer.send(itemCompleted('turn-1', plan('p4', 'third')));
    peer.send(turnCompleted('turn-1', 'completed'));
    const outcome = await running;
    expect(outcome).toMatchObject({ _tag: 'Completed', threadId, turn: { id: 'turn-1', status: 'completed' } });
    expect(isTurnEnded(outcome) && outcome.items.map(itemId)).toEqual(['p1', 'p4']);
    expect(started).toEqual(['turn-1']);
  });

  it('sees the notifications that arrive before turn/start is answered', async () => {
    const { peer, client } = connect();
    const running = runTurn(client, { threadId, input });
    const request = await peer.next(isRequest('turn/start'));
    peer.send(itemCompleted('turn-1', plan('p1', 'early')));
    peer.send(turnCompleted('turn-1', 'completed'));
    peer.send({ id: idOf(request), result: { turn: turn('turn-1', 'inProgress') } });
    const outcome = await running;
    expect(outcome._tag).toBe('Completed');
    expect(isTurnEnded(outcome) && outcome.items.map(itemId)).toEqual(['p1']);
  });

  it('tells a failed and an interrupted turn apart from a completed one', async () => {
    for (const status of ['failed', 'interrupted'] as const) {
      const { peer, client } = connect();
      const running = runTurn(client, { threadId, input });
      await startTurn(peer, 'turn-1');
      peer.send(turnCompleted('turn-1', status, threadId, status === 'failed' ? 'model refused' : undefined));
      const outcome = await running;
      expect(outcome._tag).toBe(status === 'failed' ? 'Failed' : 'Interrupted');
      expect(isTurnEnded(outcome) && outcome.turn.status).toBe(status);
    }
  });

  it('is StartFailed with the client error when turn/start fails', async () => {
    const { peer, client } = connect();
    const running = runTurn(client, { threadId, input });
    const request = await peer.next(isRequest('turn/start'));
    peer.send({ id: idOf(request), error: { code: -32600, message: 'thread not found' } });
    expect(await running).toEqual({ _tag: 'StartFailed', threadId, error: { _tag: 'RequestFailed', method: 'turn/start', code: -32600, message: 'thread not found' } });
  });

  it('times out, interrupts the turn and resolves once the interrupt is answered', async () => {
    const { peer, client } = connect();
    const running = runTurn(client, { threadId, input }, { timeoutMs: 30 });
    await startTurn(peer, 'turn-1');
    peer.send(itemCompleted('turn-1', plan('p1', 'partial')));
    const interrupt = await peer.next(isRequest('turn/interrupt'));
    expect(interrupt).toMatchObject({ params: { threadId, turnId: 'turn-1' } });
    let settled: TurnOutcome | undefined;
    void running.then((outcome) => (settled = outcome));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBeUndefined();
    peer.send({ id: idOf(interrupt), result: {} });
    const outcome = await running;
    expect(outcome).toMatchObject({ _tag: 'TimedOut', threadId, turnId: 'turn-1', timeoutMs: 30 });
    expect(outcome._tag === 'TimedOut' && outcome.items.map(itemId)).toEqual(['p1']);
  });

  it('times out without interrupting when told not to', async () => {
    const { peer, client } = connect();
    const running = runTurn(client, { threadId, input }, { timeoutMs: 30, interruptOnStop: false });
    await startTurn(peer, 'turn-1');
    expect(await running).toMatchObject({ _tag: 'TimedOut', turnId: 'turn-1' });
    expect(peer.received.some((message) => 'method' in message && message.method === 'turn/interrupt')).toBe(false);
  });

  it('is Aborted when the signal aborts a started turn, after interrupting it', async () => {
    const { peer, client } = connect();
    const controller = new AbortController();
    const running = runTurn(client, { threadId, input }, { signal: controller.signal });
    await startTurn(peer, 'turn-1');
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const interrupt = await peer.next(isRequest('turn/interrupt'));
    peer.send({ id: idOf(interrupt), result: {} });
    expect(await running).toEqual({ _tag: 'Aborted', threadId, turnId: 'turn-1', items: [] });
  });

  it('is Aborted at once when aborted before turn/start is answered, and interrupts the turn once it is', async () => {
    const { peer, client } = connect();
    const controller = new AbortController();
    const running = runTurn(client, { threadId, input }, { signal: controller.signal });
    const request = await peer.next(isRequest('turn/start'));
    controller.abort();
    expect(await running).toEqual({ _tag: 'Aborted', threadId, turnId: null, items: [] });
    peer.send({ id: idOf(request), result: { turn: turn('turn-1', 'inProgress') } });
    const interrupt = await peer.next(isRequest('turn/interrupt'));
    expect(interrupt).toMatchObject({ params: { threadId, turnId: 'turn-1' } });
  });

  it('sends nothing for an already aborted signal', async () => {
    const { peer, client } = connect();
    expect(await runTurn(client, { threadId, input }, { signal: AbortSignal.abort() })).toEqual({ _tag: 'Aborted', threadId, turnId: null, items: [] });
    expect(peer.received).toEqual([]);
  });

  it('is ClientClosed with the reason when the client ends under the turn', async () => {
    const { peer, client } = connect();
    const running = runTurn(client, { threadId, input });
    await startTurn(peer, 'turn-1');
    peer.send(itemCompleted('turn-1', plan('p1', 'before the end')));
    peer.end();
    const outcome = await running;
    expect(outcome).toMatchObject({ _tag: 'ClientClosed', threadId, turnId: 'turn-1', error: { _tag: 'ConnectionClosed' } });
    expect(outcome._tag === 'ClientClosed' && outcome.items.map(itemId)).toEqual(['p1']);
    // The turn as it ended for the client: the started turn, failed, with the end's category.
    expect(outcome).toMatchObject({ turn: { id: 'turn-1', status: 'failed', completedAt: null, error: { message: `the turn was lost: ${describeClientErrorCategory({ _tag: 'ConnectionClosed' })}`, codexErrorInfo: null } } });
    expect(E.isRight(codecs.Turn.decode(outcome._tag === 'ClientClosed' ? outcome.turn : null))).toBe(true);
  });

  it('leaves no listener behind', async () => {
    const { peer, client } = connect();
    const running = runTurn(client, { threadId, input });
    await startTurn(peer, 'turn-1');
    peer.send(turnCompleted('turn-1', 'completed'));
    await running;
    const second = runTurn(client, { threadId, input }, { timeoutMs: 20, interruptOnStop: false });
    await startTurn(peer, 'turn-2');
    // The first run's listeners are gone: a late completion of turn-1 is not the second turn's.
    peer.send(turnCompleted('turn-1', 'completed'));
    expect((await second)._tag).toBe('TimedOut');
  });

  it('keeps nothing of a finished turn reachable from the client that stays open', async () => {
    const { peer, client } = connect();
    /** Runs one turn to its end; only a weak reference to its items leaves this function. */
    const finishTurn = async (turnId: string): Promise<WeakRef<object>> => {
      const running = runTurn(client, { threadId, input });
      await startTurn(peer, turnId);
      peer.send(itemCompleted(turnId, plan(`${turnId}-plan`, 'x'.repeat(1000))));
      peer.send(turnCompleted(turnId, 'completed'));
      const outcome = await running;
      if (!isTurnEnded(outcome) || outcome.items.length !== 1) throw new Error(`turn ${turnId} ended ${outcome._tag}`);
      return new WeakRef(outcome.items);
    };
    const finished = [await finishTurn('turn-1'), await finishTurn('turn-2'), await finishTurn('turn-3')];
    // A turn waited for the client's end as well; a wait that is over must not keep its turn alive.
    expect(client.terminalError).toBeUndefined();
    expect(await collectedAfterGc(finished)).toEqual([true, true, true]);
  });
});
