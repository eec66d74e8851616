import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it, vi } from 'vitest';
import type { AuthorizationUi, AuthTarget, ConnectorIdentity, LoginSession } from '../src/index.js';
import type { ConnectorAuthRequired } from '../src/AuthRequiredDetection.js';
import { HealthCache, LoginSessions, deviceHealth, recoverConnectorAuth } from '../src/index.js';
import { RecoveryGate, continuationInstruction, recoverThroughGate } from '../src/RuntimeRecovery.js';
import { scriptedBridgeRunner } from '../src/testing.js';
import { manualTimers } from '@wework/ports/testing';
import { connector, eventually, pluginRoot } from './support.js';

const glab = connector('glab', { type: 'browser_oauth', health: 'bin/b.mjs health', start: 'bin/b.mjs start' });
const blocked: ConnectorAuthRequired = { _tag: 'ConnectorAuthRequired', pluginKey: 'gitlab@wegent', connectorSlug: 'glab', toolName: 'gitlab.list_issues', source: 'structured' };

const setup = (options: { loggedIn?: boolean; login?: 'ok' | 'hang' | 'error' } = {}) => {
  let loggedIn = options.loggedIn ?? false;
  const runner = scriptedBridgeRunner((invocation) => {
    if (invocation.command === 'health') return E.right({ status: loggedIn ? 'ok' : 'needs_login' });
    if (options.login === 'hang') return 'hang';
    if (options.login === 'error') return E.right({ status: 'error' });
    loggedIn = true;
    return E.right({ status: 'ok' });
  });
  const timers = manualTimers();
  const cache = new HealthCache();
  const health = deviceHealth({ deviceId: 'device-a', runner, tools: { resolve: async () => E.right('/x') }, timers, cache });
  const sessions = new LoginSessions({ runner, tools: { resolve: async () => E.right('/x') }, timers });
  const resolved: ConnectorIdentity[] = [];
  const resolveConnector = vi.fn(async (identity: ConnectorIdentity) => {
    resolved.push(identity);
    return identity.pluginKey === 'gitlab@wegent' && identity.connectorSlug === 'glab'
      ? E.right<never, AuthTarget>({ pluginKey: 'gitlab@wegent', pluginRoot, connector: glab })
      : E.left({ _tag: 'ConnectorNotFound' as const, ...identity, message: 'not installed here' });
  });
  const presented: LoginSession[] = [];
  const ui: AuthorizationUi = { present: (session) => void presented.push(session) };
  const deps = { resolveConnector, health, startLogin: (target: AuthTarget) => sessions.start(target), ui };
  return { runner, deps, resolved, presented, health, cache };
};

describe('recoverConnectorAuth', () => {
  it('resolves by identity, bypasses a cached healthy result, logs in and returns the continuation for the blocked step', async () => {
    const { deps, runner, resolved, presented, health } = setup();
    const target: AuthTarget = { pluginKey: 'gitlab@wegent', pluginRoot, connector: glab };
    health.markHealthy(target, 'stale'); // cached healthy, but the turn says otherwise
    const result = await recoverConnectorAuth(deps, blocked);
    expect(result).toEqual(E.right({ _tag: 'RecoveryContinuation', pluginKey: 'gitlab@wegent', connectorSlug: 'glab', loggedIn: true, continuation: continuationInstruction(blocked) }));
    expect(resolved).toEqual([{ pluginKey: 'gitlab@wegent', connectorSlug: 'glab' }]);
    expect(runner.invocations.map((i) => i.command)).toEqual(['health', 'start', 'health']);
    expect(presented).toHaveLength(1);
    if (E.isRight(result)) {
      expect(result.right.continuation).toContain('call gitlab.list_issues again');
      expect(result.right.continuation).toContain('Do not start the task over');
    }
  });

  it('continues without a login when the connector is healthy again', async () => {
    const { deps, presented } = setup({ loggedIn: true });
    expect(await recoverConnectorAuth(deps, blocked)).toMatchObject(E.right({ loggedIn: false }));
    expect(presented).toHaveLength(0);
  });

  it('never guesses: an unknown identity is ConnectorNotFound and nothing runs', async () => {
    const { deps, runner } = setup();
    expect(await recoverConnectorAuth(deps, { ...blocked, connectorSlug: 'other' })).toMatchObject(E.left({ _tag: 'ConnectorNotFound' }));
    expect(runner.invocations).toEqual([]);
  });

  it('a failed login is RecoveryFailed', async () => {
    const { deps } = setup({ login: 'error' });
    expect(await recoverConnectorAuth(deps, blocked)).toMatchObject(E.left({ _tag: 'RecoveryFailed', error: { _tag: 'LoginRejected' } }));
  });
});

describe('RecoveryGate', () => {
  it('hands out a continuation once; duplicates and late callers get nothing', async () => {
    const gate = new RecoveryGate();
    const { deps } = setup();
    const first = await recoverThroughGate(gate, 'turn-1', deps, blocked);
    expect(E.isRight(first)).toBe(true);
    expect(await recoverThroughGate(gate, 'turn-1', deps, blocked)).toEqual(E.left({ _tag: 'RecoveryObsolete', requestId: 'turn-1' }));
    const ticket = gate.begin('turn-2');
    if (ticket === undefined) throw new Error('ticket');
    expect(gate.complete(ticket)).toBe(true);
    expect(gate.complete(ticket)).toBe(false);
  });

  it('sending another message consumes the request and cancels the running login', async () => {
    const gate = new RecoveryGate();
    const { deps, presented } = setup({ login: 'hang' });
    const running = recoverThroughGate(gate, 'turn-1', deps, blocked);
    await eventually(() => presented.length === 1);
    gate.consumeAll();
    expect(await running).toEqual(E.left({ _tag: 'RecoveryObsolete', requestId: 'turn-1' }));
    expect(presented[0]?.current()).toEqual({ state: 'cancelled' });
    expect(gate.begin('turn-1')).toBeUndefined();
  });

  it('leaving the pane cancels active recovery but allows it again on return', async () => {
    const gate = new RecoveryGate();
    const hanging = setup({ login: 'hang' });
    const running = recoverThroughGate(gate, 'turn-1', hanging.deps, blocked);
    await eventually(() => hanging.presented.length === 1);
    gate.leavePane();
    expect(await running).toEqual(E.left({ _tag: 'RecoveryObsolete', requestId: 'turn-1' }));
    const { deps } = setup();
    expect(await recoverThroughGate(gate, 'turn-1', deps, blocked)).toMatchObject(E.right({ _tag: 'RecoveryContinuation' }));
  });

  it('a superseded attempt cannot complete, even if its login succeeds late', async () => {
    const gate = new RecoveryGate();
    const old = gate.begin('turn-1');
    const current = gate.begin('turn-1');
    if (old === undefined || current === undefined) throw new Error('tickets');
    expect(old.signal.aborted).toBe(true);
    expect(gate.complete(old)).toBe(false);
    expect(gate.complete(current)).toBe(true);
  });

  it('cancelling a request consumes it', () => {
    const gate = new RecoveryGate();
    const ticket = gate.begin('turn-9');
    gate.consume('turn-9');
    expect(ticket?.signal.aborted).toBe(true);
    expect(gate.begin('turn-9')).toBeUndefined();
  });
});
