/**
 * The harness as the desktop executor's host, end to end: the executor's serve entry started as a
 * process (its own temporary executor home, Codex home and HOME), the real app-server, the real forms
 * plugin and the scripted model. A whole conversation goes through the documented host protocol
 * (mentions, an image, a plugin form, a command approval), and the WebSocket endpoint refuses
 * connections without the launch token or with a wrong one.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, imagesAttached, respond, say, shell, skillsAvailable, userMessages, type Script } from '@wework/scripted-model';
import { openExecutorWebSocket, type CardPolicy } from '../src/host/ExecutorHostClient.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';

const started: HostBox[] = [];
afterEach(async () => {
  for (const box of started.splice(0).reverse()) await box.close();
});

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const SKILL_BODY = 'Answer like a ship captain. (skill marker 5512)';

interface Box extends HostBox {
  readonly skillPath: string;
  readonly image: string;
}

const captainSkillIn = (workspace: string): string => join(workspace, '.agents/skills/captain/SKILL.md');
const imageIn = (root: string): string => join(root, 'dot.png');

async function start(script: Script, transport: 'stdio' | 'websocket', cards: CardPolicy, features: Readonly<Record<string, boolean>> = {}): Promise<Box> {
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
  const box = await startHostBox({
    prefix: 'harness-host-',
    script,
    mcpServers: { forms: { ...plugin.command, default_tools_approval_mode: 'approve' } },
    configOverrides: { features },
    transport,
    waitForPlugins: ['forms'],
    cards,
    prepare: async ({ root, dirs }) => {
      await mkdir(dirname(captainSkillIn(dirs.workspace)), { recursive: true });
      await writeFile(captainSkillIn(dirs.workspace), `---\nname: captain\ndescription: Talk like a captain\n---\n\n${SKILL_BODY}\n`);
      await writeFile(imageIn(root), PNG);
    },
  });
  started.push(box);
  return { ...box, skillPath: captainSkillIn(box.workspace), image: imageIn(box.root) };
}

/** The user's choices: "Safe" on the strategy form; allow once on an approval card. */
const userPolicy: CardPolicy = (card) => {
  if (card.origin === 'mcpElicitation') return { answers: { strategy: { answers: ['Safe'] } } };
  const question = card.questions[0];
  return { answers: { [question?.id ?? 'decision']: { answers: [question?.options?.[0]?.label ?? ''] } } };
};

