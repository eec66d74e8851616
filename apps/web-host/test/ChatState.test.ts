/**
 * The chat reducer: an agent message is exactly its deltas in order until its completed item brings
 * the whole text; items are upserted by id; turn status follows the stream; cards are shown once per
 * id, turn stale when the connection drops and leave when settled or no longer pending; any sequence
 * of actions keeps the state well-formed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '@wework/host-protocol';
import type { CardModel } from '../src/CardForm.js';
import { cardsOfTask, initialChat, isBusy, reduceChat, selectedTask, type ChatAction, type ChatState } from '../src/ChatState.js';

const task = (taskId: string, threadId = `thread-${taskId}`): TaskRecord => ({
  taskId,
  threadId,
  modelSelection: { model: null, options: { permissionMode: 'read-only' } },
  executionRequest: { workspace: '/w' },
  archived: false,
});

const agentItem = (id: string, text: string) => ({ type: 'agentMessage', id, text, phase: null, memoryCitation: null, moderation: null, delivery: null, questions: null }) as never;

const cardModel = (cardId: string, threadId: string): CardModel => ({ cardId, origin: 'mcpElicitation', threadId, kind: 'form', message: 'm', serverName: 'forms', fields: [], submitOnSelect: false, error: null, card: { cardId, origin: 'mcpElicitation', kind: 'form', threadId, turnId: null, serverName: 'forms', message: 'm', questions: [], submitOnSelect: false } });

const fold = (actions: ReadonlyArray<ChatAction>, from: ChatState = initialChat): ChatState => actions.reduce(reduceChat, from);
const ids = { taskId: 'a', threadId: 'thread-a', turnId: 'turn-1' };

describe('the transcript', () => {
  it('shows an agent message as its deltas in order, then as its completed text', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 20 }), fc.string(), (deltas, final) => {
        const streamed = fold([
          { _tag: 'TasksLoaded', tasks: [task('a')] },
          { _tag: 'TurnStarted', params: { ...ids, seq: 1 } as never },
          { _tag: 'Item', params: { ...ids, phase: 'started', item: agentItem('m1', '') } as never },
          ...deltas.map((delta): ChatAction => ({ _tag: 'Delta', params: { ...ids, itemId: 'm1', delta } as never })),
        ]);
        expect(selectedTask(streamed)?.entries).toEqual([{ itemId: 'm1', kind: 'agent', text: deltas.join(''), status: null, detail: null }]);
        expect(selectedTask(streamed) !== undefined && isBusy(selectedTask(streamed)!)).toBe(true);
        const done = fold([{ _tag: 'Item', params: { ...ids, phase: 'completed', item: agentItem('m1', final) } as never }], streamed);
        expect(selectedTask(done)?.entries.map((e) => e.text)).toEqual([final]);
      }),
    );
  });

  it('shows a command compactly with its status, exit code and clipped output, and ends the turn with its status', () => {
    const command = { type: 'commandExecution', id: 'c1', command: "/bin/bash -lc 'touch a'", cwd: '/w', processId: null, source: 'agent', status: 'completed', commandActions: [], aggregatedOutput: 'x'.repeat(5000), exitCode: 0, durationMs: 1, pluginId: null, scriptPath: null };
    const state = fold([
      { _tag: 'TasksLoaded', tasks: [task('a')] },
      { _tag: 'Item', params: { ...ids, phase: 'completed', item: command } as never },
      { _tag: 'TurnCompleted', params: { taskId: 'a', threadId: 'thread-a', turn: { status: 'failed', error: { message: 'boom' } } } as never },
    ]);
    const entry = selectedTask(state)?.entries[0];
    expect(entry).toMatchObject({ kind: 'command', text: "/bin/bash -lc 'touch a'", status: 'completed' });
    expect(entry?.detail?.startsWith('exit 0\n')).toBe(true);
    expect(entry?.detail?.length).toBeLessThanOrEqual('exit 0\n'.length + 2001);
    expect(selectedTask(state)?.turn).toEqual({ _tag: 'Ended', status: 'failed', error: 'boom' });
  });

  it('shows an item kind of a newer Codex by its kind only', () => {
    const state = fold([
      { _tag: 'TasksLoaded', tasks: [task('a')] },
      { _tag: 'Item', params: { ...ids, phase: 'completed', item: { _unknown: true, tag: 'type', literal: 'hologram', raw: { id: 'h1', secret: 's' } } } as never },
    ]);
    expect(selectedTask(state)?.entries).toEqual([{ itemId: 'h1', kind: 'other', text: 'hologram', status: null, detail: null }]);
  });
});

describe('the cards', () => {
  it('shows a card once per id, keeps it across a drop as stale until shown again, and drops it when settled or no longer pending', () => {
    let state = fold([{ _tag: 'TasksLoaded', tasks: [task('a'), task('b')] }, { _tag: 'CardShown', model: cardModel('c1', 'thread-a') }, { _tag: 'CardShown', model: cardModel('c2', 'thread-b') }]);
    expect(cardsOfTask(state, state.tasks[0]!).map((c) => c.model.cardId)).toEqual(['c1']);
    state = fold([{ _tag: 'Connection', state: 'reconnecting' }], state);
    expect(state.cards.map((c) => c.stale)).toEqual([true, true]);
    state = fold([{ _tag: 'Connection', state: 'open' }, { _tag: 'CardShown', model: cardModel('c1', 'thread-a') }, { _tag: 'CardsPending', cardIds: ['c1'] }], state);
    expect(state.cards.map((c) => [c.model.cardId, c.stale])).toEqual([['c1', false]]);
    state = fold([{ _tag: 'CardSettled', cardId: 'c1' }], state);
    expect(state.cards).toEqual([]);
  });
});

describe('any sequence of actions', () => {
  const action: fc.Arbitrary<ChatAction> = fc.oneof(
    fc.constantFrom('connecting', 'open', 'reconnecting', 'closed').map((s): ChatAction => ({ _tag: 'Connection', state: s as ChatState['connection'] })),
    fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }).map((t): ChatAction => ({ _tag: 'TasksLoaded', tasks: t.map((id) => task(id)) })),
    fc.constantFrom('a', 'b', 'c').map((id): ChatAction => ({ _tag: 'TaskCreated', task: task(id) })),
    fc.constantFrom('a', 'b', 'z').map((id): ChatAction => ({ _tag: 'Select', taskId: id })),
    fc.constantFrom('a', 'b').map((id): ChatAction => ({ _tag: 'Sending', taskId: id })),
    fc.tuple(fc.constantFrom('a', 'b'), fc.string()).map(([id, delta]): ChatAction => ({ _tag: 'Delta', params: { taskId: id, threadId: `thread-${id}`, turnId: 't', itemId: 'm', delta } as never })),
    fc.tuple(fc.constantFrom('c1', 'c2'), fc.constantFrom('thread-a', 'thread-b')).map(([id, thread]): ChatAction => ({ _tag: 'CardShown', model: cardModel(id, thread) })),
    fc.constantFrom('c1', 'c2').map((id): ChatAction => ({ _tag: 'CardSettled', cardId: id })),
    fc.array(fc.constantFrom('c1', 'c2'), { maxLength: 2 }).map((cardIds): ChatAction => ({ _tag: 'CardsPending', cardIds })),
  );
  it('keeps one entry per task id and card id, and a selection that names a task or nothing', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        const state = fold(actions);
        expect(new Set(state.tasks.map((t) => t.taskId)).size).toBe(state.tasks.length);
        expect(new Set(state.cards.map((c) => c.model.cardId)).size).toBe(state.cards.length);
        expect(state.selected === null || state.tasks.some((t) => t.taskId === state.selected)).toBe(true);
        for (const t of state.tasks) expect(new Set(t.entries.map((e) => e.itemId)).size).toBe(t.entries.length);
      }),
    );
  });
});
