/**
 * A send waits for a restarting runtime, end to end: the serve entry as a process (its own executor home
 * and HOME), the real app-server and the scripted model. The app-server is SIGKILLed while idle, and while
 * a turn streams, and each kill is followed at once by `message/send` of the same task: the send is not
 * refused — it waits for `runtime/status` to say `ready` again and completes on the same thread, with the
 * earlier history; `models/list` sent during the backoff waits and answers too. With a constant restart
 * backoff, each send takes at least the rest of the backoff and completes well within the bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hang, respond, say, userMessages, type RecordedRequest } from '@wework/scripted-model';
import type { ScriptedModel } from '@wework/scripted-model/node';
import type { RuntimeStatus } from '@wework/host-protocol';
import { appServerPid, killAppServer } from './support/appServerProcess.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';
import { until } from '@wework/test-support';

/** The constant restart backoff: long enough that every send below is made while the runtime restarts. */
const RESTART_BACKOFF_MS = 1_500;

let box: HostBox;

beforeAll(async () => {
  box = await startHostBox({
    prefix: 'harness-host-restart-wait-',
    script: [respond(say('First reply.')), respond(say('Second reply, after the idle kill.')), hang(), respond(say('Fourth reply, after the kill under a turn.'))],
    env: { WEWORK_EXECUTOR_RESTART_BACKOFF_MS: String(RESTART_BACKOFF_MS) },
    cards: () => ({ action: 'cancel' }),
  });
}, 120_000);

afterAll(async () => {
  await box?.close();
});

const modelTurns = (model: ScriptedModel): ReadonlyArray<RecordedRequest> => model.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/v1/responses'));
const sentMessages = (model: ScriptedModel): ReadonlyArray<string> => {
  const last = modelTurns(model).at(-1);
  return last === undefined ? [] : userMessages(last).filter((text) => text.startsWith('Message'));
};

describe('a send waits for a restarting runtime', () => {
  let threadId = '';

  it('a SIGKILL of the idle app-server, then message/send at once: the send waits for ready and completes on the same thread', async () => {
    const { host } = box;
    const created = await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    if (created._tag === 'Left') throw new Error(`task/create failed: ${created.left.message}`);
    threadId = created.right.task.threadId;
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Message one.' })).toMatchObject({ right: { status: 'completed', threadId } });

    const ready = host.nextNotification<RuntimeStatus>('runtime/status', (status) => status.state === 'ready');
    const killed = await killAppServer(host.pid);
    const sentAt = Date.now();
    const sent = await host.request('message/send', { taskId: 'task-1', markdown: 'Message two.' });
    const waitedMs = Date.now() - sentAt;
    expect(sent).toMatchObject({ right: { status: 'completed', threadId, error: null } });
    const back = await ready;
    expect(back.pid).not.toBe(killed);
    expect(await appServerPid(host.pid)).toBe(back.pid);
    // It waited out the restart (the backoff, then the start and the thread's resume), far within the 30 s bound.
    expect(waitedMs).toBeGreaterThanOrEqual(RESTART_BACKOFF_MS - 100);
    expect(waitedMs).toBeLessThan(30_000);
    expect(sentMessages(box.model)).toEqual(['Message one.', 'Message two.']);
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toContain('request waited for the app-server');
    console.info(`message/send after an idle SIGKILL waited and completed in ${waitedMs} ms`);
  });

  it('models/list sent during the backoff waits and answers', async () => {
    const { host } = box;
    const restarting = host.nextNotification<RuntimeStatus>('runtime/status', (status) => status.state === 'restarting');
    await killAppServer(host.pid);
    await restarting;
    expect(await host.request('executor/info', {})).toMatchObject({ right: { runtime: { state: 'restarting' } } });
    const listed = await host.request('models/list', {});
    expect(listed).toMatchObject({ right: { models: expect.any(Array) } });
    expect(await host.request('executor/info', {})).toMatchObject({ right: { runtime: { state: 'ready' } } });
  });

  it('a SIGKILL under a streaming turn, then message/send at once: the turn ends failed, the new send waits and completes on the same thread', async () => {
    const { host, model } = box;
    const requestsBefore = modelTurns(model).length;
    const running = host.request('message/send', { taskId: 'task-1', markdown: 'Message three, under a kill.' });
    await until('the model request', () => modelTurns(model).length > requestsBefore, 60_000);
    const ready = host.nextNotification<RuntimeStatus>('runtime/status', (status) => status.state === 'ready');
    await killAppServer(host.pid);
    const sentAt = Date.now();
    const sending = host.request('message/send', { taskId: 'task-1', markdown: 'Message four.' });
    expect(await running).toMatchObject({ right: { status: 'failed', threadId, error: expect.stringContaining('app-server') } });
    const sent = await sending;
    const waitedMs = Date.now() - sentAt;
    expect(sent).toMatchObject({ right: { status: 'completed', threadId, error: null } });
    await ready;
    expect(waitedMs).toBeGreaterThanOrEqual(RESTART_BACKOFF_MS - 100);
    expect(waitedMs).toBeLessThan(30_000);
    expect(sentMessages(model)).toEqual(expect.arrayContaining(['Message one.', 'Message two.', 'Message four.']));
    expect(await host.request('task/list', {})).toMatchObject({ right: { tasks: [expect.objectContaining({ taskId: 'task-1', threadId })] } });
    // Not one request of this conversation was refused as RuntimeUnavailable.
    const refused = host.transcript.filter((entry) => entry.direction === 'toHost' && (entry.message['error'] as { readonly code?: number } | undefined)?.code === -32012);
    expect(refused).toEqual([]);
    expect(host.runtimeStatuses().map((status) => status.state)).toEqual(['restarting', 'ready', 'restarting', 'ready', 'restarting', 'ready']);
    console.info(`message/send after a SIGKILL under a turn waited and completed in ${waitedMs} ms`);
  });
});
