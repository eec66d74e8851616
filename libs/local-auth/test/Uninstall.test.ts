import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { AuthTarget } from '../src/index.js';
import { HealthCache, deviceHealth } from '../src/index.js';
import { logoutOnUninstall } from '../src/Uninstall.js';
import { scriptedBridgeRunner } from '../src/testing.js';
import { manualTimers } from '@wework/ports/testing';
import { connector, pluginRoot } from './support.js';

describe('logoutOnUninstall', () => {
  it('logs QR connectors out by default, keeps browser OAuth credentials, forgets cached health', async () => {
    const runner = scriptedBridgeRunner(() => E.right({ status: 'ok' }));
    const tools = { resolve: async () => E.right('/x') };
    const health = deviceHealth({ deviceId: 'd', runner, tools, timers: manualTimers(), cache: new HealthCache() });
    const qr = connector('dingtalk', { type: 'local_qr', health: 'bin/q.mjs health', start: 'bin/q.mjs start', poll: 'bin/q.mjs poll', logout: 'bin/q.mjs logout' });
    const qrWithout = connector('wecom', { type: 'local_qr', health: 'bin/q.mjs health', start: 'bin/q.mjs start', poll: 'bin/q.mjs poll' });
    const oauth = connector('glab', { type: 'browser_oauth', health: 'bin/o.mjs health', start: 'bin/o.mjs start', logout: 'bin/o.mjs logout' });
    const oauthOptIn = connector('jira', { type: 'browser_oauth', health: 'bin/o.mjs health', start: 'bin/o.mjs start', logout: 'bin/bridge.mjs garbage', logoutOnUninstall: true });
    const target: AuthTarget = { pluginKey: 'p@m', pluginRoot, connector: qr };
    health.markHealthy(target, 'Ada');
    const results = await logoutOnUninstall({ runner, tools, health }, { pluginKey: 'p@m', pluginRoot, connectors: [qr, qrWithout, oauth, oauthOptIn] });
    expect(results.map((r) => [r.connectorSlug, r.outcome])).toEqual([
      ['dingtalk', 'logged_out'],
      ['wecom', 'no_logout_command'],
      ['glab', 'kept'],
      ['jira', 'logged_out'],
    ]);
    expect(runner.invocations.map((i) => `${i.connector}:${i.command}:${i.argv.args.join(' ')}`)).toEqual(['dingtalk:logout:logout', 'jira:logout:garbage']);
    await health.check(target);
    expect(runner.invocations.at(-1)?.command).toBe('health');
  });
});
