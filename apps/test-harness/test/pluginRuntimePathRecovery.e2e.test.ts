/**
 * The spec's `plugin-runtime-path-recovery` checkpoint, end to end: the executor's serve entry (its own
 * executor home, Codex home and HOME), the real app-server, the scripted model and two real plugins
 * whose MCP servers (the sample forms server) come from their packages. Both are installed through the
 * host protocol and invoked; the executor stops; the whole executor directory is moved to a new path;
 * the executor starts again offline (the model is the only network peer, on loopback). The plugin is
 * recovered for the new place and invocable; the plugin whose retained package was removed is
 * `repairRequired` while the other works; settings are intact; an update works; an uninstall does not
 * come back after another restart; a reinstall is invocable again.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, respond, say, skillsAvailable, toolsOffered, type Script } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { harnessCodexConfig } from '../src/CodexConfig.js';
import { firstOptionPolicy, startExecutorHost, type ExecutorHostClient } from '../src/host/ExecutorHostClient.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const forms = checkPluginBuilt('forms');

/** A plugin package (as the host unpacks it from the backend) whose MCP server is the forms sample server. */
async function mcpPackage(root: string, name: string, version: string): Promise<string> {
  if (!forms.ok) throw new Error(`build the sample plugins first: ${forms.error.path}`);
  const dir = join(root, 'packages', `${name}-${version}`);
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/desk'), { recursive: true });
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name, version, description: `${name} desk (${version})`, skills: './skills/', mcpServers: './.mcp.json' }));
  await writeFile(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { [`${name}-desk`]: { command: forms.command.command, args: forms.command.args } } }));
  await writeFile(join(dir, 'skills/desk/SKILL.md'), `---\nname: desk\ndescription: The ${name} desk, version ${version}\n---\n\nUse the desk.\n`);
  return dir;
}

interface Place {
  readonly root: string;
  readonly dirs: { readonly executorHome: string; readonly userHome: string; readonly workspace: string };
}

