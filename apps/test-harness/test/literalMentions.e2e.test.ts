/**
 * Literal text stays literal for Codex, end to end: the executor's serve entry as a process, the real
 * app-server and the scripted model. Codex reads mention links out of the message text itself (a
 * backslash before `[` does not stop it), so text that only looks like a skill, app or plugin mention
 * must reach the model as the user's words and nothing else: no `<skill>` injected, no plugin's
 * capabilities added, no structured mention. Real mentions still work.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app, plugin, serialize, skill, text } from '@wework/mention-serializer';
import { inputItems, respond, say, type HasBody } from '@wework/scripted-model';
import type { ScriptedModel } from '@wework/scripted-model/node';
import { firstOptionPolicy, type ExecutorHostClient } from '../src/host/ExecutorHostClient.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';

const SKILL_BODY = 'Answer like a ship captain. (skill marker 6620)';
const PLUGIN_CAPABILITIES = 'Capabilities from the `team-skills` plugin';
const captainSkillIn = (workspace: string): string => join(workspace, '.agents/skills/captain/SKILL.md');
const teamSkillsPackage = (root: string): string => join(root, 'team-skills-1.0.0');
let box: HostBox | undefined;
let host: ExecutorHostClient;
let model: ScriptedModel;
let skillPath: string;

beforeAll(async () => {
  box = await startHostBox({
    prefix: 'harness-literal-',
    script: [respond(say('one')), respond(say('two'))],
    configOverrides: { features: { plugins: true } },
    cards: firstOptionPolicy(),
    prepare: async ({ root, dirs }) => {
      await mkdir(dirname(captainSkillIn(dirs.workspace)), { recursive: true });
      await writeFile(captainSkillIn(dirs.workspace), `---\nname: captain\ndescription: Talk like a captain\n---\n\n${SKILL_BODY}\n`);
      // A plugin Codex knows (installed through the host protocol), so that a mention of it would activate it.
      const pkg = teamSkillsPackage(root);
      await mkdir(join(pkg, '.codex-plugin'), { recursive: true });
      await mkdir(join(pkg, 'skills/standup'), { recursive: true });
      await writeFile(join(pkg, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'team-skills', version: '1.0.0', description: 'Team rituals', skills: './skills/' }));
      await writeFile(join(pkg, 'skills/standup/SKILL.md'), '---\nname: standup\ndescription: Writes the stand-up note\n---\n\nYesterday, today, blockers.\n');
    },
  });
  ({ host, model } = box);
  skillPath = captainSkillIn(box.workspace);
  const installed = await host.request('plugins/install', { marketplace: 'wegent', plugin: 'team-skills', version: '1.0.0', packagePath: teamSkillsPackage(box.root) });
  if (installed._tag === 'Left') throw new Error(installed.left.message);
  const created = await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
  if (created._tag === 'Left') throw new Error(created.left.message);
}, 120_000);

afterAll(async () => {
  await box?.close();
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
