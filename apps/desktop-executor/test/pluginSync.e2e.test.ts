/**
 * Cloud plugin sync against the real app-server: a pure-skill plugin installed and removed during one
 * conversation reaches the model by reloading the user config in place (same thread, same process); a
 * version update of the same plugin restarts the app-server instead.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, say, scriptedModelCodexConfig, skillsAvailable, userMessages } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { createNodePorts, directoryPackageSource } from '@wework/sync-transaction/node';
import type { LogEntry } from '@wework/ports';
import { describeRuntimeError } from '../src/runtime/LocalRuntime.js';
import { startRuntimeSupervisor, type RuntimeSupervisor } from '../src/runtime/RuntimeSupervisor.js';
import { describePluginSyncError, pluginSync, type PluginSync } from '../src/plugins/PluginSync.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PLUGIN = { name: 'team-skills', marketplace: 'wegent' };
const SKILL = 'team-skills:standup';

/** Writes a pure-skill plugin package (as unpacked from the backend) and returns its directory. */
async function skillPackage(root: string, version: string): Promise<string> {
  const dir = join(root, `package-${version}`);
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/standup'), { recursive: true });
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name: PLUGIN.name, version, description: 'Team rituals', skills: './skills/' }));
  await writeFile(join(dir, 'skills/standup/SKILL.md'), `---\nname: standup\ndescription: Writes the daily stand-up note (v${version})\n---\n\nList yesterday, today, blockers.\n`);
  return dir;
}

interface SyncBox {
  readonly root: string;
  readonly model: ScriptedModel;
  readonly runtime: RuntimeSupervisor;
  readonly sync: PluginSync;
  readonly log: LogEntry[];
}

async function syncBox(turns: number): Promise<SyncBox> {
  const root = await mkdtemp(join(tmpdir(), 'executor-sync-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dirs = { codexHome: join(root, 'codex-home'), claudeHome: join(root, 'claude-home'), home: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script: Array.from({ length: turns }, (_, i) => respond(say(`answer ${i + 1}`))) });
  cleanups.push(() => model.close());
  const provider = scriptedModelCodexConfig({ baseUrl: model.url });
  // Codex's plugin system on (offline its curated sync fails quietly), so installed plugins' skills load.
  await writeFile(join(dirs.codexHome, 'config.toml'), stringifyToml({ ...provider, features: { ...provider.features, plugins: true } }), { mode: 0o600 });
  const log: LogEntry[] = [];
  const started = await startRuntimeSupervisor({ codexHome: dirs.codexHome, home: dirs.home, workspace: dirs.workspace, env: process.env, pluginNames: [], log: (entry) => log.push(entry) });
  if (E.isLeft(started)) throw new Error(describeRuntimeError(started.left));
  cleanups.push(() => started.right.dispose());
  const homes = { codexHome: dirs.codexHome, claudeHome: dirs.claudeHome, stateDirectory: join(dirs.codexHome, 'wework-plugins') };
  const sync = pluginSync({ ports: createNodePorts(), homes, runtime: started.right, log: (entry) => log.push(entry), now: () => new Date().toISOString() });
  return { root, model, runtime: started.right, sync, log };
}

const skillNames = (box: SyncBox, request: number): ReadonlyArray<string> => skillsAvailable(box.model.requests[request] ?? { body: null }).map((skill) => skill.name);

describe('cloud plugin sync on the real app-server', () => {
  it('a pure-skill plugin installed and removed mid-conversation: same thread, same process, the skill absent / present / absent', async () => {
    const box = await syncBox(3);
    const pid = box.runtime.current().server.pid;
    const thread = await box.runtime.current().startThread({});
    if (E.isLeft(thread)) throw new Error(describeRuntimeError(thread.left));
    const threadId = thread.right.threadId;
    const turn = async (text: string): Promise<void> => {
      const result = await box.runtime.current().runTurn(threadId, text);
      if (E.isLeft(result)) throw new Error(describeRuntimeError(result.left));
      expect(result.right.status).toBe('completed');
    };

    await turn('before install');
    expect(skillNames(box, 0)).not.toContain(SKILL);

    const installed = await box.sync.install(PLUGIN, '1.0.0', directoryPackageSource(await skillPackage(box.root, '1.0.0')));
    if (E.isLeft(installed)) throw new Error(describePluginSyncError(installed.left));
    expect(installed.right.runtime).toEqual({ _tag: 'Reloaded', skills: ['standup'] });
    await turn('after install');
    expect(skillNames(box, 1)).toContain(SKILL);

    const removed = await box.sync.remove(PLUGIN);
    if (E.isLeft(removed)) throw new Error(describePluginSyncError(removed.left));
    expect(removed.right.runtime).toEqual({ _tag: 'Reloaded', skills: ['standup'] });
    await turn('after removal');
    expect(skillNames(box, 2)).not.toContain(SKILL);

    expect(box.runtime.current().server.pid).toBe(pid);
    expect(box.log.map((entry) => entry.event)).not.toContain('app-server restarted');
    // One conversation: the last request carries the whole history of the thread.
    expect(userMessages(box.model.requests[2] ?? { body: null }).filter((text) => text.startsWith('before') || text.startsWith('after'))).toEqual([
      'before install',
      'after install',
      'after removal',
    ]);
  });

  it('a version update of the same plugin restarts the app-server, and the new version reaches the model', async () => {
    const box = await syncBox(1);
    const v1 = await box.sync.install(PLUGIN, '1.0.0', directoryPackageSource(await skillPackage(box.root, '1.0.0')));
    expect(v1).toMatchObject({ right: { runtime: { _tag: 'Reloaded' } } });
    const pid = box.runtime.current().server.pid;

    const v2 = await box.sync.install(PLUGIN, '2.0.0', directoryPackageSource(await skillPackage(box.root, '2.0.0')));
    if (E.isLeft(v2)) throw new Error(describePluginSyncError(v2.left));
    expect(v2.right.runtime).toEqual({ _tag: 'Restarted', reason: 'VersionChanged' });
    expect(box.runtime.current().server.pid).not.toBe(pid);

    const thread = await box.runtime.current().startThread({});
    if (E.isLeft(thread)) throw new Error(describeRuntimeError(thread.left));
    expect(E.isRight(await box.runtime.current().runTurn(thread.right.threadId, 'which version?'))).toBe(true);
    const standup = skillsAvailable(box.model.requests[0] ?? { body: null }).find((skill) => skill.name === SKILL);
    expect(standup?.description).toBe('Writes the daily stand-up note (v2.0.0)');
  });
});
