/**
 * Forking a task from a historical turn against the real app-server: `thread/fork` gets the source
 * task's model, provider, permission profile and workspace (observed in the fork response), the new
 * task gets copies of `executionRequest` and `modelSelection`, and a task routed through the local
 * model router reuses its registration, or fails with a typed error when the router has none.
 */
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserInputStrict } from '@wework/codex-protocol';
import { modelProviderSettings, respond, say, userMessages } from '@wework/scripted-model';
import type { ModelRouterRegistration } from '../src/tasks/ModelRouterRegistry.js';
import { startTaskSandbox } from './support/taskSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const text = (value: string): UserInputStrict[] => [{ type: 'text', text: value, text_elements: [] }];

describe('fork', () => {
  it('passes the source task’s model, provider, permissions and workspace to thread/fork and copies the task fields', async () => {
    const box = await startTaskSandbox({ script: [respond(say('one')), respond(say('two')), respond(say('from the fork'))] }, cleanups);
    const modelSelection = { model: 'gpt-5.5', modelProvider: 'scripted', category: 'nonOfficial' as const, options: { permissionMode: 'workspace', note: 'kept' } };
    const executionRequest = { workspace: box.workspace, source: 'chat', runtimeProfile: { id: 'local' } };
    const source = await box.tasks.create({ taskId: 'src', modelSelection, executionRequest });
    if (E.isLeft(source)) throw new Error(JSON.stringify(source.left));
    const first = await box.tasks.send('src', text('first'));
    await box.tasks.send('src', text('second'));
    if (E.isLeft(first)) throw new Error(JSON.stringify(first.left));

    const forked = await box.tasks.fork('src', { newTaskId: 'fork', lastTurnId: first.right.id });
    if (E.isLeft(forked)) throw new Error(JSON.stringify(forked.left));
    expect(forked.right).toMatchObject({ model: 'gpt-5.5', modelProvider: 'scripted', activePermissionProfile: { id: ':workspace' }, cwd: box.workspace });
    expect(forked.right.task).toEqual({ taskId: 'fork', threadId: expect.any(String), modelSelection, executionRequest, archived: false });
    expect(forked.right.task.threadId).not.toBe(source.right.threadId);
    // Copies, not shared objects.
    expect(forked.right.task.modelSelection).not.toBe(box.tasks.get('src')?.modelSelection);
    const [call] = box.exchanges('thread/fork');
    expect(call?.params).toMatchObject({ threadId: source.right.threadId, model: 'gpt-5.5', modelProvider: 'scripted', permissions: ':workspace', approvalPolicy: 'on-request', cwd: box.workspace, lastTurnId: first.right.id });
    expect(call?.result).toMatchObject({ model: 'gpt-5.5', modelProvider: 'scripted', activePermissionProfile: { id: ':workspace' } });

    // A follow-up in the fork runs with the source's model and sees history only through the forked turn.
    expect(await box.tasks.send('fork', text('in the fork'))).toMatchObject({ right: { status: 'completed' } });
    const request = box.model.requests[2];
    expect(request?.body).toMatchObject({ model: 'gpt-5.5' });
    const seen = request === undefined ? [] : userMessages(request);
    expect(seen).toContain('first');
    expect(seen).not.toContain('second');
  });

  it('a task routed through the local model router: the fork reuses its registration, and follow-ups keep the routed model', async () => {
    const box = await startTaskSandbox({ script: [respond(say('routed')), respond(say('routed fork'))] }, cleanups);
    const registration: ModelRouterRegistration = {
      routeId: 'route-1',
      providerId: 'wework-router',
      model: 'router-local-model',
      providerConfig: { ...modelProviderSettings({ baseUrl: box.model.url, name: 'Wework model router' }) },
    };
    box.registry.bind('src', registration);
    // Persisted task data has the upstream credentials redacted; the executor never reads them.
    const executionRequest = { workspace: box.workspace, modelRouter: { routeId: 'route-1' }, upstream: { apiKey: '[redacted]' } };
    const created = await box.tasks.create({ taskId: 'src', modelSelection: { model: 'router-local-model', options: { permissionMode: 'read-only' } }, executionRequest });
    expect(E.isRight(created)).toBe(true);
    await box.tasks.send('src', text('hello router'));

    const forked = await box.tasks.fork('src', { newTaskId: 'fork' });
    expect(forked).toMatchObject({ right: { model: 'router-local-model', modelProvider: 'wework-router', activePermissionProfile: { id: ':read-only' } } });
    expect(box.registry.lookup('fork')).toBe(registration);
    expect(await box.tasks.send('fork', text('follow-up in the fork'))).toMatchObject({ right: { status: 'completed' } });
    expect(box.model.requests.map((request) => (request.body as { model?: unknown }).model)).toEqual(['router-local-model', 'router-local-model']);
  });

  it('a routed task whose registration is gone: a typed error, and no thread/fork is sent', async () => {
    const box = await startTaskSandbox({ script: [] }, cleanups);
    const opened = box.tasks.open({
      taskId: 'persisted',
      threadId: '019a0000-0000-7000-8000-000000000000',
      modelSelection: { model: 'router-local-model' },
      executionRequest: { workspace: box.workspace, modelRouter: { routeId: 'route-9' } },
      archived: false,
    });
    expect(E.isRight(opened)).toBe(true);
    expect(await box.tasks.fork('persisted', { newTaskId: 'fork' })).toEqual(E.left({ _tag: 'ModelRouterRegistrationMissing', taskId: 'persisted', routeId: 'route-9' }));
    expect(await box.tasks.send('persisted', text('hi'))).toMatchObject({ left: { _tag: 'ModelRouterRegistrationMissing' } });
    expect(box.exchanges('thread/fork')).toEqual([]);
    expect(box.exchanges('turn/start')).toEqual([]);
  });
});
