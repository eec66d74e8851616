import { PassThrough } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { collectedAfterGc } from './support/gc.js';
import { ModelList, ItemToolRequestUserInput } from '@wework/codex-protocol';
import { createAppServerClient, trackActivity, type AppServerClient } from '../src/index.js';

const clients: AppServerClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

/** A client whose peer is the test: `sent` collects what the client wrote, `send` writes as the server. */
function connected() {
  const fromServer = new PassThrough();
  const toServer = new PassThrough();
  const sent: Array<Record<string, unknown>> = [];
  let buffer = '';
  toServer.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      sent.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
      buffer = buffer.slice(newline + 1);
    }
  });
  const client = createAppServerClient({ input: fromServer, output: toServer });
  clients.push(client);
  const send = (message: unknown): void => void fromServer.write(JSON.stringify(message) + '\n');
  return { client, sent, send };
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));
const turn = (id: string) => ({ id, items: [], status: 'inProgress', error: null, startedAt: null, completedAt: null, durationMs: null });

describe('trackActivity', () => {
  it('sees a request in flight until its reply arrives', async () => {
    const { client, sent, send } = connected();
    const activity = trackActivity(client);
    expect(activity.isIdle()).toBe(true);
    const reply = client.request(ModelList, { includeHidden: false });
    await tick();
    expect(activity.current().requestsInFlight).toEqual(['model/list']);
    send({ id: sent[0]?.['id'], result: { data: [], nextCursor: null } });
    expect(E.isRight(await reply)).toBe(true);
    expect(activity.isIdle()).toBe(true);
  });

  it('sees a server request pending until it is answered', async () => {
    const { client, sent, send } = connected();
    const activity = trackActivity(client);
    let answer: ((value: E.Either<never, { answers: Record<string, never> }>) => void) | undefined;
    client.onServerRequest(ItemToolRequestUserInput, () => new Promise((resolve) => (answer = resolve)));
    send({ id: 7, method: 'item/tool/requestUserInput', params: { threadId: 't', turnId: 'u', itemId: 'i', isBlocking: true, questions: [] } });
    await tick();
    expect(sent).toEqual([]);
    await tick();
    expect(activity.current().serverRequestsPending).toEqual(['item/tool/requestUserInput']);
    answer?.(E.right({ answers: {} }));
    await tick();
    expect(activity.isIdle()).toBe(true);
  });

  it('sees a turn from turn/started until its turn/completed, per turn id', async () => {
    const { client, send } = connected();
    const activity = trackActivity(client);
    send({ method: 'turn/started', params: { threadId: 'a', turn: turn('1') } });
    send({ method: 'turn/started', params: { threadId: 'b', turn: turn('2') } });
    await tick();
    expect(activity.current().activeTurns).toEqual([
      { threadId: 'a', turnId: '1' },
      { threadId: 'b', turnId: '2' },
    ]);
    send({ method: 'turn/completed', params: { threadId: 'a', turn: { ...turn('1'), status: 'completed' } } });
    await tick();
    expect(activity.current().activeTurns).toEqual([{ threadId: 'b', turnId: '2' }]);
  });

  it('ignores notifications it cannot read, and stops watching when disposed', async () => {
    const { client, send } = connected();
    const activity = trackActivity(client);
    send({ method: 'turn/started', params: null });
    send({ method: 'turn/started', params: { threadId: 'a', turn: {} } });
    await tick();
    expect(activity.isIdle()).toBe(true);
    activity.dispose();
    send({ method: 'turn/started', params: { threadId: 'a', turn: turn('1') } });
    await tick();
    expect(activity.isIdle()).toBe(true);
  });

  it('keeps nothing of a disposed tracker reachable from the client that stays open', async () => {
    const { client, send } = connected();
    /** Tracks one turn, then disposes the tracker; only a weak reference to what it tracked leaves this function. */
    const trackOnce = async (turnId: string): Promise<WeakRef<object>> => {
      const activity = trackActivity(client);
      send({ method: 'turn/started', params: { threadId: 'a', turn: turn(turnId) } });
      await tick();
      const [active] = activity.current().activeTurns;
      if (active === undefined) throw new Error(`turn ${turnId} not tracked`);
      activity.dispose();
      return new WeakRef(active);
    };
    const disposed = [await trackOnce('1'), await trackOnce('2'), await trackOnce('3')];
    expect(client.terminalError).toBeUndefined();
    expect(await collectedAfterGc(disposed)).toEqual([true, true, true]);
  });
});

describe('trackActivity forgets work that cannot finish', () => {
  it('drops a request abandoned by its timeout, and everything once the connection ended', async () => {
    const fromServer = new PassThrough();
    const toServer = new PassThrough();
    toServer.resume();
    const client = createAppServerClient({ input: fromServer, output: toServer, requestTimeouts: { 'model/list': 30 } });
    clients.push(client);
    const activity = trackActivity(client);
    const reply = client.request(ModelList, { includeHidden: false });
    expect(activity.current().requestsInFlight).toEqual(['model/list']);
    expect(E.isLeft(await reply)).toBe(true);
    expect(activity.isIdle()).toBe(true);

    fromServer.write(JSON.stringify({ method: 'turn/started', params: { threadId: 'thread-1', turn: turn('turn-1') } }) + '\n');
    await tick();
    expect(activity.current().activeTurns).toHaveLength(1);
    fromServer.end();
    await client.closed;
    await tick();
    expect(activity.isIdle()).toBe(true);
  });
});
