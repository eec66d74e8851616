/**
 * Install-time authorization through the host protocol: installing a plugin whose connector logs in on
 * install shows the login to the host (`auth/session` with the QR code); the host closes it
 * (`auth/cancel`), the login process ends, and the installation is rolled back — nothing of the plugin is
 * left. A device already logged in installs at once, without a login.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstOptionPolicy, type ExecutorHostClient } from '../src/host/ExecutorHostClient.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';
import { until } from '@wework/test-support';

const started: HostBox[] = [];
afterEach(async () => {
  for (const box of started.splice(0).reverse()) await box.close();
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

async function start(): Promise<HostBox> {
  const box = await startHostBox({ prefix: 'harness-host-auth-', configOverrides: { features: { plugins: true } }, cards: firstOptionPolicy() });
  started.push(box);
  return box;
}

const sessionNotifications = (host: ExecutorHostClient) =>
  host.notifications('auth/session').map((n) => n.params as { sessionId: string; state: string; qr?: { payload: string }; pluginKey: string; reason: string });

describe('install-time authorization through the host protocol', () => {
  it('shows the connector login to the host; closing it rolls the installation back', async () => {
    const { root, host } = await start();
    const installing = host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-chat', version: '1.0.0', packagePath: await chatPackage(root, false) });
    const qr = await until('the QR code', () => sessionNotifications(host).find((n) => n.state === 'waiting_scan'), 20_000);
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