describe('the harness as host of the desktop executor', () => {
  it('drives a whole conversation through the host protocol: mentions, an image, a plugin form, an approval', async () => {
    const script: Script = [
      respond(callTool('forms', 'choose_strategy')),
      respond(say('Aye, the safe course it is.')),
      respond(shell('touch approved.txt', { sandboxPermissions: 'require_escalated', justification: 'the task needs this file' })),
      respond(say('File created.')),
    ];
    const box = await start(script, 'stdio', userPolicy);
    const { host } = box;
    expect(await host.request('executor/info', {})).toMatchObject({ right: { executor: 'wework-desktop-executor', protocolVersion: 1 } });
    const models = await host.request('models/list', {});
    expect(models._tag === 'Right' && models.right.models.length > 0).toBe(true);

    const created = await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null, options: { permissionMode: 'full-access' } }, executionRequest: { workspace: box.workspace } });
    expect(created).toMatchObject({ right: { task: { taskId: 'task-1', threadId: expect.any(String), archived: false } } });

    const markdown = `Use [$captain](${box.skillPath}) with [$Forms](plugin://forms@local-market) and look at this picture.`;
    const first = await host.request('message/send', { taskId: 'task-1', markdown, attachments: [box.image], modelCategory: 'nonOfficial' });
    expect(first).toMatchObject({ right: { taskId: 'task-1', status: 'completed', error: null, warnings: [] } });
    // The skill mention brought its SKILL.md, the image reached the model, and the form was answered "Safe".
    const request = box.model.requests[0];
    expect(JSON.stringify(request?.body)).toContain(SKILL_BODY);
    expect(request === undefined ? [] : imagesAttached(request)).toHaveLength(1);
    expect(host.cards[0]).toMatchObject({ origin: 'mcpElicitation', serverName: 'forms', message: 'Choose how to continue' });
    const toolItem = host.notifications('transcript/item').find((n) => (n.params as { phase: string; item: { type: string } }).phase === 'completed' && (n.params as { item: { type: string } }).item.type === 'mcpToolCall');
    expect(JSON.stringify(toolItem?.params)).toContain('continuing with strategy safe');

    // A follow-up in Read only: the command needs approval; the host allows it once.
    const second = await host.request('message/send', { taskId: 'task-1', markdown: 'Create approved.txt', permissionMode: 'read-only' });
    expect(second).toMatchObject({ right: { status: 'completed' } });
    expect(host.cards[1]).toMatchObject({ origin: 'commandApproval' });
    expect(existsSync(join(box.workspace, 'approved.txt'))).toBe(true);
    expect(userMessages(box.model.requests[2] ?? { body: {} })).toContain('Create approved.txt');

    // The transcript streamed as notifications: agent messages, two completed turns.
    const messages = host.notifications('transcript/item').flatMap((n) => {
      const params = n.params as { phase: string; item: { type: string; text?: string } };
      return params.phase === 'completed' && params.item.type === 'agentMessage' ? [params.item.text] : [];
    });
    expect(messages).toEqual(['Aye, the safe course it is.', 'File created.']);
    expect(host.notifications('transcript/turnCompleted')).toHaveLength(2);
    expect(host.notifications('transcript/agentMessageDelta').length).toBeGreaterThan(0);
    // Cards travelled as requests to the host, and their answers came back as responses.
    expect(host.transcript.filter((entry) => entry.direction === 'toHost' && 'method' in entry.message && entry.message.method === 'card/show')).toHaveLength(2);

    // Bad params are refused with -32602 and a clear message; the executor carries on.
    // @ts-expect-error -- params that do not fit on purpose: the executor answers -32602
    expect(await host.request('message/send', { taskId: 7 })).toMatchObject({ left: { code: -32602, message: expect.stringContaining('taskId: expected string') } });
    expect(await host.request('message/send', { taskId: 'nope', markdown: 'hi' })).toMatchObject({ left: { code: -32001 } });
    expect(await host.request('plugins/list', {})).toEqual({ _tag: 'Right', right: { plugins: [] } });
    expect(await host.request('settings/read', {})).toMatchObject({ right: { instructions: '', style: 'pragmatic' } });
    expect(await host.request('task/archive', { taskId: 'task-1' })).toEqual({ _tag: 'Right', right: {} });
    // Every notification of the conversation fits its codec in @wework/host-protocol.
    expect(host.notifications().length).toBeGreaterThan(0);
    expect(host.protocolViolations()).toEqual([]);

    if (process.env['HOST_PROTOCOL_TRANSCRIPT_OUT'] !== undefined) {
      await writeFile(process.env['HOST_PROTOCOL_TRANSCRIPT_OUT'], JSON.stringify({ root: box.root, transcript: host.transcript }, null, 1));
    }
  });

  it('installs, lists and removes a cloud plugin through the host protocol; its skill reaches the model in between', async () => {
    const box = await start([respond(say('one')), respond(say('two'))], 'stdio', userPolicy, { plugins: true });
    const { host } = box;
    const pkg = join(box.root, 'team-skills-1.0.0');
    await mkdir(join(pkg, '.codex-plugin'), { recursive: true });
    await mkdir(join(pkg, 'skills/standup'), { recursive: true });
    await writeFile(join(pkg, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'team-skills', version: '1.0.0', description: 'Team rituals', skills: './skills/' }));
    await writeFile(join(pkg, 'skills/standup/SKILL.md'), '---\nname: standup\ndescription: Writes the stand-up note\n---\n\nYesterday, today, blockers.\n');

    const installed = await host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-skills', version: '1.0.0', packagePath: pkg });
    expect(installed).toEqual({ _tag: 'Right', right: { plugin: { pluginId: 'team-skills@wegent', name: 'team-skills', marketplace: 'wegent', installed: true, enabled: true, description: 'Team rituals' } } });
    expect(await host.request('plugins/list', {})).toMatchObject({ right: { plugins: [{ pluginId: 'team-skills@wegent', installed: true }] } });
    expect(await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } })).toMatchObject({ right: {} });
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'hello' })).toMatchObject({ right: { status: 'completed' } });
    expect(skillsAvailable(box.model.requests[0] ?? { body: {} }).map((skill) => skill.name)).toContain('team-skills:standup');

    expect(await host.request('plugins/uninstall', { pluginId: 'team-skills@wegent' })).toEqual({ _tag: 'Right', right: {} });
    expect(await host.request('plugins/list', {})).toEqual({ _tag: 'Right', right: { plugins: [] } });
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'again' })).toMatchObject({ right: { status: 'completed' } });
    expect(skillsAvailable(box.model.requests[1] ?? { body: {} }).map((skill) => skill.name)).not.toContain('team-skills:standup');
    expect(await host.request('plugins/uninstall', { pluginId: 'team-skills@wegent' })).toMatchObject({ left: { data: { tag: 'PluginNotFound' } } });
    // @ts-expect-error -- params that do not fit on purpose (half of the package form): the executor answers -32602
    expect(await host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-skills', packagePath: '/nowhere' })).toMatchObject({ left: { code: -32602 } });
    // Without version and packagePath it is a marketplace install, and Codex knows no local marketplace "wegent".
    expect(await host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-skills' })).toMatchObject({ left: { code: -32020, data: { tag: 'MarketplaceNotFound' } } });
  });

  it('the WebSocket endpoint refuses connections without the launch token or with a wrong one', async () => {
    const box = await start([respond(say('hello over WebSocket'))], 'websocket', userPolicy);
    const endpoint = box.host.endpoint;
    if (endpoint === null) throw new Error('no endpoint');
    await expect(openExecutorWebSocket(endpoint.port, {})).rejects.toThrow(/401/);
    await expect(openExecutorWebSocket(endpoint.port, { bearer: 'f'.repeat(64) })).rejects.toThrow(/401/);
    // A wrong token: the launch token with its last digit changed (never equal to it).
    const wrongToken = `${endpoint.token.slice(0, -1)}${endpoint.token.endsWith('0') ? '1' : '0'}`;
    await expect(openExecutorWebSocket(endpoint.port, { protocol: wrongToken })).rejects.toThrow(/401/);
    await expect.poll(() => box.host.stderr(), { timeout: 10_000 }).toMatch(/host connection refused reason="no token"/);
    // The token as a subprotocol (what a browser can send) is accepted.
    const socket = await openExecutorWebSocket(endpoint.port, { protocol: endpoint.token });
    expect(socket.protocol).toBe(endpoint.token);
    socket.close();
    // The harness itself is connected with the bearer token and can run a turn.
    await box.host.request('task/create', { taskId: 'ws', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    expect(await box.host.request('message/send', { taskId: 'ws', markdown: 'hi' })).toMatchObject({ right: { status: 'completed' } });
  });

  it('keeps credentials sent to the executor out of its transcript', async () => {
    const box = await start([], 'stdio', userPolicy);
    const canary = 'CANARY-credential-9d1f';
    expect(await box.host.request('runtime/setWegentToken', { token: canary, expiresIn: 3600 })).toMatchObject({ right: { expiresAt: expect.any(Number) } });
    const config = { model: 'inspector', providerId: 'gateway', baseUrl: 'http://127.0.0.1:9/v1', bearerToken: canary, headers: { 'x-gateway-key': canary } };
    expect(await box.host.request('supervision/setModel', { config })).toMatchObject({ right: { model: 'inspector' } });
    const transcript = JSON.stringify(box.host.transcript);
    expect(transcript).toContain('runtime/setWegentToken');
    expect(transcript).toContain('[redacted]');
    expect(transcript).not.toContain(canary);
    expect(box.host.stderr()).not.toContain(canary);
  });
});
