/**
 * How the task runtime carries out `@wework/thread-lifecycle`'s task rules on a scripted app-server: the
 * requests a send makes when its thread was lost before its first turn, when a resume after a failed first
 * turn is refused, when the environment changed, and which turns leave out their overrides. The rules
 * themselves are property-tested in the library; this checks the wiring (what goes out, to which process).
 */
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { UserInputStrict } from '@wework/codex-protocol';
import type { LogEntry } from '@wework/ports';
import { inMemoryModelRouterRegistry } from '../src/tasks/ModelRouterRegistry.js';
import type { ModelSelection } from '@wework/host-protocol';
import { taskRuntime, type TaskRuntime } from '../src/tasks/TaskRuntime.js';
import { fakeClock, type FakeClock } from './support/fakeClock.js';
import { fakeRuntime, type FakeRuntime } from './support/fakeRuntime.js';

const text: UserInputStrict[] = [{ type: 'text', text: 'hello', text_elements: [] }];
const fullAccess: ModelSelection = { model: null, options: { permissionMode: 'full-access' } };

interface Box {
  readonly app: FakeRuntime;
  readonly log: LogEntry[];
  readonly tasks: TaskRuntime;
  readonly clock: FakeClock;
  /** The thread environment's version (the runtime token's); bump it to change the overrides. */
  readonly environment: { version: number };
}

function start(): Box {
  const app = fakeRuntime();
  const clock = fakeClock();
  const log: LogEntry[] = [];
  const environment = { version: 0 };
  const tasks = taskRuntime({
    runtime: app.supervisor,
    clock,
    timer: clock,
    registry: inMemoryModelRouterRegistry(),
    log: (entry) => log.push(entry),
    environment: { version: () => environment.version, overrides: () => ({ env: environment.version }) },
  });
  return { app, log, tasks, clock, environment };
}

async function created(box: Box, taskId: string): Promise<string> {
  const task = await box.tasks.create({ taskId, modelSelection: fullAccess, executionRequest: { workspace: '/workspace' } });
  if (E.isLeft(task)) throw new Error(JSON.stringify(task.left));
  return task.right.threadId;
}

const threadCalls = (app: FakeRuntime) => app.requests.filter((request) => request.method.startsWith('thread/') || request.method === 'turn/start');

describe('a thread with no rollout', () => {
  it('lost with its app-server before its first turn: the send starts a new thread on the new process, with no resume', async () => {
    const box = start();
    const old = await created(box, 'task');
    box.app.restart();
    expect(await box.tasks.send('task', text)).toMatchObject({ right: { status: 'completed' } });
    const renewed = box.tasks.get('task')?.threadId;
    expect(renewed).not.toBe(old);
    expect(threadCalls(box.app)).toEqual([
      { server: 1, method: 'thread/start', threadId: old },
      { server: 2, method: 'thread/start', threadId: renewed },
      { server: 2, method: 'turn/start', threadId: renewed },
    ]);
    expect(box.log.map((entry) => entry.event)).toContain('thread started again: lost before its first turn');
  });

  it('its first turn failed: after a restart the resume is tried first, and Codex refusing it starts a new thread', async () => {
    const box = start();
    const old = await created(box, 'task');
    box.app.endTurnsAs('failed');
    expect(await box.tasks.send('task', text)).toMatchObject({ right: { status: 'failed' } });
    box.app.restart();
    box.app.fail('thread/resume');
    box.app.endTurnsAs('completed');
    expect(await box.tasks.send('task', text)).toMatchObject({ right: { status: 'completed' } });
    const renewed = box.tasks.get('task')?.threadId;
    expect(threadCalls(box.app).slice(2)).toEqual([
      { server: 2, method: 'thread/resume', threadId: old },
      { server: 2, method: 'thread/start', threadId: renewed },
      { server: 2, method: 'turn/start', threadId: renewed },
    ]);
  });

  it('a refused resume of a thread that completed a turn is the send’s error: no new thread', async () => {
    const box = start();
    const threadId = await created(box, 'task');
    await box.tasks.send('task', text);
    box.app.restart();
    box.app.fail('thread/resume');
    expect(await box.tasks.send('task', text)).toMatchObject({ left: { _tag: 'Runtime', error: { _tag: 'RequestFailed', method: 'thread/resume' } } });
    expect(box.tasks.get('task')?.threadId).toBe(threadId);
    expect(box.app.sentOf('thread/start')).toEqual([[1, threadId]]);
  });
});

describe('a new environment', () => {
  it('an idle thread is unsubscribed for reload and resumed before its turn', async () => {
    const box = start();
    const threadId = await created(box, 'task');
    await box.tasks.send('task', text);
    box.environment.version = 1;
    await box.tasks.send('task', text);
    expect(threadCalls(box.app)).toEqual(['thread/start', 'turn/start', 'thread/unsubscribe', 'thread/resume', 'turn/start'].map((method) => ({ server: 1, method, threadId })));
    expect(box.log.find((entry) => entry.event === 'thread unsubscribed')?.fields).toMatchObject({ reason: 'reload' });
  });

  it('a thread that never ran a turn is replaced by a new one, and released', async () => {
    const box = start();
    const old = await created(box, 'task');
    box.environment.version = 1;
    await box.tasks.send('task', text);
    const renewed = box.tasks.get('task')?.threadId;
    await box.tasks.settled();
    expect(box.app.sentOf('thread/start')).toEqual([[1, old], [1, renewed]]);
    expect(box.app.sentOf('thread/unsubscribe')).toEqual([[1, old]]);
    expect(box.app.sentOf('turn/start')).toEqual([[1, renewed]]);
  });
});

describe('turn overrides', () => {
  it('a turn with the overrides its thread took leaves them out; a new mode sends them; after a restart, the resume on the new app-server carried them', async () => {
    const box = start();
    await created(box, 'task');
    await box.tasks.send('task', text);
    await box.tasks.send('task', text);
    await box.tasks.send('task', text, { model: null, options: { permissionMode: 'read-only' } });
    box.app.restart();
    await box.tasks.send('task', text);
    await box.tasks.send('task', text);
    expect(box.app.sentOf('thread/resume')).toEqual([[2, box.tasks.get('task')?.threadId]]);
    expect(box.app.turnParams.map(({ params }) => params?.permissions ?? 'left out')).toEqual([':danger-full-access', 'left out', ':read-only', 'left out', 'left out']);
  });

  it('after a resume that carried the same overrides, the next turn leaves them out; a new mode sends them', async () => {
    const box = start();
    const threadId = await created(box, 'task');
    await box.tasks.send('task', text);
    box.clock.advance(31 * 60_000); // idle past the window: released
    await box.tasks.settled();
    expect(box.tasks.threadStatus('task')).toBe('Unloaded');
    await box.tasks.send('task', text);
    await box.tasks.send('task', text, { model: null, options: { permissionMode: 'read-only' } });
    expect(box.app.sentOf('thread/resume')).toEqual([[1, threadId]]);
    expect(box.app.turnParams.map(({ params }) => params?.permissions ?? 'left out')).toEqual([':danger-full-access', 'left out', ':read-only']);
  });
});
