import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoginSession, LoginState } from '../src/index.js';
import type { ToolResolver } from '../src/Ports.js';
import { LoginSessions } from '../src/index.js';
import { startLoginSession } from '../src/LoginSession.js';
import { createNodeBridgeRunner } from '../src/node/index.js';
import { nodeTimers } from '@wework/ports/node';
import { scriptedBridgeRunner } from '../src/testing.js';
import { manualTimers } from '@wework/ports/testing';
import { alive, eventually, oauthConnector, pluginRoot, qrConnector, recordedPids, tempDir } from './support.js';

const dirs: Array<{ remove: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

const noTools: ToolResolver = { resolve: async () => E.left({ _tag: 'SidecarNotFound', tool: 'none', message: 'no tools here' }) };

const world = (env: Record<string, string> = {}) => {
  const dir = tempDir();
  dirs.push(dir);
  const state = join(dir.path, 'state.json');
  const pidsFile = join(dir.path, 'pids');
  const runner = createNodeBridgeRunner({ env: { ...process.env, BRIDGE_STATE: state, PIDS_FILE: pidsFile, ...env }, killGraceMs: 200 });
  const deps = { runner, tools: noTools, timers: nodeTimers, pollIntervalMs: 20, loginTimeoutMs: 10_000 };
  return { deps, state, pidsFile, callback: (outcome: string) => writeFileSync(`${state}.callback`, outcome) };
};

const record = (session: LoginSession): LoginState[] => {
  const states: LoginState[] = [session.current()];
  session.subscribe((state) => states.push(state));
  return states;
};
const names = (states: LoginState[]) => states.map((state) => state.state);
const reached = (session: LoginSession, state: LoginState['state']) => eventually(() => session.current().state === state);
const allGone = (pidsFile: string) => recordedPids(pidsFile).every((pid) => !alive(pid));

describe('QR login', () => {
  it('start → QR for the UI → polls until ok, showing a refreshed code', async () => {
    const { deps } = world({ QR_SCANS_AFTER: '3' });
    const session = startLoginSession(deps, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector() });
    const states = record(session);
    expect(await session.done).toEqual({ state: 'ok', account: 'Ada' });
    expect(states).toEqual([
      { state: 'preparing' },
      { state: 'waiting_scan', qr: { payload: 'https://login.example.com/qr/code-1' } },
      { state: 'waiting_scan', qr: { payload: 'https://login.example.com/qr/code-2' } },
      { state: 'ok', account: 'Ada' },
    ]);
  });

  it('ends in error when the bridge rejects the code', async () => {
    const { deps } = world({ QR_REJECT: '1' });
    const session = startLoginSession(deps, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector() });
    expect(await session.done).toMatchObject({ state: 'error', error: { _tag: 'LoginRejected', status: 'error', message: 'The code expired' } });
  });

  it('ends in LoginTimedOut when nobody scans in time', async () => {
    const { deps } = world({ QR_SCANS_AFTER: '100000' });
    const session = startLoginSession({ ...deps, loginTimeoutMs: 400 }, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector() });
    expect(await session.done).toMatchObject({ state: 'error', error: { _tag: 'LoginTimedOut', connector: 'dingtalk', timeoutMs: 400 } });
  });

  it('a poll that blocks is cut at the login timeout and its process terminated', async () => {
    const { deps, pidsFile } = world({ QR_POLL_HANGS: '1' });
    const session = startLoginSession({ ...deps, loginTimeoutMs: 600 }, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector() });
    expect(await session.done).toMatchObject({ state: 'error', error: { _tag: 'LoginTimedOut' } });
    expect(allGone(pidsFile)).toBe(true);
  });

  it('cancel while preparing: nothing is started', async () => {
    const { deps, pidsFile } = world();
    const hangingTools: ToolResolver = { resolve: (_tool, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve(E.left({ _tag: 'InstallFailed', tool: 'dws', message: 'aborted' })))) };
    const session = startLoginSession({ ...deps, tools: hangingTools }, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector({ tool: { source: 'bundled', sidecar: 'dws' } }) });
    const states = record(session);
    session.cancel();
    expect(await session.done).toEqual({ state: 'cancelled' });
    expect(names(states)).toEqual(['preparing', 'cancelled']);
    expect(recordedPids(pidsFile)).toEqual([]);
  });

  it('cancel while waiting for the scan', async () => {
    const { deps, pidsFile } = world({ QR_SCANS_AFTER: '100000' });
    const session = startLoginSession(deps, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector() });
    const states = record(session);
    await reached(session, 'waiting_scan');
    session.cancel();
    expect(await session.done).toEqual({ state: 'cancelled' });
    expect(names(states).at(-1)).toBe('cancelled');
    expect(allGone(pidsFile)).toBe(true);
  });

  it('cancel during a running poll terminates the poll process', async () => {
    const { deps, pidsFile } = world({ QR_POLL_HANGS: '1' });
    const session = startLoginSession(deps, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector() });
    await eventually(() => recordedPids(pidsFile).length >= 2);
    const poll = recordedPids(pidsFile)[1] ?? 0;
    expect(alive(poll)).toBe(true);
    session.cancel();
    expect(await session.done).toEqual({ state: 'cancelled' });
    expect(allGone(pidsFile)).toBe(true);
  });
});

