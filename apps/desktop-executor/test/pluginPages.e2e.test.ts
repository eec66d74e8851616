/**
 * The plugin pages as one journey through the host protocol of the real executor process (its real
 * app-server, a scripted model), with nothing written behind the executor's back: a local marketplace
 * directory made by the test is added with `marketplaces/add`, listed, its catalog opened (projected
 * summaries) and a plugin read; the plugin is installed from it and shows in `plugins/installed` (the
 * inventory the chat picker reads) with `inventory/changed`; mentioning it in a new task hands its
 * capabilities to the model; switched off, the next turn no longer sees it; uninstalled, it leaves the
 * inventory while the task's chat and a second installed plugin remain. Then `marketplaces/remove` of a
 * marketplace whose plugin is installed, and every new method's refusals: wrong-typed params are -32602,
 * unknown identities typed errors, and a refused install changes no byte of the executor home.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostErrorCode } from '@wework/host-protocol';
import { contentText, inputItems, respond, say, skillsAvailable, userMessages } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { writeCodexConfig, writeLocalMarketplace } from '@wework/test-support';
import { startServe, typedHost, type ServeProcess } from './support/serveProcess.js';
import { treeLines } from './support/treeLines.js';

const DEVICE = 'journey-device';
const LONG = 'JOURNEY-LONG-DESCRIPTION';
const SCREENSHOT = 'JOURNEY-SCREENSHOT';

interface Box {
  readonly root: string;
  readonly executorHome: string;
  readonly codexHome: string;
  readonly workspace: string;
  readonly markets: { readonly team: string; readonly spare: string };
  readonly executor: ServeProcess;
  readonly model: ScriptedModel;
}
let box: Box;

/** Writes a local marketplace `name` in `dir` with pure-skill plugins `{ plugin: skill }`, each with a long description and a screenshot. */
async function marketplace(dir: string, name: string, plugins: Readonly<Record<string, string>>): Promise<void> {
  await writeLocalMarketplace(dir, {
    name,
    interface: { displayName: `${name} shelf` },
    plugins: Object.entries(plugins).map(([plugin, skill]) => ({
      name: plugin,
      version: '3.1.0',
      description: `${plugin} of ${name}`,
      skills: [{ name: skill, description: `The ${skill} skill of ${plugin}` }],
      manifest: { interface: { displayName: `${plugin} (${name})`, shortDescription: `The ${plugin} plugin`, longDescription: LONG, defaultPrompt: [`Use ${plugin} now`], screenshots: [`./${SCREENSHOT}.png`] } },
      entry: { category: 'Productivity' },
      files: { [`${SCREENSHOT}.png`]: 'png' },
    })),
  });
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-plugin-pages-'));
  const executorHome = join(root, 'executor');
  const codexHome = join(executorHome, 'codex');
  const workspace = join(root, 'workspace');
  const markets = { team: join(root, 'market-team'), spare: join(root, 'market-spare') };
  await Promise.all([codexHome, join(root, 'home'), workspace].map((dir) => mkdir(dir, { recursive: true })));
  await marketplace(markets.team, 'team', { notes: 'jot', tools: 'hammer' });
  await marketplace(markets.spare, 'spare', { diary: 'entry' });
  const model = await startScriptedModel({ script: Array.from({ length: 8 }, (_, i) => respond(say(`answer ${i + 1}`))) });
  // No [marketplaces] here: every marketplace of this file is added through the host protocol.
  await writeCodexConfig(codexHome, model.url, { config: { features: { plugins: true } } });
  const executor = startServe(['--executor-home', executorHome, '--workspace', workspace], { ...process.env, HOME: join(root, 'home'), WEWORK_DEVICE_ID: DEVICE });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  box = { root, executorHome, codexHome, workspace, markets, executor, model };
}, 120_000);

