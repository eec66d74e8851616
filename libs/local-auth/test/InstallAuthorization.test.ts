import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthorizationUi, AuthTarget, LoginState } from '../src/index.js';
import type { ConnectorLocalAuth } from '../src/LocalAuthManifest.js';
import type { ToolResolver } from '../src/Ports.js';
import { HealthCache, LoginSessions, deviceHealth, installWithAuthorization } from '../src/index.js';
import { createNodeBridgeRunner } from '../src/node/index.js';
import { nodeTimers } from '@wework/ports/node';
import { scriptedBridgeRunner } from '../src/testing.js';
import { manualTimers } from '@wework/ports/testing';
import { alive, connector, pluginRoot, qrConnector, recordedPids, tempDir } from './support.js';

const dirs: Array<{ remove: () => void }> = [];
afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));
const noTools: ToolResolver = { resolve: async () => E.right('/unused') };

/** A UI that acts when the session reaches `state`. */
const uiThat = (state: LoginState['state'], act: 'cancel' | 'nothing'): AuthorizationUi & { shown: string[] } => {
  const shown: string[] = [];
  return {
    shown,
    present(session, request) {
      shown.push(`${request.reason}:${request.deviceId}:${request.pluginKey}:${request.connectorSlug}`);
      session.subscribe((next) => {
        if (next.state === state && act === 'cancel') session.cancel();
      });
    },
  };
};

const realDevice = (env: Record<string, string>, deviceId = 'device-a') => {
  const dir = tempDir();
  dirs.push(dir);
  const pidsFile = join(dir.path, 'pids');
  const runner = createNodeBridgeRunner({ env: { ...process.env, BRIDGE_STATE: join(dir.path, 'state.json'), PIDS_FILE: pidsFile, ...env }, killGraceMs: 200 });
  const loginDeps = { runner, tools: noTools, timers: nodeTimers, pollIntervalMs: 20, loginTimeoutMs: 10_000 };
  const health = deviceHealth({ deviceId, runner, tools: noTools, timers: nodeTimers, cache: new HealthCache() });
  const sessions = new LoginSessions(loginDeps);
  return { health, sessions, pidsFile };
};

const plugin = (connectors: ConnectorLocalAuth[]) => ({ pluginKey: 'dingtalk@wegent', pluginRoot, connectors });

