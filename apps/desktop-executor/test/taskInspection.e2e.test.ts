/**
 * Supervision against the real app-server: an inspection is its own ephemeral thread (never the task's
 * thread), and its model configuration stays in memory: a canary in the credentials is absent from the
 * executor log, the app-server's stderr, every file under the test's directories, and the task's
 * transcript.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserInputStrict } from '@wework/codex-protocol';
import { respond, say, userMessages } from '@wework/scripted-model';
import { startScriptedModel } from '@wework/scripted-model/node';
import { taskInspector } from '../src/inspection/TaskInspector.js';
import { holdModelConfig } from '../src/inspection/InspectionModel.js';
import { startTaskSandbox } from './support/taskSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CANARY = 'CANARY-supervision-4d1e-model-credential';
const text = (value: string): UserInputStrict[] => [{ type: 'text', text: value, text_elements: [] }];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('task inspection (supervision/*)', () => {
  it('an inspection runs as its own ephemeral thread; the model config is never persisted or logged', async () => {
    const box = await startTaskSandbox({ script: [respond(say('task answer')), respond(say('task follow-up answer'))] }, cleanups);
    const inspector = await startScriptedModel({ script: [respond(say('INSPECTION: the task is on track'))] });
    cleanups.push(() => inspector.close());
    const task = await box.tasks.create({ taskId: 'task', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    if (E.isLeft(task)) throw new Error(JSON.stringify(task.left));
    await box.tasks.send('task', text('Do the work.'));

    const tasksInspector = taskInspector(box.supervisor, (entry) => box.log.push(entry));
    tasksInspector.setModel({ model: 'inspector-model', providerId: 'wework-supervisor', baseUrl: inspector.url, bearerToken: CANARY, headers: { 'x-gateway-key': `${CANARY}-header` } });
    const inspection = await tasksInspector.inspect({ prompt: 'Is the task on track?', workspace: box.workspace });
    if (E.isLeft(inspection)) throw new Error(JSON.stringify(inspection.left));
    expect(inspection.right).toMatchObject({ status: 'completed', messages: ['INSPECTION: the task is on track'] });
    expect(inspection.right.threadId).not.toBe(task.right.threadId);

    // Its own thread: ephemeral, on the inspector model; the task model never saw the inspection.
    const starts = box.exchanges('thread/start');
    expect(starts).toHaveLength(2);
    expect(starts[1]).toMatchObject({ params: { ephemeral: true, model: 'inspector-model', modelProvider: 'wework-supervisor' }, result: { thread: { id: inspection.right.threadId, ephemeral: true } } });
    expect(inspector.requests).toHaveLength(1);
    expect(inspector.requests[0]?.headers['authorization']).toBeDefined();
    expect(userMessages(inspector.requests[0] ?? { body: {} })).toContain('Is the task on track?');

    // The task's transcript does not contain the inspection: a follow-up's history is the task's own.
    await box.tasks.send('task', text('Continue.'));
    const followUp = box.model.requests[1];
    expect((followUp === undefined ? [] : userMessages(followUp)).filter((m) => !m.startsWith('<environment_context>'))).toEqual(['Do the work.', 'Continue.']);
    const taskNotifications = box.wire.filter((entry) => entry.direction === 'incoming' && 'method' in entry.message && JSON.stringify(entry.message).includes(task.right.threadId));
    expect(JSON.stringify(taskNotifications)).not.toContain('Is the task on track?');
    expect(JSON.stringify(taskNotifications)).not.toContain(CANARY);

    // Never logged, never written.
    expect(JSON.stringify(box.log)).not.toContain(CANARY);
    expect(box.supervisor.current().server.stderrTail()).not.toContain(CANARY);
    const files = await filesUnder(box.root);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect((await readFile(file)).includes(CANARY), file).toBe(false);
  });

  it('the held config is redacted in its JSON and inspect forms', () => {
    const held = holdModelConfig({ model: 'm', providerId: 'p', baseUrl: 'http://127.0.0.1:1/v1', bearerToken: CANARY });
    expect(JSON.stringify({ held })).not.toContain(CANARY);
    expect(inspect(held, { depth: 5 })).not.toContain(CANARY);
    expect(JSON.stringify(held.threadOverrides())).toContain(CANARY);
  });

  it('without a supervision model an inspection is refused', async () => {
    const box = await startTaskSandbox({ script: [] }, cleanups);
    expect(await taskInspector(box.supervisor, () => undefined).inspect({ prompt: 'x', workspace: box.workspace })).toEqual(E.left({ _tag: 'NoSupervisionModel' }));
    expect(box.exchanges('thread/start')).toEqual([]);
  });
});