afterAll(async () => {
  await box?.executor.close();
  await box?.model.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

const { ok, refused } = typedHost(() => box.executor);

const installed = async () => (await ok('plugins/installed', {})).plugins;
const byId = async (pluginId: string) => (await installed()).find((plugin) => plugin.pluginId === pluginId);
/** The `inventory/changed` params so far, each checked to carry its stream `seq` and shown without it. */
const changes = (): ReadonlyArray<unknown> =>
  box.executor.notifications('inventory/changed').map((note) => {
    const { seq, ...params } = note.params as { readonly seq?: unknown };
    expect(seq).toEqual(expect.any(Number));
    return params;
  });
const home = (): string => JSON.stringify(treeLines(box.executorHome));
const configPlugins = (): ReadonlyArray<string> => Object.keys((parseToml(readFileSync(join(box.codexHome, 'config.toml'), 'utf8')) as { plugins?: object }).plugins ?? {}).sort();

/** The developer messages of model request `index` that hand a mentioned plugin's capabilities to the model. */
const capabilityBlocks = (index: number): ReadonlyArray<string> =>
  inputItems(box.model.requests[index] ?? { body: null })
    .filter((item) => item['role'] === 'developer')
    .map((item) => contentText(item['content']))
    .filter((text) => text.includes('Capabilities from the'));

/** Sends `markdown` in `taskId`; answers the index of the model request the turn made. */
async function turn(taskId: string, markdown: string): Promise<number> {
  const before = box.model.requests.length;
  expect(await ok('message/send', { taskId, markdown })).toMatchObject({ status: 'completed' });
  expect(box.model.requests.length).toBe(before + 1);
  return before;
}
const skillsOf = (index: number): ReadonlyArray<string> => skillsAvailable(box.model.requests[index] ?? { body: null }).map((skill) => skill.name);

describe('the plugin pages, one journey through the host protocol', () => {
  it('adds a local marketplace directory, lists it, opens its catalog (projected) and reads a plugin', async () => {
    expect(await ok('marketplaces/list', {})).toEqual({ marketplaces: [], welcome: true });
    const added = await ok('marketplaces/add', { source: box.markets.team });
    expect(added).toEqual({ alreadyAdded: false, marketplace: { name: 'team', kind: 'local', source: box.markets.team, displayName: 'team shelf', editable: true } });
    expect(await ok('marketplaces/list', {})).toEqual({ welcome: false, marketplaces: [added.marketplace] });

    const catalog = await ok('plugins/catalog', { marketplace: 'team' });
    expect(catalog.plugins.map((plugin) => [plugin.pluginId, plugin.installed, plugin.enabled])).toEqual([
      ['notes@team', false, false],
      ['tools@team', false, false],
    ]);
    expect(catalog.plugins[0]).toMatchObject({ name: 'notes', marketplace: 'team', displayName: 'notes (team)', shortDescription: 'The notes plugin', version: '3.1.0', defaultPrompts: ['Use notes now'] });
    // Projected before it crossed the connection: the raw answer carries no long description or screenshot.
    const raw = JSON.stringify(await box.executor.request('plugins/catalog', { marketplace: 'team' }));
    expect(raw).not.toContain(LONG);
    expect(raw).not.toContain(SCREENSHOT);
    expect(raw).not.toContain('longDescription');

    const { plugin } = await ok('plugins/read', { marketplace: 'team', plugin: 'notes' });
    expect(plugin.summary).toEqual(catalog.plugins[0]);
    expect(plugin.description).toBe('notes of team');
    expect(plugin.longDescription).toBe(LONG);
    expect(plugin.skills.map((skill) => skill.name)).toEqual(['notes:jot']);
    expect(changes()).toEqual([]);
  });

  it('installs it from the marketplace: plugins/installed has it ok and enabled, inventory/changed was notified, the catalog shows it installed', async () => {
    expect(await ok('plugins/install', { marketplace: 'team', plugin: 'notes' })).toEqual({
      plugin: { pluginId: 'notes@team', name: 'notes', marketplace: 'team', installed: true, enabled: true, description: null },
    });
    expect(changes()).toEqual([{ change: 'installed', pluginId: 'notes@team' }]);
    await ok('plugins/install', { marketplace: 'team', plugin: 'tools' });
    expect(changes()).toEqual([
      { change: 'installed', pluginId: 'notes@team' },
      { change: 'installed', pluginId: 'tools@team' },
    ]);
    const inventory = await ok('plugins/installed', {});
    expect(inventory).toMatchObject({ deviceId: DEVICE, fromSnapshot: false });
    expect(inventory.plugins.map((entry) => [entry.pluginId, entry.source, entry.enabled, entry.status.kind]).sort()).toEqual([
      ['notes@team', 'custom', true, 'ok'],
      ['tools@team', 'custom', true, 'ok'],
    ]);
    expect((await ok('plugins/catalog', { marketplace: 'team' })).plugins.map((entry) => [entry.pluginId, entry.installed, entry.enabled])).toEqual([
      ['notes@team', true, true],
      ['tools@team', true, true],
    ]);
  });

  it('a new task mentioning the plugin hands its capabilities to the model', async () => {
    expect(await ok('task/create', { taskId: 'journey', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } })).toMatchObject({ task: { taskId: 'journey' } });
    const request = await turn('journey', 'Use [@notes](plugin://notes@team) to jot the plan down');
    expect(capabilityBlocks(request)).toEqual([expect.stringContaining('Capabilities from the `notes (team)` plugin')]);
    expect(capabilityBlocks(request)[0]).toContain('prefixed with `notes:`');
    expect(skillsOf(request)).toEqual(expect.arrayContaining(['notes:jot', 'tools:hammer']));
  });

  it('switched off, the next turn no longer sees it', async () => {
    const before = changes().length;
    expect(await ok('plugins/setEnabled', { pluginId: 'notes@team', enabled: false })).toEqual({});
    expect(changes().slice(before)).toEqual([{ change: 'pluginEnabled', pluginId: 'notes@team' }]);
    expect(await byId('notes@team')).toMatchObject({ enabled: false });
    const request = await turn('journey', 'And now with [@notes](plugin://notes@team)?');
    expect(skillsOf(request)).not.toContain('notes:jot');
    expect(skillsOf(request)).toContain('tools:hammer');
    // Only the first turn's capability message, kept in the conversation's history; none for this turn's mention.
    expect(capabilityBlocks(request)).toEqual(capabilityBlocks(request - 1));
  });

  it('uninstalled, it leaves the inventory; the task’s chat and the second plugin remain', async () => {
    const before = changes().length;
    expect(await ok('plugins/uninstall', { pluginId: 'notes@team' })).toEqual({});
    expect(changes().slice(before)).toEqual([{ change: 'uninstalled', pluginId: 'notes@team' }]);
    expect((await installed()).map((entry) => [entry.pluginId, entry.enabled, entry.status.kind])).toEqual([['tools@team', true, 'ok']]);
    expect(configPlugins()).toEqual(['tools@team']);
    expect((await ok('plugins/catalog', { marketplace: 'team' })).plugins.map((entry) => [entry.pluginId, entry.installed])).toEqual([
      ['notes@team', false],
      ['tools@team', true],
    ]);

    // The chat remains: the task is still listed, its transcript was streamed, and its thread, opened again
    // (as a host does with the record it keeps), carries the earlier messages into the next turn.
    const { tasks } = await ok('task/list', {});
    const record = tasks.find((task) => task.taskId === 'journey');
    expect(record).toMatchObject({ archived: false });
    const transcript = box.executor.notifications('transcript/turnCompleted').filter((note) => (note.params as { taskId: string }).taskId === 'journey');
    expect(transcript).toHaveLength(2);
    if (record === undefined) throw new Error('the task is gone');
    expect(await refused('task/open', { task: record })).toMatchObject({ code: HostErrorCode.TaskConflict, tag: 'TaskExists' }); // already open in this executor
    expect(await ok('task/open', { task: { ...record, taskId: 'journey-reopened' } })).toMatchObject({ task: { taskId: 'journey-reopened', threadId: record.threadId } });
    const request = await turn('journey-reopened', 'Is the plan still here?');
    const said = userMessages(box.model.requests[request] ?? { body: null });
    expect(said.some((text) => text.includes('to jot the plan down'))).toBe(true);
    expect(said.some((text) => text.includes('Is the plan still here?'))).toBe(true);
    expect(skillsOf(request)).not.toContain('notes:jot');
    expect(skillsOf(request)).toContain('tools:hammer');
  });

  it('marketplaces/remove of a marketplace whose plugin is installed: Codex keeps the plugin, the inventory shows it repairRequired', async () => {
    await ok('marketplaces/add', { source: box.markets.spare });
    await ok('plugins/install', { marketplace: 'spare', plugin: 'diary' });
    expect(await byId('diary@spare')).toMatchObject({ enabled: true, status: { kind: 'ok' } });
    const before = changes().length;
    const cache = join(box.codexHome, 'plugins/cache/spare/diary');
    expect(treeLines(cache).length).toBeGreaterThan(0);

    expect(await ok('marketplaces/remove', { name: 'spare' })).toEqual({});
    expect((await ok('marketplaces/list', {})).marketplaces.map((entry) => entry.name)).toEqual(['team']);
    // Codex removes only the [marketplaces.spare] entry: the plugin's config entry and its installed copy stay.
    expect(configPlugins()).toEqual(['diary@spare', 'tools@team']);
    expect(treeLines(cache).length).toBeGreaterThan(0);
    expect(await byId('diary@spare')).toMatchObject({ source: 'custom', status: { kind: 'repairRequired', reason: 'MarketplaceUnavailable' } });
    expect(await byId('tools@team')).toMatchObject({ enabled: true, status: { kind: 'ok' } });
    // The inventory changed with the removal (the plugin needs repair), so hosts are told.
    expect(changes().slice(before)).toEqual([{ change: 'marketplaceRemoved', pluginId: null }]);
    // Its catalog is gone; the stranded plugin can still be uninstalled by identity.
    expect(await refused('plugins/catalog', { marketplace: 'spare' })).toMatchObject({ code: HostErrorCode.MarketplaceNotFound });
    expect(await ok('plugins/uninstall', { pluginId: 'diary@spare' })).toEqual({});
    expect(await byId('diary@spare')).toBeUndefined();
    expect(configPlugins()).toEqual(['tools@team']);
  });

  it('the management view’s app switch: an app of an installed plugin is switched off and on, each time with inventory/changed', async () => {
    const pkg = join(box.root, 'cloud-package');
    await mkdir(join(pkg, '.codex-plugin'), { recursive: true });
    await mkdir(join(pkg, 'skills/plan'), { recursive: true });
    await writeFile(join(pkg, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'planner', version: '1.0.0', description: 'Plans', skills: './skills/', apps: './.app.json' }));
    await writeFile(join(pkg, '.app.json'), JSON.stringify({ apps: { calendar: { id: 'calendar' } } }));
    await writeFile(join(pkg, 'skills/plan/SKILL.md'), '---\nname: plan\ndescription: Plans the week\n---\n\nPlan it.\n');
    await ok('plugins/install', { marketplace: 'wegent', plugin: 'planner', version: '1.0.0', packagePath: pkg });
    expect(await byId('planner@wegent')).toMatchObject({ source: 'cloud', apps: [{ id: 'calendar', enabled: true }] });
    const before = changes().length;
    expect(await ok('apps/setEnabled', { id: 'calendar', enabled: false })).toEqual({});
    expect(changes().slice(before)).toEqual([{ change: 'appEnabled', pluginId: 'planner@wegent' }]);
    expect(await byId('planner@wegent')).toMatchObject({ apps: [{ id: 'calendar', enabled: false }] });
    expect((parseToml(readFileSync(join(box.codexHome, 'config.toml'), 'utf8')) as { apps?: Record<string, unknown> }).apps).toEqual({ calendar: { enabled: false } });
    expect(await ok('apps/setEnabled', { id: 'calendar', enabled: true })).toEqual({});
    expect(changes().slice(before)).toEqual([
      { change: 'appEnabled', pluginId: 'planner@wegent' },
      { change: 'appEnabled', pluginId: 'planner@wegent' },
    ]);
    expect(await byId('planner@wegent')).toMatchObject({ apps: [{ id: 'calendar', enabled: true }] });
    expect(await ok('plugins/uninstall', { pluginId: 'planner@wegent' })).toEqual({});
    expect(await byId('planner@wegent')).toBeUndefined();
  });

  it('every new method rejects a wrong-typed param with -32602 and changes nothing', async () => {
    const before = home();
    const notes = changes().length;
    for (const [method, params] of [
      ['marketplaces/list', ['not', 'an', 'object']],
      ['marketplaces/add', { source: 7 }],
      ['marketplaces/add', { source: box.markets.team, name: 7 }],
      ['marketplaces/add', { source: box.markets.team, refName: false }],
      ['marketplaces/remove', { name: 7 }],
      ['marketplaces/reorder', { names: [7] }],
      ['marketplaces/refresh', { name: true }],
      ['plugins/catalog', { marketplace: 7 }],
      ['plugins/read', { marketplace: 'team', plugin: 7 }],
      ['plugins/install', { marketplace: 'team', plugin: 7 }],
      ['plugins/installed', ['not', 'an', 'object']],
      ['plugins/uninstall', { pluginId: 7 }],
      ['plugins/setEnabled', { pluginId: 'tools@team', enabled: 'no' }],
      ['skills/setEnabled', { name: 'tools:hammer', enabled: 'no' }],
      ['skills/setEnabled', { path: 7, enabled: false }],
      ['apps/setEnabled', { id: 7, enabled: false }],
      ['integrations/apps/read', ['not', 'an', 'object']],
      ['integrations/apps/write', { enabled: 'off' }],
      ['plugins/trial', { plugin: 'tools', marketplace: 'team', deviceId: 7 }],
    ] as const) {
      expect({ method, answer: await box.executor.request(method, params) }).toMatchObject({ method, answer: { error: { code: HostErrorCode.InvalidParams } } });
    }
    expect(home()).toBe(before);
    expect(changes()).toHaveLength(notes);
  });

  it('unknown identities are typed errors; a refused install changes no byte of the executor home, Codex home or config.toml', async () => {
    const before = home();
    const config = readFileSync(join(box.codexHome, 'config.toml'));
    const notes = changes().length;
    const table: ReadonlyArray<readonly [() => Promise<{ readonly code: number; readonly tag: unknown }>, number, string]> = [
      [() => refused('marketplaces/remove', { name: 'ghost' }), HostErrorCode.MarketplaceNotFound, 'MarketplaceNotFound'],
      [() => refused('marketplaces/refresh', { name: 'ghost' }), HostErrorCode.MarketplaceNotFound, 'MarketplaceNotFound'],
      [() => refused('plugins/catalog', { marketplace: 'ghost' }), HostErrorCode.MarketplaceNotFound, 'MarketplaceNotFound'],
      [() => refused('plugins/read', { marketplace: 'team', plugin: 'ghost' }), HostErrorCode.CatalogPluginNotFound, 'CatalogPluginNotFound'],
      [() => refused('plugins/install', { marketplace: 'ghost', plugin: 'tools' }), HostErrorCode.MarketplaceNotFound, 'MarketplaceNotFound'],
      [() => refused('plugins/install', { marketplace: 'team', plugin: 'ghost' }), HostErrorCode.PluginNotFound, 'PluginNotFound'],
      [() => refused('plugins/install', { marketplace: 'spare', plugin: 'diary' }), HostErrorCode.MarketplaceNotFound, 'MarketplaceNotFound'],
      [() => refused('plugins/uninstall', { pluginId: 'notes@team' }), HostErrorCode.PluginNotFound, 'PluginNotFound'],
      [() => refused('plugins/uninstall', { pluginId: 'tools@ghost' }), HostErrorCode.PluginNotFound, 'PluginNotFound'],
      [() => refused('plugins/setEnabled', { pluginId: 'notes@team', enabled: true }), HostErrorCode.PluginNotFound, 'PluginNotFound'],
      [() => refused('skills/setEnabled', { name: 'ghost:none', enabled: false }), HostErrorCode.SkillNotFound, 'SkillNotFound'],
      [() => refused('apps/setEnabled', { id: 'ghost', enabled: false }), HostErrorCode.AppNotFound, 'AppNotFound'],
    ];
    for (const [ask, code, tag] of table) expect(await ask()).toMatchObject({ code, tag });
    expect(home()).toBe(before);
    expect(readFileSync(join(box.codexHome, 'config.toml')).equals(config)).toBe(true);
    expect(changes()).toHaveLength(notes);
  });
});