describe('browser OAuth login', () => {
  it('preparing → waiting_browser → verifying → ok', async () => {
    const { deps, callback } = world();
    const session = startLoginSession(deps, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() });
    const states = record(session);
    await reached(session, 'waiting_browser');
    callback('ok');
    expect(await session.done).toEqual({ state: 'ok', account: 'Ada' });
    expect(names(states)).toEqual(['preparing', 'waiting_browser', 'verifying', 'ok']);
  });

  it('the person denies access → error', async () => {
    const { deps, callback } = world();
    const session = startLoginSession(deps, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() });
    await reached(session, 'waiting_browser');
    callback('deny');
    expect(await session.done).toMatchObject({ state: 'error', error: { _tag: 'LoginRejected', message: 'The person denied access' } });
  });

  it('a login the health check does not confirm → StillLoggedOut', async () => {
    const { deps, callback } = world();
    const session = startLoginSession(deps, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() });
    const states = record(session);
    await reached(session, 'waiting_browser');
    callback('lie');
    expect(await session.done).toMatchObject({ state: 'error', error: { _tag: 'StillLoggedOut' } });
    expect(names(states)).toEqual(['preparing', 'waiting_browser', 'verifying', 'error']);
  });

  it('the login times out; the login process is terminated', async () => {
    const { deps, pidsFile } = world();
    const session = startLoginSession({ ...deps, loginTimeoutMs: 400 }, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() });
    expect(await session.done).toMatchObject({ state: 'error', error: { _tag: 'LoginTimedOut', timeoutMs: 400 } });
    expect(allGone(pidsFile)).toBe(true);
  });

  it('cancel while preparing', async () => {
    const { deps, pidsFile } = world();
    const hangingTools: ToolResolver = { resolve: (_tool, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve(E.right('/never')))) };
    const session = startLoginSession({ ...deps, tools: hangingTools }, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector({ tool: { source: 'bundled', sidecar: 'glab' } }) });
    session.cancel();
    expect(await session.done).toEqual({ state: 'cancelled' });
    expect(recordedPids(pidsFile)).toEqual([]);
  });

  it('cancel while waiting for the browser terminates the login process', async () => {
    const { deps, pidsFile } = world();
    const session = startLoginSession(deps, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() });
    await reached(session, 'waiting_browser');
    await eventually(() => recordedPids(pidsFile).length === 1);
    session.cancel();
    expect(await session.done).toEqual({ state: 'cancelled' });
    expect(allGone(pidsFile)).toBe(true);
  });

  it('cancel while verifying terminates the health check', async () => {
    const { deps, pidsFile, callback } = world({ HEALTH_HANGS: '1' });
    const session = startLoginSession(deps, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() });
    await reached(session, 'waiting_browser');
    callback('ok');
    await reached(session, 'verifying');
    await eventually(() => recordedPids(pidsFile).length === 2);
    session.cancel();
    expect(await session.done).toEqual({ state: 'cancelled' });
    expect(allGone(pidsFile)).toBe(true);
  });
});

describe('obsolete work', () => {
  it('a late answer after cancel changes nothing and reaches no listener', async () => {
    let answer: (() => void) | undefined;
    const runner = scriptedBridgeRunner(
      () => new Promise((resolve) => (answer = () => resolve(E.right({ status: 'ok' })))),
    );
    const session = startLoginSession({ runner, tools: { resolve: async () => E.right('/x') }, timers: manualTimers() }, { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() });
    await eventually(() => answer !== undefined);
    const states = record(session);
    session.cancel();
    session.cancel();
    answer?.();
    expect(await session.done).toEqual({ state: 'cancelled' });
    expect(names(states)).toEqual(['waiting_browser', 'cancelled']);
    expect(session.current()).toEqual({ state: 'cancelled' });
  });

  it('a second session of the same connector supersedes the first; stale cancels are ignored', async () => {
    const runner = scriptedBridgeRunner((invocation) => (invocation.command === 'start' ? 'hang' : E.right({ status: 'ok' })));
    const sessions = new LoginSessions({ runner, tools: { resolve: async () => E.right('/x') }, timers: manualTimers() });
    const target = { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauthConnector() };
    const first = sessions.start(target);
    const second = sessions.start(target);
    expect(second.generation).toBeGreaterThan(first.generation);
    expect(await first.done).toEqual({ state: 'cancelled' });
    expect(sessions.isCurrent(first.generation)).toBe(false);
    expect(sessions.isCurrent(second.generation)).toBe(true);
    expect(sessions.cancel(first.generation)).toBe(false);
    expect(sessions.active('gitlab@wegent', 'glab')).toBe(second);
    expect(sessions.cancel(second.generation)).toBe(true);
    expect(await second.done).toEqual({ state: 'cancelled' });
    expect(sessions.isCurrent(second.generation)).toBe(false);
  });

  it('QR polling follows the injected clock (no real time passes)', async () => {
    const timers = manualTimers();
    let polls = 0;
    const runner = scriptedBridgeRunner((invocation) =>
      invocation.command === 'start' ? E.right({ status: 'pending', qr: { payload: 'qr-1' } }) : ++polls < 3 ? E.right({ status: 'pending' }) : E.right({ status: 'ok' }),
    );
    const session = startLoginSession({ runner, tools: noTools, timers, pollIntervalMs: 1000 }, { pluginKey: 'dingtalk@wegent', pluginRoot, connector: qrConnector() });
    for (let step = 0; step < 3; step++) {
      await eventually(() => timers.pending() === 1);
      timers.advance(1000);
    }
    expect(await session.done).toEqual({ state: 'ok', account: undefined });
    expect(runner.invocations.map((invocation) => invocation.command)).toEqual(['start', 'poll', 'poll', 'poll']);
  });
});
