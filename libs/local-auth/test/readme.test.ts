/**
 * The example at the top of README.md, kept compiling and passing against the fixture plugin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import type { LoginState } from '../src/index.js';
import { HealthCache, LoginSessions, decodeLocalAuthConnectors, deviceHealth, installWithAuthorization } from '../src/index.js';
import { createNodeBridgeRunner, httpDownloader, managedToolInstaller, sidecarDirectory, toolResolver } from '../src/node/index.js';
import { nodeTimers } from '@wework/ports/node';
import { pluginRoot } from './support.js';

test('README example', async () => {
  const executorHome = mkdtempSync(join(tmpdir(), 'readme-'));
  const sidecarDir = executorHome;
  const manifest = {
    connectors: [
      {
        slug: 'dingtalk',
        localAuth: {
          type: 'local_qr',
          authPolicy: 'on_install',
          health: ['bin/qr-bridge.mjs', 'health'],
          start: ['bin/qr-bridge.mjs', 'start'],
          poll: ['bin/qr-bridge.mjs', 'poll'],
        },
      },
    ],
  };
  const rollbackSyncTransaction = async () => E.right(undefined);
  const shown: string[] = [];
  const ui = { render: (state: LoginState) => shown.push(state.state) };
  // The fixture bridge keeps its state in the temp directory, which bridges inherit.
  const tmpdirBefore = process.env.TMPDIR;
  process.env.TMPDIR = executorHome;

  try {
    // --- README example begins ---
    const connectors = decodeLocalAuthConnectors(manifest);
    if (E.isLeft(connectors)) throw new Error(connectors.left.message); // connector "…", field localAuth.start: …

    const runner = createNodeBridgeRunner();
    const tools = toolResolver(sidecarDirectory(sidecarDir), managedToolInstaller({ executorHome, downloader: httpDownloader() }));
    const health = deviceHealth({ deviceId: 'this-device', runner, tools, timers: nodeTimers, cache: new HealthCache() });
    const sessions = new LoginSessions({ runner, tools, timers: nodeTimers });

    const result = await installWithAuthorization(
      {
        health,
        startLogin: (target) => sessions.start(target),
        ui: { present: (session) => session.subscribe((state) => ui.render(state)) }, // preparing → waiting_scan { qr } → ok
        abortInstallation: () => rollbackSyncTransaction(),
      },
      { pluginKey: 'dingtalk@wegent', pluginRoot, connectors: connectors.right },
    );
    // Right({ _tag: 'InstallAuthorized', connectors: [{ connectorSlug: 'dingtalk', readiness: 'logged_in', ... }] })
    // or Left({ _tag: 'AuthorizationCancelled' | 'AuthorizationFailed' | 'AbortFailed', ... })
    // --- README example ends ---

    expect(result).toMatchObject(E.right({ _tag: 'InstallAuthorized', connectors: [{ connectorSlug: 'dingtalk', readiness: 'logged_in' }] }));
    expect(shown).toEqual(['waiting_scan', 'ok']);
  } finally {
    if (tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdirBefore;
    rmSync(executorHome, { recursive: true, force: true });
  }
});
