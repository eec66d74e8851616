/**
 * The thread lifecycle against the real app-server, with a fake clock: a thread idle for 30 minutes is
 * unsubscribed (seen on the wire, with its reply), a fifth idle thread releases the oldest, archiving
 * unsubscribes at once, a follow-up resumes the same thread with its history, and an app-server
 * restart releases every thread.
 */
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, say, userMessages } from '@wework/scripted-model';
import type { UserInputStrict } from '@wework/codex-protocol';
import type { NewTask } from '../src/tasks/TaskRuntime.js';
import { startTaskSandbox, type TaskSandbox } from './support/taskSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MINUTE = 60_000;
const text = (value: string): UserInputStrict[] => [{ type: 'text', text: value, text_elements: [] }];

const newTask = (box: TaskSandbox, taskId: string): NewTask => ({
  taskId,
  modelSelection: { model: null, options: { permissionMode: 'full-access' } },
  executionRequest: { workspace: box.workspace },
});

async function taskWithTurn(box: TaskSandbox, taskId: string, message: string): Promise<string> {
  const task = await box.tasks.create(newTask(box, taskId));
  if (E.isLeft(task)) throw new Error(JSON.stringify(task.left));
  const turn = await box.tasks.send(taskId, text(message));
  expect(turn).toMatchObject({ right: { status: 'completed' } });
  return task.right.threadId;
}

describe('thread lifecycle on the real app-server', () => {
  it('unsubscribes a thread idle for 30 minutes, not before; a follow-up resumes the same thread with its history', async () => {
    const box = await startTaskSandbox({ script: [respond(say('first answer')), respond(say('second answer'))] }, cleanups);
    const threadId = await taskWithTurn(box, 'task-1', 'Remember the word KUMQUAT.');
    expect(box.tasks.threadStatus('task-1')).toBe('Idle');

    box.clock.advance(30 * MINUTE - 1);
    await box.tasks.settled();
    expect(box.exchanges('thread/unsubscribe')).toEqual([]);

    box.clock.advance(1);
    await box.tasks.settled();
    expect(box.exchanges('thread/unsubscribe')).toEqual([{ params: { threadId }, result: { status: 'unsubscribed' } }]);
    expect(box.tasks.threadStatus('task-1')).toBe('Unloaded');

    const followUp = await box.tasks.send('task-1', text('What was the word?'));
    expect(followUp).toMatchObject({ right: { status: 'completed' } });
    const resumes = box.exchanges('thread/resume');
    expect(resumes).toHaveLength(1);
    expect(resumes[0]).toMatchObject({ params: { threadId }, result: { thread: { id: threadId } } });
    // The model sees the earlier history in the follow-up's request.
    const second = box.model.requests[1];
    expect(second === undefined ? [] : userMessages(second).join('\n')).toContain('Remember the word KUMQUAT.');
    expect(box.tasks.threadStatus('task-1')).toBe('Idle');
  });

  it('a fifth idle thread releases the oldest idle one at once', async () => {
    const box = await startTaskSandbox({ script: Array.from({ length: 5 }, (_, i) => respond(say(`answer ${i}`))) }, cleanups);
    const threads: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      threads.push(await taskWithTurn(box, `task-${i}`, `message ${i}`));
      box.clock.advance(MINUTE);
      await box.tasks.settled();
    }
    expect(box.exchanges('thread/unsubscribe')).toEqual([{ params: { threadId: threads[0] }, result: { status: 'unsubscribed' } }]);
    expect(box.log.find((entry) => entry.event === 'thread unsubscribed')?.fields).toMatchObject({ reason: 'cap' });
    expect([0, 1, 2, 3, 4].map((i) => box.tasks.threadStatus(`task-${i}`))).toEqual(['Unloaded', 'Idle', 'Idle', 'Idle', 'Idle']);
  });

  it('archiving unsubscribes at once, then archives the thread in Codex', async () => {
    const box = await startTaskSandbox({ script: [respond(say('done'))] }, cleanups);
    const threadId = await taskWithTurn(box, 'task-a', 'hello');
    expect(E.isRight(await box.tasks.archive('task-a'))).toBe(true);
    expect(box.exchanges('thread/unsubscribe')).toEqual([{ params: { threadId }, result: { status: 'unsubscribed' } }]);
    expect(box.exchanges('thread/archive')).toEqual([{ params: { threadId }, result: {} }]);
    expect(box.clock.deadline()).toBeNull();
    expect(await box.tasks.send('task-a', text('again'))).toMatchObject({ left: { _tag: 'TaskArchived' } });
  });

  it('an app-server restart releases every thread; the next message resumes the thread on the new process', async () => {
    const box = await startTaskSandbox({ script: [respond(say('before')), respond(say('after'))] }, cleanups);
    const threadId = await taskWithTurn(box, 'task-r', 'Remember PAPAYA.');
    expect(E.isRight(await box.supervisor.restart())).toBe(true);
    expect(await box.tasks.send('task-r', text('And now?'))).toMatchObject({ right: { status: 'completed' } });
    expect(box.exchanges('thread/unsubscribe')).toEqual([]);
    expect(box.exchanges('thread/resume')).toMatchObject([{ params: { threadId }, result: { thread: { id: threadId } } }]);
    const second = box.model.requests[1];
    expect(second === undefined ? [] : userMessages(second).join('\n')).toContain('Remember PAPAYA.');
  });
});
