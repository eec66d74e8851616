/**
 * How the task runtime carries out the thread lifecycle's commands, on a scripted app-server and a fake
 * clock: each thread has its own queue, so no thread's turn or archive waits for another thread's queued
 * commands, while a thread's follow-up still waits for its own unsubscribe under way (and resumes after
 * it); an archive under way when the app-server restarts is still archived in Codex;
 * and the archive's log lines (`thread archived` after an unsubscribe, `thread archive failed` only
 * when archiving a thread released before fails).
 */
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { describeClientError } from '@wework/app-server-client';
import type { UserInputStrict } from '@wework/codex-protocol';
import type { LogEntry } from '@wework/ports';
import { inMemoryModelRouterRegistry } from '../src/tasks/ModelRouterRegistry.js';
import { taskRuntime, type NewTask, type TaskRuntime } from '../src/tasks/TaskRuntime.js';
import { fakeClock, type FakeClock } from './support/fakeClock.js';
import { fakeRuntime, type FakeRuntime } from './support/fakeRuntime.js';

const MINUTE = 60_000;
const text: UserInputStrict[] = [{ type: 'text', text: 'hello', text_elements: [] }];
const newTask = (taskId: string): NewTask => ({ taskId, modelSelection: { model: null, options: { permissionMode: 'full-access' } }, executionRequest: { workspace: '/workspace' } });

interface Box {
  readonly app: FakeRuntime;
  readonly clock: FakeClock;
  readonly log: LogEntry[];
  readonly tasks: TaskRuntime;
}

function start(): Box {
  const app = fakeRuntime();
  const clock = fakeClock();
  const log: LogEntry[] = [];
  const tasks = taskRuntime({ runtime: app.supervisor, clock, timer: clock, registry: inMemoryModelRouterRegistry(), log: (entry) => log.push(entry) });
  return { app, clock, log, tasks };
}

async function created(box: Box, taskId: string): Promise<string> {
  const task = await box.tasks.create(newTask(taskId));
  if (E.isLeft(task)) throw new Error(JSON.stringify(task.left));
  return task.right.threadId;
}

/** A task whose thread ran one turn and is idle. */
async function idleTask(box: Box, taskId: string): Promise<string> {
  const threadId = await created(box, taskId);
  expect(await box.tasks.send(taskId, text)).toMatchObject({ right: { status: 'completed' } });
  expect(box.tasks.threadStatus(taskId)).toBe('Idle');
  return threadId;
}

/** Lets every answer that is not held come through. */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** Whether `promise` has settled once everything not held has come through. */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await flush();
  return done;
}

/** An idle thread's unsubscribe, due after 30 idle minutes, sent and held unanswered in the queue. */
async function heldIdleRelease(box: Box, threadId: string): Promise<() => void> {
  const held = box.app.hold('thread/unsubscribe', threadId);
  box.clock.advance(30 * MINUTE);
  await held.sent;
  return held.release;
}

const events = (log: ReadonlyArray<LogEntry>, ...names: string[]) => log.filter((entry) => names.includes(entry.event));

describe('a thread waits for no other thread’s lifecycle commands', () => {
  it('its first turn starts while another thread’s unsubscribe is still unanswered, with no resume', async () => {
    const box = start();
    const old = await idleTask(box, 'old');
    const release = await heldIdleRelease(box, old);
    const fresh = await created(box, 'new');

    const turn = box.tasks.send('new', text);
    await flush();
    expect(box.app.sentOf('turn/start')).toEqual([[1, old], [1, fresh]]);
    expect(box.app.sentOf('thread/resume')).toEqual([]);

    release();
    expect(await turn).toMatchObject({ right: { status: 'completed' } });
    await box.tasks.settled();
    expect(box.tasks.threadStatus('old')).toBe('Unloaded');
    expect(box.tasks.threadStatus('new')).toBe('Idle');
  });

  it('its archive unsubscribes it at once while another thread’s unsubscribe is unanswered, and archives nothing in Codex', async () => {
    const box = start();
    const old = await idleTask(box, 'old');
    const release = await heldIdleRelease(box, old);
    const fresh = await created(box, 'new');

    const archived = box.tasks.archive('new');
    expect(await settledNow(archived)).toBe(true);
    expect(E.isRight(await archived)).toBe(true);
    expect(box.app.sentOf('thread/unsubscribe')).toEqual([[1, old], [1, fresh]]);
    expect(events(box.log, 'thread unsubscribed').map((entry) => entry.fields)).toEqual([{ threadId: fresh, reason: 'archive (no turn yet)', status: 'unsubscribed' }]);

    release();
    await box.tasks.settled();
    expect(box.app.sentOf('thread/archive')).toEqual([]);
    expect(box.tasks.threadStatus('new')).toBe('Unloaded');
  });

  it('a follow-up to a thread that has had a turn runs while another thread’s unsubscribe is still unanswered', async () => {
    const box = start();
    const old = await idleTask(box, 'old');
    box.clock.advance(MINUTE);
    const other = await idleTask(box, 'other');
    const release = await heldIdleRelease(box, old);

    const turn = box.tasks.send('other', text);
    expect(await settledNow(turn)).toBe(true);
    expect(await turn).toMatchObject({ right: { status: 'completed' } });
    expect(box.app.sentOf('turn/start')).toEqual([[1, old], [1, other], [1, other]]);
    release();
    await box.tasks.settled();
    expect(box.tasks.threadStatus('old')).toBe('Unloaded');
    expect(box.tasks.threadStatus('other')).toBe('Idle');
  });
});

