/**
 * The replayable event stream end to end, over WebSocket: the real executor, the real app-server, the
 * real forms plugin and the scripted model. The host drops its connection while a plugin form waits and
 * another task's turn runs on; it reconnects with its last `seq` and receives every notification it
 * missed once and in order, the form is shown again (same `cardId`) and its answer continues the turn;
 * a cursor older than the (here small) replay buffer is answered `reset`; and one connection serves the
 * window's subscribers, the last unsubscribe ending the stream until the next subscriber resumes it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, respond, say, shell } from '@wework/scripted-model';
import type { HostCard } from '@wework/host-protocol';
import type { CardPolicy } from '../src/host/ExecutorHostClient.js';
import { startHostBox } from './support/executorHostBox.js';
import { until } from '@wework/test-support';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The replay buffer of this executor (`WEWORK_EXECUTOR_EVENT_BUFFER`): large enough for one drop, small enough to fall behind. */
const BUFFER = 30;

const seqOf = (params: unknown): number => (params as { seq: number }).seq;

describe('the event stream across a dropped WebSocket', () => {
  it('replays what a reconnecting host missed once and in order, shows the waiting form again, resets a stale cursor, and ends with the last subscriber', async () => {
    const plugin = checkPluginBuilt('forms');
    if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
    // The first show of the form is never answered (the connection drops under it); a show again answers "Safe".
    let formShows = 0;
    let formShown: (card: HostCard) => void = () => undefined;
    const firstForm = new Promise<HostCard>((resolve) => (formShown = resolve));
    const cards: CardPolicy = (card) => {
      formShows += 1;
      if (formShows === 1) {
        formShown(card);
        return new Promise(() => undefined);
      }
      return { answers: { strategy: { answers: ['Safe'] } } };
    };
    const box = await startHostBox({
      prefix: 'harness-events-',
      transport: 'websocket',
      script: [
        // Task A asks the forms plugin, whose form waits for the user.
        respond(callTool('forms', 'choose_strategy')),
        // Task B runs on meanwhile: a command (the host is gone while it runs), then an answer.
        respond(shell('sleep 1 && touch b-done.txt')),
        respond(say('Task B is done.')),
        // Task A, once the form was answered on the new connection.
        respond(say('Aye, the safe course it is.')),
        // More turns, so that the first cursor falls out of the buffer.
        respond(say('one')),
        respond(say('two')),
        respond(say('three')),
        // Turns around the last unsubscribe of the window's shared connection.
        respond(say('four')),
        respond(say('five')),
      ],
      mcpServers: { forms: { ...plugin.command, default_tools_approval_mode: 'approve' } },
      waitForPlugins: ['forms'],
      env: { WEWORK_EXECUTOR_EVENT_BUFFER: String(BUFFER) },
      cards,
    });
    cleanups.push(() => box.close());
    const { host, model, dirs } = box;

    const fullAccess = { model: null, options: { permissionMode: 'full-access' as const } };
    for (const taskId of ['task-a', 'task-b']) {
      expect(await host.request('task/create', { taskId, modelSelection: fullAccess, executionRequest: { workspace: dirs.workspace } })).toMatchObject({ right: { task: { taskId } } });
    }
    // A's turn: its message/send is answered only once the turn ended, which is after the drop.
    const sentA = host.request('message/send', { taskId: 'task-a', markdown: 'Use [$Forms](plugin://forms@local-market).' });
    const card = await firstForm;
    expect(card).toMatchObject({ origin: 'mcpElicitation', serverName: 'forms', message: 'Choose how to continue' });
    const sentB = host.request('message/send', { taskId: 'task-b', markdown: 'Make b-done.txt' });
    await host.nextNotification<{ taskId: string }>('transcript/turnStarted', (params) => params.taskId === 'task-b', { includePast: true });

    // The connection drops with the form waiting and B's turn running.
    const cursor = host.lastSeq();
    const before = host.notifications().length;
    await host.drop();
    expect((await sentA)._tag).toBe('Left');
    expect((await sentB)._tag).toBe('Left');
    // B's command ran and its last answer was served while no host was connected.
    await until("task B's turn", () => existsSync(join(dirs.workspace, 'b-done.txt')) && model.requests.length >= 3, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Reconnect with the last seq: the missed notifications come first, then the form again.
    const resumed = await host.reconnect(cursor);
    expect(resumed).toMatchObject({ right: { reset: false } });
    const subscribedSeq = resumed._tag === 'Right' ? resumed.right.seq : -1;
    expect(subscribedSeq).toBeGreaterThan(cursor);
    const completedA = await host.nextNotification<{ taskId: string; turn: { status: string } }>('transcript/turnCompleted', (params) => params.taskId === 'task-a', { includePast: true });
    expect(completedA.turn.status).toBe('completed');
    const completedB = await host.nextNotification<{ taskId: string; turn: { status: string } }>('transcript/turnCompleted', (params) => params.taskId === 'task-b', { includePast: true });
    expect(completedB.turn.status).toBe('completed');

    // Every notification after the cursor arrived exactly once, in order: no gap, no duplicate.
    const after = host.notifications().slice(before);
    const seqs = after.map((n) => seqOf(n.params));
    expect(seqs).toEqual(seqs.map((_seq, i) => cursor + 1 + i));
    expect(seqs.filter((seq) => seq <= subscribedSeq).length).toBe(subscribedSeq - cursor);
    expect(host.duplicates()).toEqual([]);
    expect(host.gaps().filter((seq) => seq > cursor)).toEqual([]);
    // What B did while the host was away is among them: its command's completed item, once.
    const commandItems = after.filter((n) => n.method === 'transcript/item' && (n.params as { phase: string; item: { type: string } }).phase === 'completed' && (n.params as { item: { type: string } }).item.type === 'commandExecution');
    expect(commandItems).toHaveLength(1);
    expect(seqOf(commandItems[0]?.params)).toBeLessThanOrEqual(subscribedSeq);

    // The form was shown again with the same card and its answer continued A's turn.
    expect(host.cards).toHaveLength(2);
    expect(host.cards[1]).toEqual({ ...card, error: null });
    const toolItem = after.find((n) => (n.params as { phase?: string; item?: { type: string } }).phase === 'completed' && (n.params as { item: { type: string } }).item.type === 'mcpToolCall');
    expect(JSON.stringify(toolItem?.params)).toContain('continuing with strategy safe');
    expect(await host.request('cards/pending', {})).toEqual({ _tag: 'Right', right: { cards: [] } });
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toMatch(/card host disconnected/);

    // More turns, until the first cursor is older than the buffer: it gets reset and nothing is replayed.
    for (const [i, markdown] of ['one', 'two', 'three'].entries()) {
      const taskId = i % 2 === 0 ? 'task-a' : 'task-b';
      expect(await host.request('message/send', { taskId, markdown })).toMatchObject({ right: { status: 'completed' } });
    }
    expect(host.lastSeq()).toBeGreaterThan(cursor + BUFFER);
    const received = host.notifications().length;
    const stale = await host.reconnect(cursor);
    expect(stale).toEqual({ _tag: 'Right', right: { reset: true, seq: host.lastSeq() } });
    // An up-to-date cursor replays nothing either, and the stream goes on.
    expect(await host.request('events/subscribe', { after: host.lastSeq() })).toEqual({ _tag: 'Right', right: { reset: false, seq: host.lastSeq() } });
    expect(host.notifications().length).toBe(received);

    // One connection serves the window's subscribers: while one is left, the stream goes on.
    await host.addSubscriber('chat');
    await host.addSubscriber('plugin-updates');
    await host.removeSubscriber('chat');
    const live = host.notifications().length;
    expect(await host.request('message/send', { taskId: 'task-a', markdown: 'four' })).toMatchObject({ right: { status: 'completed' } });
    expect(host.notifications().length).toBeGreaterThan(live);
    // The last unsubscribe ends it: a whole turn sends this connection nothing.
    await host.removeSubscriber('plugin-updates');
    const mark = host.lastSeq();
    const quiet = host.notifications().length;
    expect(await host.request('message/send', { taskId: 'task-b', markdown: 'five' })).toMatchObject({ right: { status: 'completed' } });
    expect(host.notifications().length).toBe(quiet);
    // The next subscriber resumes with the cursor: that turn's notifications, once and in order.
    await host.addSubscriber('task-list');
    const resumedSeqs = host.notifications().slice(quiet).map((n) => seqOf(n.params));
    expect(resumedSeqs.length).toBeGreaterThan(0);
    expect(resumedSeqs).toEqual(resumedSeqs.map((_seq, i) => mark + 1 + i));
    expect(host.notifications().slice(quiet).filter((n) => n.method === 'transcript/turnCompleted')).toHaveLength(1);
    expect(host.duplicates()).toEqual([]);
    expect(host.gaps().filter((seq) => seq > cursor)).toEqual([]);
    expect(host.protocolViolations()).toEqual([]);
  });
});