describe('installWithAuthorization', () => {
  it('an on_install plugin whose login is cancelled aborts its installation with a typed cancellation', async () => {
    const { health, sessions, pidsFile } = realDevice({ QR_SCANS_AFTER: '100000' });
    const ui = uiThat('waiting_scan', 'cancel');
    const abortInstallation = vi.fn(async () => E.right(undefined));
    const result = await installWithAuthorization(
      { health, startLogin: (target) => sessions.start(target), ui, abortInstallation },
      plugin([qrConnector({ authPolicy: 'on_install' })]),
    );
    expect(result).toEqual(
      E.left({
        _tag: 'AuthorizationCancelled',
        deviceId: 'device-a',
        pluginKey: 'dingtalk@wegent',
        connectorSlug: 'dingtalk',
        message: 'Authorization of connector "dingtalk" was cancelled; the installation of dingtalk@wegent was aborted.',
      }),
    );
    expect(abortInstallation).toHaveBeenCalledTimes(1);
    expect(abortInstallation).toHaveBeenCalledWith(expect.objectContaining({ _tag: 'AuthorizationCancelled' }));
    expect(ui.shown).toEqual(['install:device-a:dingtalk@wegent:dingtalk']);
    expect(recordedPids(pidsFile).every((pid) => !alive(pid))).toBe(true);
  });

  it('logs in when needed and reports the connector ready', async () => {
    const { health, sessions } = realDevice({ QR_SCANS_AFTER: '1' });
    const abortInstallation = vi.fn(async () => E.right(undefined));
    const result = await installWithAuthorization(
      { health, startLogin: (target) => sessions.start(target), ui: uiThat('ok', 'nothing'), abortInstallation },
      plugin([qrConnector({ authPolicy: 'on_install' })]),
    );
    expect(result).toEqual(E.right({ _tag: 'InstallAuthorized', deviceId: 'device-a', pluginKey: 'dingtalk@wegent', connectors: [{ connectorSlug: 'dingtalk', readiness: 'logged_in', account: 'Ada' }] }));
    expect(abortInstallation).not.toHaveBeenCalled();
  });

  it('a failing health check aborts the installation', async () => {
    const { health, sessions } = realDevice({});
    const abortInstallation = vi.fn(async () => E.right(undefined));
    const broken = connector('broken', { type: 'browser_oauth', health: ['bin/bridge.mjs', 'garbage'], start: ['bin/bridge.mjs', 'ok'], authPolicy: 'on_install' });
    const result = await installWithAuthorization({ health, startLogin: (target) => sessions.start(target), ui: uiThat('ok', 'nothing'), abortInstallation }, plugin([broken]));
    expect(result).toMatchObject(E.left({ _tag: 'AuthorizationFailed', connectorSlug: 'broken', error: { _tag: 'MalformedStatus' } }));
    expect(abortInstallation).toHaveBeenCalledTimes(1);
  });

  const scripted = (health: 'ok' | 'needs_login', login: 'ok' | 'error') => {
    let loggedIn = health === 'ok';
    const runner = scriptedBridgeRunner((invocation) => {
      if (invocation.command === 'health') return E.right({ status: loggedIn ? 'ok' : 'needs_login' });
      loggedIn = login === 'ok';
      return login === 'ok' ? E.right({ status: 'ok' }) : E.right({ status: 'error', message: 'denied' });
    });
    const timers = manualTimers();
    const cache = new HealthCache(60_000);
    const device = (deviceId: string) => deviceHealth({ deviceId, runner, tools: noTools, timers, cache });
    const sessions = new LoginSessions({ runner, tools: noTools, timers });
    return { runner, device, sessions, timers };
  };
  const oauth = (authPolicy: string, slug = 'glab') => connector(slug, { type: 'browser_oauth', health: 'bin/b.mjs health', start: 'bin/b.mjs start', authPolicy });

  it('skips connectors that are not on_install and opens no UI for a healthy one', async () => {
    const { runner, device, sessions } = scripted('ok', 'ok');
    const ui = uiThat('ok', 'nothing');
    const result = await installWithAuthorization(
      { health: device('d1'), startLogin: (t) => sessions.start(t), ui, abortInstallation: async () => E.right(undefined) },
      plugin([oauth('on_first_use', 'later'), oauth('manual', 'never'), oauth('on_install', 'now')]),
    );
    expect(result).toMatchObject(E.right({ connectors: [{ connectorSlug: 'now', readiness: 'already_logged_in' }] }));
    expect(runner.invocations.map((i) => `${i.connector}:${i.command}`)).toEqual(['now:health']);
    expect(ui.shown).toEqual([]);
  });

  it('a failed login aborts; a failing abort is reported as AbortFailed', async () => {
    const { device, sessions } = scripted('needs_login', 'error');
    const result = await installWithAuthorization(
      { health: device('d1'), startLogin: (t) => sessions.start(t), ui: uiThat('ok', 'nothing'), abortInstallation: async () => E.left({ _tag: 'RollbackFailed' as const }) },
      plugin([oauth('on_install')]),
    );
    expect(result).toMatchObject(E.left({ _tag: 'AbortFailed', abortError: { _tag: 'RollbackFailed' }, cause: { _tag: 'AuthorizationFailed', error: { _tag: 'LoginRejected', message: 'denied' } } }));
    const rejected = await installWithAuthorization(
      { health: device('d1'), startLogin: (t) => sessions.start(t), ui: uiThat('ok', 'nothing'), abortInstallation: () => Promise.reject(new Error('boom')) },
      plugin([oauth('on_install')]),
    );
    expect(rejected).toMatchObject(E.left({ _tag: 'AbortFailed', abortError: undefined }));
  });

  it('an abort signal from the host cancels the running login and aborts the installation', async () => {
    const runner = scriptedBridgeRunner((invocation) => (invocation.command === 'health' ? E.right({ status: 'needs_login' }) : 'hang'));
    const timers = manualTimers();
    const sessions = new LoginSessions({ runner, tools: noTools, timers });
    const controller = new AbortController();
    const abortInstallation = vi.fn(async () => E.right(undefined));
    const ui: AuthorizationUi = { present: (session) => session.subscribe((s) => s.state === 'waiting_browser' && controller.abort()) };
    const result = await installWithAuthorization(
      { health: deviceHealth({ deviceId: 'd1', runner, tools: noTools, timers, cache: new HealthCache() }), startLogin: (t) => sessions.start(t), ui, abortInstallation },
      plugin([oauth('on_install')]),
      controller.signal,
    );
    expect(result).toMatchObject(E.left({ _tag: 'AuthorizationCancelled' }));
    expect(abortInstallation).toHaveBeenCalledTimes(1);
  });

  it('credentials are device-scoped: a healthy result on one device is not reused by another', async () => {
    const { runner, device, timers } = scripted('ok', 'ok');
    const target: AuthTarget = { pluginKey: 'gitlab@wegent', pluginRoot, connector: oauth('on_install') };
    const a = device('device-a');
    const b = device('device-b');
    await a.check(target);
    await a.check(target); // cached
    expect(runner.invocations).toHaveLength(1);
    await b.check(target); // another device checks for itself
    expect(runner.invocations).toHaveLength(2);
    await a.check(target, { bypassCache: true });
    expect(runner.invocations).toHaveLength(3);
    timers.advance(60_000);
    await a.check(target); // expired
    expect(runner.invocations).toHaveLength(4);
  });
});
