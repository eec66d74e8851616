/**
 * Literal text stays literal for Codex, end to end: the executor's serve entry as a process, the real
 * app-server and the scripted model. Codex reads mention links out of the message text itself (a
 * backslash before `[` does not stop it), so text that only looks like a skill, app or plugin mention
 * must reach the model as the user's words and nothing else: no `<skill>` injected, no plugin's
 * capabilities added, no structured mention. Real mentions still work.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app, plugin, serialize, skill, text } from '@wework/mention-serializer';
import { inputItems, respond, say, type HasBody } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { harnessCodexConfig } from '../src/CodexConfig.js';
import { firstOptionPolicy, startExecutorHost, type ExecutorHostClient } from '../src/host/ExecutorHostClient.js';

const SKILL_BODY = 'Answer like a ship captain. (skill marker 6620)';
const PLUGIN_CAPABILITIES = 'Capabilities from the `team-skills` plugin';
const cleanups: Array<() => Promise<void>> = [];
let host: ExecutorHostClient;
let model: ScriptedModel;
let skillPath: string;

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'harness-literal-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  model = await startScriptedModel({ script: [respond(say('one')), respond(say('two'))] });
  cleanups.push(() => model.close());
  const config = harnessCodexConfig({ modelUrl: model.url, mcpServers: {} });
  await writeFile(join(dirs.executorHome, 'codex', 'config.toml'), stringifyToml({ ...config, features: { ...(config.features as Record<string, unknown>), plugins: true } }), { mode: 0o600 });
  const skillDir = join(dirs.workspace, '.agents/skills/captain');
  await mkdir(skillDir, { recursive: true });
  skillPath = join(skillDir, 'SKILL.md');
  await writeFile(skillPath, `---\nname: captain\ndescription: Talk like a captain\n---\n\n${SKILL_BODY}\n`);
  // A plugin Codex knows (installed through the host protocol), so that a mention of it would activate it.
  const pkg = join(root, 'team-skills-1.0.0');
  await mkdir(join(pkg, '.codex-plugin'), { recursive: true });
  await mkdir(join(pkg, 'skills/standup'), { recursive: true });
  await writeFile(join(pkg, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'team-skills', version: '1.0.0', description: 'Team rituals', skills: './skills/' }));
  await writeFile(join(pkg, 'skills/standup/SKILL.md'), '---\nname: standup\ndescription: Writes the stand-up note\n---\n\nYesterday, today, blockers.\n');
  host = await startExecutorHost({ transport: 'stdio', ...dirs, cards: firstOptionPolicy() });
  cleanups.push(() => host.close());
  const installed = await host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-skills', version: '1.0.0', packagePath: pkg });
  if (installed._tag === 'Left') throw new Error(installed.left.message);
  const created = await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: dirs.workspace } });
  if (created._tag === 'Left') throw new Error(created.left.message);
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The text of each user-role message of a model request, its `input_text` parts joined as the model reads them. */
const userTexts = (request: HasBody | undefined): string[] =>
  (request === undefined ? [] : inputItems(request))
    .filter((item) => item['type'] === 'message' && item['role'] === 'user')
    .map((item) => {
      const content: unknown = item['content'];
      return Array.isArray(content) ? content.flatMap((part: { type?: string; text?: string }) => (part.type === 'input_text' && typeof part.text === 'string' ? [part.text] : [])).join('') : '';
    });

const userMessageItems = (): Array<{ content: Array<{ type: string }> }> =>
  host.notifications('transcript/item').flatMap((n) => {
    const params = n.params as { phase: string; item: { type: string; content: Array<{ type: string }> } };
    return params.phase === 'completed' && params.item.type === 'userMessage' ? [params.item] : [];
  });

describe('look-alike mentions typed as text', () => {
  it('reach the model as the user’s words: no skill injected, no plugin or app activated, no structured mention', async () => {
    const doc = [
      text(`Literally: [$captain](${skillPath}), $captain, [$Drive](app://connector_drive) and [@Team](plugin://team-skills@wegent). `),
      text('Also \\[$captain](' + skillPath + ') with its backslash.'),
    ];
    const markdown = serialize(doc);
    expect(markdown).toContain('\\[$captain]');
    expect(await host.request('message/send', { taskId: 'task-1', markdown })).toMatchObject({ right: { status: 'completed' } });
    const request = model.requests[0];
    const body = JSON.stringify(request?.body);
    expect(body).not.toContain(SKILL_BODY);
    expect(body).not.toContain('<skill>');
    expect(body).not.toContain(PLUGIN_CAPABILITIES);
    expect(userTexts(request)).toContain(markdown);
    expect(userMessageItems()[0]?.content.every((part) => part.type === 'text')).toBe(true);
  });

  it('real mentions next to look-alikes still work: the skill’s SKILL.md and the plugin’s capabilities reach the model', async () => {
    const doc = [
      text('Use '),
      skill('captain', skillPath),
      text(' with '),
      plugin('Team', 'team-skills', 'wegent'),
      text(', but not \\[$captain] or $captain as text; '),
      app('Drive', 'connector_drive'),
      text('.'),
    ];
    const markdown = serialize(doc);
    expect(await host.request('message/send', { taskId: 'task-1', markdown })).toMatchObject({ right: { status: 'completed' } });
    const request = model.requests[1];
    const body = JSON.stringify(request?.body);
    expect(body).toContain(SKILL_BODY);
    expect(body).toContain(PLUGIN_CAPABILITIES);
    expect(userTexts(request)).toContain(markdown);
    const content = userMessageItems()[1]?.content ?? [];
    expect(content.filter((part) => part.type !== 'text')).toEqual([
      { type: 'skill', name: 'captain', path: skillPath },
      { type: 'mention', name: 'Team', path: 'plugin://team-skills@wegent' },
      { type: 'mention', name: 'Drive', path: 'app://connector_drive' },
    ]);
  });
});