const placeAt = (root: string): Place => ({ root, dirs: { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') } });

async function newPlace(model: ScriptedModel): Promise<Place> {
  const place = placeAt(await mkdtemp(join(tmpdir(), 'harness-path-recovery-')));
  cleanups.push(() => rm(place.root, { recursive: true, force: true }));
  await Promise.all([...Object.values(place.dirs), join(place.dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  const config = harnessCodexConfig({ modelUrl: model.url, mcpServers: {} });
  await writeFile(join(place.dirs.executorHome, 'codex', 'config.toml'), stringifyToml({ ...config, features: { ...(config.features as Record<string, unknown>), plugins: true } }), { mode: 0o600 });
  return place;
}

/** Starts the executor at `place`; a thread's first turn waits for the MCP servers of `servers` (plugins' servers start per thread). */
async function startAt(place: Place, servers: ReadonlyArray<string>): Promise<ExecutorHostClient> {
  const host = await startExecutorHost({ transport: 'stdio', ...place.dirs, waitForPlugins: servers, cards: firstOptionPolicy('Allow') });
  cleanups.push(() => host.close());
  return host;
}

type Inventory = { readonly plugins: ReadonlyArray<{ readonly pluginId: string; readonly enabled: boolean; readonly status: { readonly kind: string; readonly reason?: string }; readonly skills: ReadonlyArray<{ readonly name: string; readonly enabled: boolean }> }> };

async function inventory(host: ExecutorHostClient): Promise<Inventory> {
  const answered = await host.request('plugins/installed', {});
  if (answered._tag === 'Left') throw new Error(`plugins/installed failed: ${answered.left.message}`);
  return answered.right as Inventory;
}

const byId = (inv: Inventory, pluginId: string) => inv.plugins.find((plugin) => plugin.pluginId === pluginId);

/** The text of every completed MCP tool call the host saw (from `transcript/item`). */
const toolResults = (host: ExecutorHostClient): ReadonlyArray<string> =>
  host.notifications('transcript/item').flatMap((n) => {
    const params = n.params as { phase: string; item: { type: string } };
    return params.phase === 'completed' && params.item.type === 'mcpToolCall' ? [JSON.stringify(params.item)] : [];
  });

const offered = (model: ScriptedModel, request: number): ReadonlyArray<string> => toolsOffered(model.requests[request] ?? { body: {} }).map((tool) => `${tool.namespace ?? ''}.${tool.name}`);

describe('plugin-runtime-path-recovery', () => {
  it('install and invoke, move the executor home, start offline: recovered and invocable, an isolated repair, settings intact, update, uninstall stays, reinstall', async () => {
    const echo = (text: string): Script => [respond(callTool('alpha_desk', 'echo', { text })), respond(say(`echoed ${text}`))];
    const script: Script = [...echo('before the move'), ...echo('after the move'), ...echo('after the update'), respond(say('no alpha here')), ...echo('reinstalled')];
    const model = await startScriptedModel({ script });
    cleanups.push(() => model.close());
    const first = await newPlace(model);
    let host = await startAt(first, []);

    // Install three real plugins and invoke one; the user changes settings.
    for (const name of ['alpha', 'beta', 'gamma'])
      expect(await host.request('plugins/install', { marketplace: 'wegent', plugin: name, version: '1.0.0', packagePath: await mcpPackage(first.root, name, '1.0.0') })).toMatchObject({ right: { plugin: { installed: true } } });
    expect(await host.request('plugins/setEnabled', { pluginId: 'gamma@wegent', enabled: false })).toEqual({ _tag: 'Right', right: {} });
    expect(await host.request('skills/setEnabled', { name: 'alpha:desk', enabled: false })).toMatchObject({ right: { effectiveEnabled: false } });
    expect(await host.request('settings/write', { instructions: 'Keep answers short.' })).toEqual({ _tag: 'Right', right: {} });
    // Restarted once, so that the conversation's thread waits for the installed plugins' MCP servers.
    await host.close();
    host = await startAt(first, ['alpha-desk', 'beta-desk']);
    const task = { taskId: 'task-1', modelSelection: { model: null, options: { permissionMode: 'full-access' as const } }, executionRequest: { workspace: first.dirs.workspace } };
    expect(await host.request('task/create', task)).toMatchObject({ right: {} });
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'echo before the move' })).toMatchObject({ right: { status: 'completed' } });
    expect(toolResults(host).join('\n')).toContain('before the move');
    const before = await inventory(host);
    await host.close();

    // Move the whole temporary directory (executor home, HOME, workspace) to a new path.
    const moved = placeAt(`${first.root}-moved`);
    renameSync(first.root, moved.root);
    cleanups.push(() => rm(moved.root, { recursive: true, force: true }));
    // beta's retained package is gone (only its installation is affected).
    await rm(join(moved.dirs.executorHome, 'plugin-state/packages/wegent/beta'), { recursive: true });
    const movedConfig = readFileSync(join(moved.dirs.executorHome, 'codex/config.toml'), 'utf8');

    host = await startAt(moved, ['alpha-desk', 'beta-desk']);
    const after = await inventory(host);
    expect(byId(after, 'alpha@wegent')).toMatchObject({ status: { kind: 'ok' }, enabled: true, skills: [{ name: 'alpha:desk', enabled: false }] });
    expect(byId(after, 'beta@wegent')).toMatchObject({ status: { kind: 'repairRequired', reason: 'PackageMissing' } });
    expect(byId(after, 'gamma@wegent')).toMatchObject({ status: { kind: 'ok' }, enabled: false });
    expect(after.plugins.map((p) => p.pluginId).sort()).toEqual(before.plugins.map((p) => p.pluginId).sort());
    expect(await host.request('settings/read', {})).toMatchObject({ right: { instructions: 'Keep answers short.' } });
    // The recovered registrations name the new place; beta's (not recovered) is left as it was; nothing was written at the old place.
    const claudeRegistry = JSON.parse(readFileSync(join(moved.dirs.executorHome, 'claude/plugins/installed_plugins.json'), 'utf8')) as { plugins: Record<string, Array<{ installPath: string }>> };
    for (const name of ['alpha', 'gamma']) expect(claudeRegistry.plugins[`${name}@wegent`]?.[0]?.installPath).toBe(join(moved.dirs.executorHome, `claude/plugins/cache/wegent/${name}/1.0.0`));
    expect(claudeRegistry.plugins['beta@wegent']?.[0]?.installPath).toBe(join(first.dirs.executorHome, 'claude/plugins/cache/wegent/beta/1.0.0'));
    expect(existsSync(first.root)).toBe(false);
    expect(readFileSync(join(moved.dirs.executorHome, 'codex/config.toml'), 'utf8')).toContain('[plugins."gamma@wegent"]\nenabled = false');
    expect(movedConfig).toContain('[plugins."alpha@wegent"]');

    // The recovered plugin is invocable (a new task in the moved workspace).
    expect(await host.request('task/create', { ...task, taskId: 'task-2', executionRequest: { workspace: moved.dirs.workspace } })).toMatchObject({ right: {} });
    expect(await host.request('message/send', { taskId: 'task-2', markdown: 'echo after the move' })).toMatchObject({ right: { status: 'completed' } });
    expect(toolResults(host).join('\n')).toContain('after the move');
    expect(offered(model, 2)).toContain('mcp__alpha_desk.echo');

    // Normal synchronization repairs beta once a verified package is available; an update of alpha works.
    expect(await host.request('plugins/install', { marketplace: 'wegent', plugin: 'beta', version: '1.0.0', packagePath: await mcpPackage(moved.root, 'beta', '1.0.0') })).toMatchObject({ right: {} });
    expect(byId(await inventory(host), 'beta@wegent')).toMatchObject({ status: { kind: 'ok' } });
    expect(await host.request('plugins/install', { marketplace: 'wegent', plugin: 'alpha', version: '2.0.0', packagePath: await mcpPackage(moved.root, 'alpha', '2.0.0') })).toMatchObject({ right: {} });
    expect(await host.request('task/create', { ...task, taskId: 'task-3', executionRequest: { workspace: moved.dirs.workspace } })).toMatchObject({ right: {} });
    expect(await host.request('message/send', { taskId: 'task-3', markdown: 'echo after the update' })).toMatchObject({ right: { status: 'completed' } });
    expect(toolResults(host).join('\n')).toContain('after the update');
    expect(existsSync(join(moved.dirs.executorHome, 'codex/plugins/cache/wegent/alpha/2.0.0/.codex-plugin/plugin.json'))).toBe(true);

    // Uninstall: it does not come back after another restart (caches and package retained).
    expect(await host.request('plugins/uninstall', { pluginId: 'alpha@wegent' })).toEqual({ _tag: 'Right', right: {} });
    await host.close();
    host = await startAt(moved, ['beta-desk']);
    expect(byId(await inventory(host), 'alpha@wegent')).toBeUndefined();
    expect(readFileSync(join(moved.dirs.executorHome, 'codex/config.toml'), 'utf8')).not.toContain('alpha@wegent');
    expect(await host.request('task/create', { ...task, taskId: 'task-4', executionRequest: { workspace: moved.dirs.workspace } })).toMatchObject({ right: {} });
    expect(await host.request('message/send', { taskId: 'task-4', markdown: 'is alpha there?' })).toMatchObject({ right: { status: 'completed' } });
    expect(offered(model, 6)).not.toContain('mcp__alpha_desk.echo');
    expect(offered(model, 6)).toContain('mcp__beta_desk.echo');

    // A reinstall is invocable again.
    expect(await host.request('plugins/install', { marketplace: 'wegent', plugin: 'alpha', version: '2.0.0', packagePath: await mcpPackage(moved.root, 'alpha', '2.0.0') })).toMatchObject({ right: {} });
    // Invocable again, also after a restart: a new conversation waits for its MCP server.
    await host.close();
    host = await startAt(moved, ['alpha-desk', 'beta-desk']);
    expect(await host.request('task/create', { ...task, taskId: 'task-5', executionRequest: { workspace: moved.dirs.workspace } })).toMatchObject({ right: {} });
    expect(await host.request('message/send', { taskId: 'task-5', markdown: 'echo reinstalled' })).toMatchObject({ right: { status: 'completed' } });
    expect(toolResults(host).join('\n')).toContain('reinstalled');
    expect(skillsAvailable(model.requests[7] ?? { body: {} }).map((skill) => skill.name)).toContain('beta:desk');
    expect(host.protocolViolations()).toEqual([]);
  });
});
