/**
 * Runtime authorization recovery through the host protocol, with a real MCP plugin whose tool needs a
 * device login: the turn ends with `connector_auth_required` (detected on the turn's final message and
 * tool calls), the host asks the executor to recover, the plugin's own QR bridge logs in (shown to the
 * host as `auth/session`), and the executor continues the blocked step with an instruction — not the
 * original request again — after which the tool succeeds.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, functionCallOutputs, respond, say, userMessages } from '@wework/scripted-model';
import { firstOptionPolicy } from '../src/host/ExecutorHostClient.js';
import { startHostBox } from './support/executorHostBox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LOGIN_MARKER = '.team-chat-login';

/** The team-chat plugin package: its connector logs in on first use with a QR bridge that completes at the first poll. */
async function teamChatPackage(root: string): Promise<string> {
  const dir = join(root, 'team-chat-1.0.0');
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/post'), { recursive: true });
  await mkdir(join(dir, 'bin'), { recursive: true });
  const localAuth = { type: 'local_qr', authPolicy: 'on_first_use', health: ['bin/bridge.mjs', 'health'], start: ['bin/bridge.mjs', 'start'], poll: ['bin/bridge.mjs', 'poll'] };
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'team-chat', version: '1.0.0', description: 'Team chat', skills: './skills/', connectors: [{ slug: 'team-chat', localAuth }] }));
  await writeFile(join(dir, 'skills/post/SKILL.md'), '---\nname: post\ndescription: Posts to the team chat\n---\n\nPost it.\n');
  await writeFile(
    join(dir, 'bin/bridge.mjs'),
    `import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const marker = join(process.env.HOME, ${JSON.stringify(LOGIN_MARKER)});
const print = (status) => process.stdout.write(JSON.stringify(status) + '\\n');
const command = process.argv[2];
if (command === 'health') print(existsSync(marker) ? { status: 'ok', account: 'Ada' } : { status: 'needs_login' });
else if (command === 'start') print({ status: 'pending', qr: { payload: 'https://login.example.com/qr/team-chat' } });
else { writeFileSync(marker, 'logged in'); print({ status: 'ok', account: 'Ada' }); }
`,
    { mode: 0o755 },
  );
  return dir;
}

it('a connector login required mid-turn is recovered through the host, and the blocked step continues', { timeout: 120_000 }, async () => {
  const connector = checkPluginBuilt('connector');
  if (!connector.ok) throw new Error(`build the sample plugins first: ${connector.error.path}`);
  const { root, dirs, model, host, close } = await startHostBox({
    prefix: 'harness-host-recovery-',
    script: [
      respond(callTool('connector', 'post_message', { text: 'stand-up at 10' })),
      respond(say('The team chat needs a login on this device.')),
      respond(callTool('connector', 'post_message', { text: 'stand-up at 10' })),
      respond(say('Posted.')),
    ],
    mcpServers: ({ dirs }) => ({ connector: { ...connector.command, env: { CONNECTOR_LOGIN_FILE: join(dirs.userHome, LOGIN_MARKER) }, default_tools_approval_mode: 'approve' } }),
    configOverrides: { features: { plugins: true } },
    waitForPlugins: ['connector'],
    cards: firstOptionPolicy(),
  });
  cleanups.push(close);

  expect(await host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-chat', version: '1.0.0', packagePath: await teamChatPackage(root) })).toMatchObject({ right: { plugin: { installed: true } } });
  expect(await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: dirs.workspace } })).toMatchObject({ right: {} });

  const blocked = await host.request('message/send', { taskId: 'task-1', markdown: 'Post "stand-up at 10" to the team chat' });
  expect(blocked).toMatchObject({ right: { status: 'completed', authRequired: { pluginKey: 'team-chat@wegent', connectorSlug: 'team-chat' } } });
  if (blocked._tag === 'Left' || blocked.right.authRequired === null) throw new Error('no authRequired');

  const recovered = await host.request('auth/recover', { taskId: 'task-1', ...blocked.right.authRequired, toolName: blocked.right.authRequired.toolName ?? undefined });
  expect(recovered).toMatchObject({ right: { turn: { status: 'completed', authRequired: null } } });
  if (recovered._tag === 'Left') throw new Error(recovered.left.message);
  const states = host.notifications('auth/session').map((n) => (n.params as { state: string; reason: string }).state);
  expect(states).toContain('waiting_scan');
  expect(states[states.length - 1]).toBe('ok');

  // The continuation reached the model as the next instruction of the same conversation; the original request was not sent again.
  const last = model.requests.filter((request) => request.method === 'POST').at(-1) ?? { body: {} };
  const said = userMessages(last);
  expect(said).toContain(recovered.right.continuation);
  expect(said.filter((text) => text.includes('Post "stand-up at 10"'))).toHaveLength(1);
  expect(recovered.right.continuation).toContain('Do not start the task over');
  expect(functionCallOutputs(last).map((output) => output.text).join('\n')).toContain('posted: stand-up at 10');

  // A recovery is offered once, for the request that is still current.
  expect(await host.request('auth/recover', { taskId: 'task-1', pluginKey: 'team-chat@wegent', connectorSlug: 'team-chat' })).toMatchObject({ left: { code: -32010, data: { tag: 'RecoveryObsolete' } } });
});