describe('a thread waits for its own lifecycle commands', () => {
  it('a follow-up while its own unsubscribe is unanswered waits for it, then resumes the thread before its turn', async () => {
    const box = start();
    const old = await idleTask(box, 'old');
    const release = await heldIdleRelease(box, old);

    const turn = box.tasks.send('old', text);
    expect(await settledNow(turn)).toBe(false);
    expect(box.app.sentOf('turn/start')).toEqual([[1, old]]);
    expect(box.app.sentOf('thread/resume')).toEqual([]);
    release();
    expect(await turn).toMatchObject({ right: { status: 'completed' } });
    expect(box.app.requests.filter((request) => request.threadId === old).map((request) => request.method)).toEqual(['thread/start', 'turn/start', 'thread/unsubscribe', 'thread/resume', 'turn/start']);
  });
});

describe('an app-server restart while an archive’s unsubscribe is under way', () => {
  it('while another thread’s unsubscribe is unanswered: it waits for none of it; the unsubscribe and then thread/archive go to the new app-server', async () => {
    const box = start();
    const other = await idleTask(box, 'other');
    box.clock.advance(MINUTE);
    const archivedThread = await idleTask(box, 'task');
    const held = box.app.hold('thread/unsubscribe', other);
    box.clock.advance(29 * MINUTE);
    await held.sent;
    expect(box.tasks.threadStatus('task')).toBe('Idle');

    const archived = box.tasks.archive('task');
    box.app.restart();
    expect(await settledNow(archived)).toBe(true);
    expect(E.isRight(await archived)).toBe(true);
    held.release();
    await box.tasks.settled();

    expect(box.app.requests.filter((request) => request.threadId === archivedThread && request.method.startsWith('thread/'))).toEqual([
      { server: 1, method: 'thread/start', threadId: archivedThread },
      { server: 2, method: 'thread/unsubscribe', threadId: archivedThread },
      { server: 2, method: 'thread/archive', threadId: archivedThread },
    ]);
    const ofArchived = (entry: LogEntry) => entry.fields['threadId'] === undefined || entry.fields['threadId'] === archivedThread;
    expect(events(box.log, 'threads released by app-server restart', 'thread unsubscribed', 'thread archived', 'thread archive failed').filter(ofArchived)).toEqual([
      { event: 'threads released by app-server restart', fields: {} },
      { event: 'thread unsubscribed', fields: { threadId: archivedThread, reason: 'archive', status: 'unsubscribed' } },
      { event: 'thread archived', fields: { threadId: archivedThread } },
    ]);
  });

  it('sent and unanswered when the restart is noticed: thread/archive still goes out once it is answered', async () => {
    const box = start();
    const threadId = await idleTask(box, 'task');
    const held = box.app.hold('thread/unsubscribe', threadId);
    const archived = box.tasks.archive('task');
    await held.sent;
    box.app.restart();
    // Another task's call notices the new process first.
    await created(box, 'later');
    held.release();
    expect(E.isRight(await archived)).toBe(true);
    await box.tasks.settled();

    expect(box.app.sentOf('thread/unsubscribe')).toEqual([[1, threadId]]);
    expect(box.app.sentOf('thread/archive')).toEqual([[2, threadId]]);
    expect(events(box.log, 'thread archived')).toEqual([{ event: 'thread archived', fields: { threadId } }]);
  });
});

describe('the archive’s log lines', () => {
  it('a subscribed thread: `thread unsubscribed`, then `thread archived` (with the error when Codex refuses)', async () => {
    const box = start();
    const ok = await idleTask(box, 'ok');
    const refused = await idleTask(box, 'refused');
    expect(E.isRight(await box.tasks.archive('ok'))).toBe(true);
    const error = box.app.fail('thread/archive');
    expect(E.isRight(await box.tasks.archive('refused'))).toBe(true);

    expect(events(box.log, 'thread unsubscribed', 'thread archived', 'thread archive failed')).toEqual([
      { event: 'thread unsubscribed', fields: { threadId: ok, reason: 'archive', status: 'unsubscribed' } },
      { event: 'thread archived', fields: { threadId: ok } },
      { event: 'thread unsubscribed', fields: { threadId: refused, reason: 'archive', status: 'unsubscribed' } },
      { event: 'thread archived', fields: { threadId: refused, error: describeClientError(error) } },
    ]);
  });

  it('a thread released before: thread/archive alone, logged only when it fails, as `thread archive failed`', async () => {
    const box = start();
    const ok = await idleTask(box, 'ok');
    const refused = await idleTask(box, 'refused');
    box.clock.advance(30 * MINUTE);
    await box.tasks.settled();
    expect([box.tasks.threadStatus('ok'), box.tasks.threadStatus('refused')]).toEqual(['Unloaded', 'Unloaded']);
    const before = box.log.length;

    expect(E.isRight(await box.tasks.archive('ok'))).toBe(true);
    expect(box.log.slice(before)).toEqual([]);
    const error = box.app.fail('thread/archive');
    expect(E.isRight(await box.tasks.archive('refused'))).toBe(true);
    expect(box.log.slice(before)).toEqual([{ event: 'thread archive failed', fields: { threadId: refused, error: describeClientError(error) } }]);

    expect(box.app.sentOf('thread/archive')).toEqual([[1, ok], [1, refused]]);
    expect(box.app.sentOf('thread/unsubscribe')).toEqual([[1, ok], [1, refused]]);
  });

  it('a thread released by an app-server restart: thread/archive on the new process, no unsubscribe, no log line', async () => {
    const box = start();
    const threadId = await idleTask(box, 'task');
    box.app.restart();
    expect(E.isRight(await box.tasks.archive('task'))).toBe(true);
    expect(box.app.sentOf('thread/unsubscribe')).toEqual([]);
    expect(box.app.sentOf('thread/archive')).toEqual([[2, threadId]]);
    expect(events(box.log, 'thread archived', 'thread archive failed')).toEqual([]);
  });
});
