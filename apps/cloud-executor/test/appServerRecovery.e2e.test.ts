/**
 * The cloud executor runs on the same supervised app-server as the desktop executor: its app-server
 * SIGKILLed, it is started again after the backoff (restarting, then ready, logged with the signal),
 * and the executor keeps working on the new process — a desired-state install reaches the model.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { skillsAvailable } from '@wework/scripted-model';
import { until } from '@wework/test-support';
import { cleanUp, desiredState, device, runTurn, skillPackage, startOn, startThread } from './support/cloudBox.js';

afterEach(cleanUp);

const PLUGIN = { name: 'team-skills', marketplace: 'wegent' };

describe('the cloud executor after its app-server was killed', () => {
  it('restarts it with backoff and keeps reconciling on the new process', async () => {
    const { dirs, model } = await device(1);
    const { executor } = await startOn(dirs);
    const first = executor.runtime.current();
    if (first === null) throw new Error('no app-server');
    expect(executor.runtime.status()).toMatchObject({ state: 'ready', pid: first.pid });

    process.kill(first.pid, 'SIGKILL');
    await until('the restart', () => executor.runtime.status().state === 'restarting', 50_000);
    expect(executor.runtime.status()).toMatchObject({ state: 'restarting', signal: 'SIGKILL', crashes: 1, retryInMs: 500 });
    expect(executor.runtime.current()).toBeNull();
    await until('the new app-server', () => executor.runtime.status().state === 'ready', 50_000);
    const second = executor.runtime.current();
    expect(second?.pid).not.toBe(first.pid);

    const path = await skillPackage(dirs, PLUGIN.name, '1.0.0');
    expect(await executor.handle(desiredState(1, [{ ...PLUGIN, version: '1.0.0', path }]))).toMatchObject({ ok: true, actions: [{ result: 'Committed' }], runtime: { _tag: 'Reloaded' } });
    const threadId = await startThread(executor, dirs.workspace);
    expect(await runTurn(executor, threadId, 'after the restart')).toBe('completed');
    expect(skillsAvailable(model.requests[0] ?? { body: null }).map((skill) => skill.name)).toContain('team-skills:standup');
    expect(executor.runtime.current()?.pid).toBe(second?.pid);
  });
});
