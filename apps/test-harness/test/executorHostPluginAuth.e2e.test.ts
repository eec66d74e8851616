/**
 * Install-time authorization through the host protocol: installing a plugin whose connector logs in on
 * install shows the login to the host (`auth/session` with the QR code); the host closes it
 * (`auth/cancel`), the login process ends, and the installation is rolled back — nothing of the plugin is
 * left. A device already logged in installs at once, without a login.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { harnessCodexConfig } from '../src/CodexConfig.js';
import { firstOptionPolicy, startExecutorHost, type ExecutorHostClient } from '../src/host/ExecutorHostClient.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A package whose QR bridge reports the device logged in or not; a login never completes by itself. */
async function chatPackage(root: string, loggedIn: boolean): Promise<string> {
  const dir = join(root, `team-chat-${loggedIn ? 'ready' : 'login'}`);
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/post'), { recursive: true });
  await mkdir(join(dir, 'bin'), { recursive: true });
  const localAuth = { type: 'local_qr', authPolicy: 'on_install', health: ['bin/bridge.mjs', 'health'], start: ['bin/bridge.mjs', 'start'], poll: ['bin/bridge.mjs', 'poll'] };
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'team-chat', version: '1.0.0', description: 'Team chat', skills: './skills/', connectors: [{ slug: 'team-chat', localAuth }] }));
  await writeFile(join(dir, 'skills/post/SKILL.md'), '---\nname: post\ndescription: Posts to the team chat\n---\n\nPost it.\n');
  await writeFile(
    join(dir, 'bin/bridge.mjs'),
    `const print = (status) => process.stdout.write(JSON.stringify(status) + '\\n');
const command = process.argv[2];
if (command === 'health') print(${loggedIn} ? { status: 'ok', account: 'Ada' } : { status: 'needs_login' });
else print({ status: 'pending', qr: { payload: 'https://login.example.com/qr/team-chat' } });
`,
    { mode: 0o755 },
  );
  return dir;
}

async function start(): Promise<{ readonly root: string; readonly host: ExecutorHostClient }> {
  const root = await mkdtemp(join(tmpdir(), 'harness-host-auth-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  const config = harnessCodexConfig({ modelUrl: 'http://127.0.0.1:9/v1', mcpServers: {} });
  await writeFile(join(dirs.executorHome, 'codex', 'config.toml'), stringifyToml({ ...config, features: { ...(config.features as Record<string, unknown>), plugins: true } }), { mode: 0o600 });
  const host = await startExecutorHost({ transport: 'stdio', ...dirs, cards: firstOptionPolicy() });
  cleanups.push(() => host.close());
  return { root, host };
}

const sessionNotifications = (host: ExecutorHostClient) =>
  host.notifications('auth/session').map((n) => n.params as { sessionId: string; state: string; qr?: { payload: string }; pluginKey: string; reason: string });

async function waitFor<A>(what: string, probe: () => A | undefined, timeoutMs = 20_000): Promise<A> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('install-time authorization through the host protocol', () => {
  it('shows the connector login to the host; closing it rolls the installation back', async () => {
    const { root, host } = await start();
    const installing = host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-chat', version: '1.0.0', packagePath: await chatPackage(root, false) });
    const qr = await waitFor('the QR code', () => sessionNotifications(host).find((n) => n.state === 'waiting_scan'));
    expect(qr).toMatchObject({ pluginKey: 'team-chat@wegent', reason: 'install', qr: { payload: 'https://login.example.com/qr/team-chat' } });
    expect(await host.request('auth/cancel', { sessionId: qr.sessionId })).toEqual({ _tag: 'Right', right: {} });
    expect(await installing).toMatchObject({ left: { message: expect.stringContaining('could not be synchronised') } });
    expect(sessionNotifications(host).map((n) => n.state)).toContain('cancelled');
    expect(await host.request('plugins/list', {})).toEqual({ _tag: 'Right', right: { plugins: [] } });
    expect(await host.request('auth/cancel', { sessionId: qr.sessionId })).toMatchObject({ left: { data: { tag: 'AuthSessionNotFound' } } });
  });

  it('a device already logged in installs without a login', async () => {
    const { root, host } = await start();
    const installed = await host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-chat', version: '1.0.0', packagePath: await chatPackage(root, true) });
    expect(installed).toMatchObject({ right: { plugin: { pluginId: 'team-chat@wegent', installed: true } } });
    expect(sessionNotifications(host)).toEqual([]);
  });
});
