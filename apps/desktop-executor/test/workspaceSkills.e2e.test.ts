/**
 * `skills/list` and `skills/read` on the real executor and its real app-server: a user skill in the Codex
 * home and in `~/.agents/skills`, and workspace skills in `.agents/skills` and `.codex/skills`, listed with
 * their scope for a task's workspace (and for another folder by `cwd`); each listed `SKILL.md` read; a path
 * no listing has, a workspace skill asked for another workspace, and a skill file that is a link refused.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { startServe, typedHost, type ServeAnswer, type ServeProcess } from './support/serveProcess.js';

interface Box {
  readonly root: string;
  readonly codexHome: string;
  readonly home: string;
  readonly workspace: string;
  readonly other: string;
  readonly executor: ServeProcess;
  readonly model: ScriptedModel;
}
let box: Box;

const skillText = (name: string): string => `---\nname: ${name}\ndescription: The ${name} skill\n---\n\nDo ${name}.\n`;

/** Writes skill `name` under the skills folder `dir`. */
async function writeSkill(dir: string, name: string): Promise<string> {
  const file = join(dir, name, 'SKILL.md');
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(file, skillText(name));
  return file;
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-skills-'));
  const executorHome = join(root, 'executor');
  const codexHome = join(executorHome, 'codex');
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  const other = join(root, 'other');
  await Promise.all([codexHome, home, workspace, other].map((dir) => mkdir(dir, { recursive: true })));
  await writeSkill(join(codexHome, 'skills'), 'home-notes');
  await writeSkill(join(home, '.agents', 'skills'), 'agent-notes');
  await writeSkill(join(workspace, '.agents', 'skills'), 'repo-build');
  await writeSkill(join(workspace, '.codex', 'skills'), 'repo-release');
  await writeSkill(join(other, '.agents', 'skills'), 'other-only');
  // A skill whose SKILL.md is a link to a file outside every skill folder.
  await writeFile(join(root, 'secret.md'), skillText('linked'));
  await mkdir(join(workspace, '.agents', 'skills', 'linked'), { recursive: true });
  await symlink(join(root, 'secret.md'), join(workspace, '.agents', 'skills', 'linked', 'SKILL.md'));
  const model = await startScriptedModel({ script: [] });
  const written = await writeScriptedModelConfig(codexHome, { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
  const executor = startServe(['--executor-home', executorHome, '--workspace', other], { ...process.env, HOME: home });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  box = { root, codexHome, home, workspace, other, executor, model };
  expect(await host.ok('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace } })).toMatchObject({ task: { taskId: 'task-1' } });
}, 120_000);

afterAll(async () => {
  await box?.executor.close();
  await box?.model.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

const call = (method: string, params: object): Promise<ServeAnswer> => box.executor.request(method, params, 90_000);
/** Typed requests: the decoded result, or a throw with the end of the executor's stderr. */
const host = typedHost(() => box.executor);

describe('skills/list', () => {
  it("lists the user's and the task workspace's skills with their scope", async () => {
    const listed = await host.ok('skills/list', { taskId: 'task-1' });
    expect(listed.cwd).toBe(box.workspace);
    expect(listed.truncated).toBe(false);
    const mine = listed.skills.filter((skill) => skill.scope !== 'system');
    expect(mine).toEqual(
      expect.arrayContaining([
        { name: 'home-notes', description: 'The home-notes skill', path: join(box.codexHome, 'skills', 'home-notes', 'SKILL.md'), scope: 'user', enabled: true, pluginId: null },
        { name: 'agent-notes', description: 'The agent-notes skill', path: join(box.home, '.agents', 'skills', 'agent-notes', 'SKILL.md'), scope: 'user', enabled: true, pluginId: null },
        { name: 'repo-build', description: 'The repo-build skill', path: join(box.workspace, '.agents', 'skills', 'repo-build', 'SKILL.md'), scope: 'repo', enabled: true, pluginId: null },
        { name: 'repo-release', description: 'The repo-release skill', path: join(box.workspace, '.codex', 'skills', 'repo-release', 'SKILL.md'), scope: 'repo', enabled: true, pluginId: null },
      ]),
    );
    expect(mine.map((skill) => skill.name)).not.toContain('other-only');
    // Codex's bundled skills come with the system scope; each path is listed once.
    expect(listed.skills.some((skill) => skill.scope === 'system')).toBe(true);
    expect(new Set(listed.skills.map((skill) => skill.path)).size).toBe(listed.skills.length);
  });

  it('lists another folder by cwd, and the executor workspace with neither', async () => {
    const byCwd = await host.ok('skills/list', { cwd: box.other });
    expect(byCwd.skills.map((skill) => skill.name)).toEqual(expect.arrayContaining(['other-only', 'home-notes']));
    expect(byCwd.skills.map((skill) => skill.name)).not.toContain('repo-build');
    const fallback = await host.ok('skills/list', {});
    expect(fallback.skills.map((skill) => skill.name)).toContain('other-only');
  });

  it('refuses an unknown task', async () => {
    expect(await call('skills/list', { taskId: 'no-such-task' })).toMatchObject({ error: { code: -32001 } });
  });
});

describe('skills/read', () => {
  it("reads a listed user skill and a listed workspace skill of the task's workspace", async () => {
    expect(await host.ok('skills/read', { taskId: 'task-1', path: join(box.codexHome, 'skills', 'home-notes', 'SKILL.md') })).toEqual({ name: 'home-notes', markdown: skillText('home-notes'), truncated: false });
    expect(await host.ok('skills/read', { taskId: 'task-1', path: join(box.workspace, '.codex', 'skills', 'repo-release', 'SKILL.md') })).toEqual({ name: 'repo-release', markdown: skillText('repo-release'), truncated: false });
  });

  it('refuses a path no listing has, and a workspace skill asked for another workspace', async () => {
    expect(await call('skills/read', { taskId: 'task-1', path: join(box.root, 'secret.md') })).toMatchObject({ error: { code: -32026 } });
    expect(await call('skills/read', { taskId: 'task-1', path: join(box.codexHome, 'config.toml') })).toMatchObject({ error: { code: -32026 } });
    expect(await call('skills/read', { taskId: 'task-1', path: `${join(box.workspace, '.agents', 'skills', 'repo-build')}/../repo-build/SKILL.md` })).toMatchObject({ error: { code: -32026 } });
    expect(await call('skills/read', { taskId: 'task-1', path: join(box.other, '.agents', 'skills', 'other-only', 'SKILL.md') })).toMatchObject({ error: { code: -32026 } });
    expect(await call('skills/read', { path: join(box.workspace, '.agents', 'skills', 'repo-build', 'SKILL.md') })).toMatchObject({ error: { code: -32026 } });
  });

  it('refuses a skill file that is a link, whether Codex lists it or not', async () => {
    const link = join(box.workspace, '.agents', 'skills', 'linked', 'SKILL.md');
    const answer = await call('skills/read', { taskId: 'task-1', path: link });
    expect('error' in answer).toBe(true);
    expect(JSON.stringify(answer)).not.toContain('Do linked.');
    const listed = await host.ok('skills/list', { taskId: 'task-1' });
    // Listed by Codex: the read is refused as unreadable (the link is not followed); not listed: as not found.
    expect(answer).toMatchObject({ error: { code: listed.skills.some((skill) => skill.path === link) ? -32004 : -32026 } });
  });
});
