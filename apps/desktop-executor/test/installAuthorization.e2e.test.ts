/**
 * Install-time authorization (`authPolicy: on_install`) during a cloud plugin sync, with the plugin's
 * own QR login bridge run for real: cancelling the login leaves the device exactly as before the
 * installation; a device already logged in installs at once.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceHealth, HealthCache, LoginSessions, type AuthorizationUi, type LoginState } from '@wework/local-auth';
import { createNodeBridgeRunner, httpDownloader, managedToolInstaller, sidecarDirectory, toolResolver } from '@wework/local-auth/node';
import { nodeTimers } from '@wework/ports/node';
import { startScriptedModel } from '@wework/scripted-model/node';
import { createNodePorts, directoryPackageSource } from '@wework/sync-transaction/node';
import type { LogEntry } from '@wework/ports';
import { writeCodexConfig } from '@wework/test-support';
import { describeRuntimeError } from '../src/runtime/LocalRuntime.js';
import { startRuntimeSupervisor } from '../src/runtime/RuntimeSupervisor.js';
import { pluginSync } from '../src/plugins/PluginSync.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PLUGIN = { name: 'team-chat', marketplace: 'wegent' };

/** A QR bridge shipped in the package: `loggedIn` decides its health; a login never completes by itself. */
const bridge = (loggedIn: boolean): string => `#!/usr/bin/env node
const print = (status) => process.stdout.write(JSON.stringify(status) + '\\n');
const command = process.argv[2];
if (command === 'health') print(${loggedIn} ? { status: 'ok', account: 'Ada' } : { status: 'needs_login' });
else if (command === 'start' || command === 'poll') print({ status: 'pending', qr: { payload: 'https://login.example.com/qr/team-chat' } });
`;

async function authPackage(root: string, loggedIn: boolean): Promise<string> {
  const dir = join(root, `package-${loggedIn ? 'ok' : 'login'}`);
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/chat'), { recursive: true });
  await mkdir(join(dir, 'bin'), { recursive: true });
  const qr = { type: 'local_qr', authPolicy: 'on_install', health: ['bin/bridge.mjs', 'health'], start: ['bin/bridge.mjs', 'start'], poll: ['bin/bridge.mjs', 'poll'] };
  await writeFile(
    join(dir, '.codex-plugin/plugin.json'),
    JSON.stringify({ name: PLUGIN.name, version: '1.0.0', description: 'Team chat', skills: './skills/', connectors: [{ slug: 'team-chat', localAuth: qr }] }),
  );
  await writeFile(join(dir, 'skills/chat/SKILL.md'), '---\nname: chat\ndescription: Posts to the team chat\n---\n\nPost it.\n');
  await writeFile(join(dir, 'bin/bridge.mjs'), bridge(loggedIn), { mode: 0o755 });
  return dir;
}

/**
 * Codex's own scratch space in its home, which the running app-server changes by itself (its offline
 * attempt to fetch the curated marketplace); never written by a sync.
 */
const CODEX_SCRATCH = '.tmp';

/** Every entry under the roots (Codex's scratch space aside): kind, mode and content (or link target) hash. */
async function deviceFingerprint(...roots: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string): Promise<void> => {
    if (path.endsWith(`/${CODEX_SCRATCH}`)) return;
    const stats = await lstat(path).catch(() => null);
    if (stats === null) return void out.push(`${path} absent`);
    if (stats.isSymbolicLink()) out.push(`${path} -> ${await readlink(path)}`);
    else if (stats.isDirectory()) {
      out.push(`${path}/ ${(stats.mode & 0o777).toString(8)}`);
      for (const name of (await readdir(path)).sort()) await walk(join(path, name));
    } else out.push(`${path} ${(stats.mode & 0o777).toString(8)} ${createHash('sha256').update(await readFile(path)).digest('hex')}`);
  };
  for (const root of roots) await walk(root);
  return out;
}

async function authBox() {
  const root = await mkdtemp(join(tmpdir(), 'executor-install-auth-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dirs = { codexHome: join(root, 'codex-home'), claudeHome: join(root, 'claude-home'), home: join(root, 'home'), workspace: join(root, 'workspace'), executorHome: join(root, 'executor') };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script: [] });
  cleanups.push(() => model.close());
  await writeCodexConfig(dirs.codexHome, model.url, { config: { features: { plugins: true } } });
  const log: LogEntry[] = [];
  const runtime = await startRuntimeSupervisor({ codexHome: dirs.codexHome, home: dirs.home, workspace: dirs.workspace, env: process.env, pluginNames: [], log: (entry) => log.push(entry) });
  if (E.isLeft(runtime)) throw new Error(describeRuntimeError(runtime.left));
  cleanups.push(() => runtime.right.dispose());
  const homes = { codexHome: dirs.codexHome, claudeHome: dirs.claudeHome, stateDirectory: join(dirs.executorHome, 'plugin-state') };
  await mkdir(homes.stateDirectory, { recursive: true });

  const runner = createNodeBridgeRunner();
  const tools = toolResolver(sidecarDirectory(join(dirs.executorHome, 'sidecars')), managedToolInstaller({ executorHome: dirs.executorHome, downloader: httpDownloader() }));
  const health = deviceHealth({ deviceId: 'this-device', runner, tools, timers: nodeTimers, cache: new HealthCache() });
  const sessions = new LoginSessions({ runner, tools, timers: nodeTimers, pollIntervalMs: 50 });
  const states: LoginState[] = [];
  // The host's login UI: shows the QR code, and the person closes it.
  const ui: AuthorizationUi = {
    present: (session) => {
      session.subscribe((state) => {
        states.push(state);
        if (state.state === 'waiting_scan') session.cancel();
      });
    },
  };
  const sync = pluginSync({
    ports: createNodePorts(),
    homes,
    runtime: runtime.right,
    log: (entry) => log.push(entry),
    now: () => new Date().toISOString(),
    authorization: async () => ({ health, startLogin: (target) => sessions.start(target), ui, log: (entry) => log.push(entry) }),
  });
  return { root, dirs, homes, runtime: runtime.right, sync, states, log };
}

describe('install-time authorization on the real app-server', () => {
  it('a cancelled on_install login leaves the device exactly as before the installation', async () => {
    const box = await authBox();
    const pid = box.runtime.current().server.pid;
    const before = await deviceFingerprint(box.dirs.codexHome, box.dirs.claudeHome, box.homes.stateDirectory);

    const result = await box.sync.install(PLUGIN, '1.0.0', directoryPackageSource(await authPackage(box.root, false)));
    expect(result).toMatchObject({ left: { _tag: 'SyncFailed', error: { _tag: 'TransactionAborted' } } });
    expect(box.states.map((state) => state.state)).toEqual(['waiting_scan', 'cancelled']);
    expect(await deviceFingerprint(box.dirs.codexHome, box.dirs.claudeHome, box.homes.stateDirectory)).toEqual(before);
    expect(box.runtime.current().server.pid).toBe(pid);
    expect(box.log.map((entry) => entry.event)).toContain('plugin install authorization ended');
  });

  it('a device already logged in installs without showing a login', async () => {
    const box = await authBox();
    const result = await box.sync.install(PLUGIN, '1.0.0', directoryPackageSource(await authPackage(box.root, true)));
    expect(result).toMatchObject({ right: { transaction: { outcome: 'Committed' } } });
    expect(box.states).toEqual([]);
    expect(box.log.find((entry) => entry.event === 'plugin install authorized')?.fields).toEqual({ plugin: 'team-chat@wegent', connectors: ['team-chat:already_logged_in'] });
  });
});
