/**
 * The executor logs what a newer Codex sends that this version does not know: once per
 * (method, literal), with kind, path and codec, never a value of the message. Over a real
 * app-server client on in-process streams; the peer replays a captured `turn/completed` patched
 * with a new turn status and a new item type.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServerClient, type AppServerClient } from '@wework/app-server-client';
import { TurnCompleted, type Turn } from '@wework/codex-protocol';
import { formatLogFields, type LogEntry } from '@wework/ports';
import { logUnknownProtocolValues, MAX_LOGGED_UNKNOWN_VALUES } from '../src/runtime/UnknownValueLog.js';

const secret = 'sk-test-do-not-log-0123';

/** A `turn/completed` as Codex 0.171.0 sends it, with a newer status and item type; the new item carries a secret. */
const turnCompleted = (status: string, itemType: string) => ({
  method: 'turn/completed',
  params: {
    threadId: 'thread-1',
    turn: {
      id: 'turn-1',
      rootTurnId: 'turn-1',
      items: [
        { type: 'agentMessage', moderation: null, id: 'msg_1', text: 'Hello from the scripted model.', phase: null, memoryCitation: null, delivery: null, questions: null, startedAtMs: 1, completedAtMs: 1 },
        { type: itemType, id: 'item_2', token: secret },
      ],
      itemsView: 'summary',
      status,
      error: null,
      startedAt: 1,
      completedAt: 2,
      durationMs: 1000,
    },
  },
});

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function connect(): { client: AppServerClient; send: (message: object) => void } {
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const client = createAppServerClient({ input, output });
  cleanup.push(() => client.dispose());
  return { client, send: (message) => void input.write(`${JSON.stringify(message)}\n`) };
}

/** Resolves once `count` turns reached the listener. */
const turnsSeen = (client: AppServerClient, count: number): Promise<Turn[]> =>
  new Promise((resolve) => {
    const turns: Turn[] = [];
    client.on(TurnCompleted, (params) => {
      turns.push(params.turn);
      if (turns.length === count) resolve(turns);
    });
  });

describe('logUnknownProtocolValues', () => {
  it('logs each unknown literal once per method and literal, with kind and path, without values; the message is still delivered', async () => {
    const { client, send } = connect();
    const entries: LogEntry[] = [];
    const subscription = logUnknownProtocolValues(client, (entry) => entries.push(entry));
    cleanup.push(() => subscription.dispose());
    const delivered = turnsSeen(client, 3);
    send(turnCompleted('paused', 'hologram'));
    send(turnCompleted('paused', 'hologram'));
    send(turnCompleted('completed', 'hologram'));
    const turns = await delivered;
    expect(turns.map((turn) => turn.status)).toEqual(['paused', 'paused', 'completed']);
    expect(turns[0]?.items[0]).toMatchObject({ type: 'agentMessage', text: 'Hello from the scripted model.' });
    expect(entries).toEqual([
      { event: 'codex unknown protocol value', fields: { method: 'turn/completed', side: 'params', kind: 'variant', path: '$.turn.items[1].type', codec: 'ThreadItem', literal: 'hologram' } },
      { event: 'codex unknown protocol value', fields: { method: 'turn/completed', side: 'params', kind: 'literal', path: '$.turn.status', codec: 'TurnStatus', literal: 'paused' } },
    ]);
    const text = entries.map(formatLogFields).join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('Hello from the scripted model.');
  });

  it('logs a literal that is not a protocol word in a safe form', async () => {
    const { client, send } = connect();
    const entries: LogEntry[] = [];
    const subscription = logUnknownProtocolValues(client, (entry) => entries.push(entry));
    cleanup.push(() => subscription.dispose());
    const delivered = turnsSeen(client, 1);
    send(turnCompleted(`status with ${secret}`, 'hologram'));
    await delivered;
    expect(entries.map((entry) => entry.fields)).toContainEqual(expect.objectContaining({ kind: 'literal', path: '$.turn.status', literal: '<not a protocol word>' }));
    expect(entries.map(formatLogFields).join('\n')).not.toContain(secret);
  });

  it('logs at most MAX_LOGGED_UNKNOWN_VALUES distinct literals per connection, then says so once', () => {
    let listener: Parameters<AppServerClient['onEvent']>[0] = () => undefined;
    const events: Pick<AppServerClient, 'onEvent'> = {
      onEvent: (l) => {
        listener = l;
        return { dispose: () => undefined };
      },
    };
    const entries: LogEntry[] = [];
    logUnknownProtocolValues(events, (entry) => entries.push(entry));
    for (let n = 0; n < MAX_LOGGED_UNKNOWN_VALUES + 5; n += 1) {
      listener({ _tag: 'UnknownProtocolValues', method: 'turn/completed', side: 'params', parts: [{ kind: 'literal', path: '$.turn.status', codec: 'TurnStatus', literal: `status${n}` }] });
    }
    expect(entries).toHaveLength(MAX_LOGGED_UNKNOWN_VALUES + 1);
    expect(entries.at(-1)).toEqual({ event: 'codex unknown protocol values not logged any more', fields: { limit: MAX_LOGGED_UNKNOWN_VALUES } });
  });
});
