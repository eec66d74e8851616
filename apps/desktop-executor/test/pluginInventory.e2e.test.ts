/**
 * The one installed inventory through the host protocol of the real executor process (its real
 * app-server, a scripted model): plugins of local marketplaces installed with `plugins/install`, listed
 * by `plugins/installed`, reaching a new task's turn, switched off and on, uninstalled by identity (the
 * same plugin name in another marketplace untouched), the Wework personal marketplace's local copy
 * removed with its manifest deleted, the remote Apps / Connectors switch, `plugins/trial`'s three
 * answers, the durable snapshot, `inventory/changed` after each mutation, and refusals that write nothing.
 *
 * The marketplaces are added through the host protocol (`marketplaces/add` of each local directory, two of
 * them offering a plugin of the same name), as a host adds them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResultOf } from '@wework/host-protocol';
import { parse as parseMarkdown } from '@wework/mention-serializer';
import { contentText, inputItems, respond, say, skillsAvailable, userMessages } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { addFixturePlugin, until, writeCodexConfig, writeLocalMarketplace } from '@wework/test-support';
import { startServe, typedHost, type ServeAnswer, type ServeProcess } from './support/serveProcess.js';
import { treeLines } from './support/treeLines.js';

const DEVICE = 'device-under-test';
const LONG = 'LONG-DESCRIPTION-never-persisted';
const SCREENSHOT = 'screenshot-never-persisted.png';

interface Box {
  readonly root: string;
  readonly executorHome: string;
  readonly codexHome: string;
  readonly markets: { readonly alpha: string; readonly beta: string; readonly personal: string };
  readonly executor: ServeProcess;
  readonly model: ScriptedModel;
}
let box: Box;

/** Writes a local marketplace `name` in `dir` with pure-skill plugins `{ plugin: skill }`. */
async function marketplace(dir: string, name: string, plugins: Readonly<Record<string, string>>): Promise<void> {
  await writeLocalMarketplace(dir, {
    name,
    plugins: Object.entries(plugins).map(([plugin, skill]) => ({
      name: plugin,
      description: `${plugin} of ${name}`,
      skills: [{ name: skill, description: `The ${skill} skill of ${plugin} in ${name}` }],
      manifest: { interface: { displayName: `${plugin} (${name})`, shortDescription: `The ${plugin} plugin`, longDescription: LONG, defaultPrompt: [`Use ${plugin} for today`], screenshots: [`./${SCREENSHOT}`] } },
      files: { [SCREENSHOT]: 'png' },
    })),
  });
}

/** A QR login bridge that is never logged in; a login never completes by itself. */
const BRIDGE = `#!/usr/bin/env node
const print = (status) => process.stdout.write(JSON.stringify(status) + '\\n');
const command = process.argv[2];
if (command === 'health') print({ status: 'needs_login' });
else if (command === 'start' || command === 'poll') print({ status: 'pending', qr: { payload: 'https://login.example.com/qr/chat' } });
`;

/** Adds plugin `chat` to the marketplace in `dir`: a connector with `localAuth` and `authPolicy: on_install`. */
async function addAuthPlugin(dir: string): Promise<void> {
  const qr = { type: 'local_qr', authPolicy: 'on_install', health: ['bin/bridge.mjs', 'health'], start: ['bin/bridge.mjs', 'start'], poll: ['bin/bridge.mjs', 'poll'] };
  await addFixturePlugin(dir, {
    name: 'chat',
    description: 'Team chat',
    skills: [{ name: 'post', description: 'Posts to the team chat', body: 'Post it.' }],
    manifest: { connectors: [{ slug: 'team-chat', localAuth: qr }] },
    files: { 'bin/bridge.mjs': { text: BRIDGE, mode: 0o755 } },
  });
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-inventory-'));
  const executorHome = join(root, 'executor');
  const codexHome = join(executorHome, 'codex');
  const markets = { alpha: join(root, 'market-alpha'), beta: join(root, 'market-beta'), personal: join(root, 'market-personal') };
  await Promise.all([codexHome, join(root, 'home'), join(root, 'workspace')].map((dir) => mkdir(dir, { recursive: true })));
  await marketplace(markets.alpha, 'alpha', { notes: 'jot', tools: 'hammer' });
  await addAuthPlugin(markets.alpha);
  await marketplace(markets.beta, 'beta', { notes: 'scribble' });
  await marketplace(markets.personal, 'wework-personal', { diary: 'entry' });
  const model = await startScriptedModel({ script: Array.from({ length: 12 }, (_, i) => respond(say(`answer ${i + 1}`))) });
  await writeCodexConfig(codexHome, model.url, { config: { features: { plugins: true } } });
  const executor = startServe(['--executor-home', executorHome, '--workspace', join(root, 'workspace')], { ...process.env, HOME: join(root, 'home'), WEWORK_DEVICE_ID: DEVICE });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  for (const [name, dir] of [['alpha', markets.alpha], ['beta', markets.beta], ['wework-personal', markets.personal]] as const) {
    expect(await executor.request('marketplaces/add', { source: dir }, 90_000)).toMatchObject({ result: { alreadyAdded: false, marketplace: { name, kind: 'local', source: dir } } });
  }
  box = { root, executorHome, codexHome, markets, executor, model };
}, 120_000);

afterAll(async () => {
  await box?.executor.close();
  await box?.model.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

/** Typed requests: every result is decoded with its method's codec, so an answer that does not fit the protocol fails the test. */
const host = typedHost(() => box.executor);
/** A raw request, for the error replies and the malformed params (which the typed requests cannot send). */
const call = (method: string, params: object): Promise<ServeAnswer> => box.executor.request(method, params, 90_000);

type Installed = HostResultOf<'plugins/installed'>['plugins'][number];
const installed = async (): Promise<ReadonlyArray<Installed>> => (await host.ok('plugins/installed', {})).plugins;
const byId = async (pluginId: string): Promise<Installed | undefined> => (await installed()).find((plugin) => plugin.pluginId === pluginId);
// Each carries the event stream's `seq` (checked here); the assertions below are about the rest of its params.
const changes = (): ReadonlyArray<unknown> =>
  box.executor.notifications('inventory/changed').map((note) => {
    const { seq, ...params } = note.params as { readonly seq?: unknown };
    expect(seq).toEqual(expect.any(Number));
    return params;
  });

/** The developer messages of request `index` that hand a mentioned plugin's capabilities to the model. */
const capabilityBlocks = (index: number): ReadonlyArray<string> =>
  inputItems(box.model.requests[index] ?? { body: null })
    .filter((item) => item['role'] === 'developer')
    .map((item) => contentText(item['content']))
    .filter((text) => text.includes('Capabilities from the'));

let turns = 0;
/** Sends a message in the task and answers the skills the model saw in that request. */
async function turn(markdown: string): Promise<ReadonlyArray<string>> {
  expect(await host.ok('message/send', { taskId: 'task-1', markdown })).toMatchObject({ status: 'completed' });
  return skillsAvailable(box.model.requests[turns++] ?? { body: null }).map((skill) => skill.name);
}

/** Every byte of the executor home (its Codex home and config.toml, marketplace order, inventory snapshot and receipts included). */
const codexTree = (): string => JSON.stringify(treeLines(box.executorHome));

describe('the installed inventory through the host protocol', () => {
  it('rejects bad params with -32602 and unknown identities with typed errors; a refused install writes nothing', async () => {
    for (const [method, params] of [
      ['plugins/install', { marketplace: 'alpha' }],
      ['plugins/install', { marketplace: 'alpha', plugin: 'notes', version: '1.0.0' }],
      ['plugins/setEnabled', { pluginId: 'notes@alpha', enabled: 'yes' }],
      ['skills/setEnabled', { enabled: true }],
      ['apps/setEnabled', { id: 'x' }],
      ['integrations/apps/write', {}],
      ['plugins/trial', { plugin: 'notes', marketplace: 'alpha' }],
    ] as const) {
      expect(await call(method, params)).toMatchObject({ error: { code: -32602 } });
    }
    // The host reads the inventory when it opens the pages; that first read writes the durable snapshot
    // (a request that is then refused would write it too). From then on a refusal changes no byte.
    expect(await installed()).toEqual([]);
    const before = codexTree();
    expect(await call('plugins/install', { marketplace: 'nowhere', plugin: 'notes' })).toMatchObject({ error: { code: -32020, data: { tag: 'MarketplaceNotFound' } } });
    expect(await call('plugins/install', { marketplace: 'alpha', plugin: 'missing' })).toMatchObject({ error: { code: -32025, data: { tag: 'PluginNotFound' } } });
    expect(await call('plugins/install', { marketplace: 'alpha', plugin: 'not a name' })).toMatchObject({ error: { code: -32025 } });
    expect(codexTree()).toBe(before);
    expect(await call('plugins/uninstall', { pluginId: 'ghost@alpha' })).toMatchObject({ error: { code: -32025, data: { tag: 'PluginNotFound' } } });
    expect(await call('plugins/setEnabled', { pluginId: 'ghost@alpha', enabled: false })).toMatchObject({ error: { code: -32025 } });
    expect(await call('skills/setEnabled', { name: 'ghost:none', enabled: false })).toMatchObject({ error: { code: -32026, data: { tag: 'SkillNotFound' } } });
    expect(await call('apps/setEnabled', { id: 'ghost', enabled: false })).toMatchObject({ error: { code: -32027, data: { tag: 'AppNotFound' } } });
    expect(codexTree()).toBe(before);
    expect(changes()).toEqual([]);
  });

  it('an on_install login cancelled by the person refuses the marketplace install before Codex writes anything', async () => {
    const before = codexTree();
    const marketBefore = JSON.stringify(treeLines(box.markets.alpha));
    const installing = call('plugins/install', { marketplace: 'alpha', plugin: 'chat' });
    const waiting = await until('the login session waiting for its QR scan', () => box.executor.notifications('auth/session').find((note) => (note.params as { state: string }).state === 'waiting_scan'), 30_000);
    const session = waiting.params as { sessionId: string; pluginKey: string; reason: string; qr: { payload: string } };
    expect(session).toMatchObject({ pluginKey: 'chat@alpha', reason: 'install', qr: { payload: 'https://login.example.com/qr/chat' } });
    expect(await host.ok('auth/cancel', { sessionId: session.sessionId })).toEqual({});
    expect(await installing).toMatchObject({ error: { code: -32028, data: { tag: 'InstallRefused' } } });
    expect(codexTree()).toBe(before);
    expect(JSON.stringify(treeLines(box.markets.alpha))).toBe(marketBefore);
    expect(changes()).toEqual([]);
  });

  it('installs from local marketplaces: plugins/installed lists them, a new task mentioning one reaches the model with its skill', async () => {
    expect(await host.ok('plugins/trial', { plugin: 'notes', marketplace: 'alpha', deviceId: DEVICE })).toEqual({ kind: 'needsInstall', pluginId: 'notes@alpha', reason: 'missing' });
    expect(await host.ok('plugins/install', { marketplace: 'alpha', plugin: 'notes' })).toEqual({
      plugin: { pluginId: 'notes@alpha', name: 'notes', marketplace: 'alpha', installed: true, enabled: true, description: null },
    });
    expect(changes()).toEqual([{ change: 'installed', pluginId: 'notes@alpha' }]);
    for (const [marketplace, plugin] of [['alpha', 'tools'], ['beta', 'notes'], ['wework-personal', 'diary']] as const) await host.ok('plugins/install', { marketplace, plugin });
    expect(changes()).toHaveLength(4);

    const inventory = await host.ok('plugins/installed', {});
    expect(inventory.deviceId).toBe(DEVICE);
    expect(inventory.fromSnapshot).toBe(false);
    expect(inventory.plugins.map((plugin) => [plugin.pluginId, plugin.source, plugin.enabled, plugin.status.kind]).sort()).toEqual([
      ['diary@wework-personal', 'personal', true, 'ok'],
      ['notes@alpha', 'custom', true, 'ok'],
      ['notes@beta', 'custom', true, 'ok'],
      ['tools@alpha', 'custom', true, 'ok'],
    ]);
    const notes = inventory.plugins.find((plugin) => plugin.pluginId === 'notes@alpha');
    expect(notes?.defaultPrompt).toEqual(['Use notes for today']);
    expect(notes?.skills.map((skill) => skill.name)).toEqual(['notes:jot']);

    expect(await host.ok('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: join(box.root, 'workspace') } })).toMatchObject({ task: { taskId: 'task-1' } });
    const skills = await turn('Use [@notes](plugin://notes@alpha) to jot this down');
    expect(skills).toEqual(expect.arrayContaining(['notes:jot', 'notes:scribble', 'tools:hammer', 'diary:entry']));
    // The mention reached the model as the plugin's capabilities (Codex's developer message for a mentioned plugin).
    expect(capabilityBlocks(0)).toEqual([expect.stringContaining('Capabilities from the `notes (alpha)` plugin')]);
    expect(capabilityBlocks(0)[0]).toContain('prefixed with `notes:`');
  });

  it('the durable snapshot keeps presentation, recovery fields and default prompts, never long descriptions or screenshots', async () => {
    const text = readFileSync(join(box.executorHome, 'plugin-inventory', 'snapshot.json'), 'utf8');
    const snapshot = JSON.parse(text) as { version: number; plugins: ReadonlyArray<Record<string, unknown>> };
    expect(snapshot.version).toBe(1);
    expect(snapshot.plugins.map((plugin) => plugin['ref']).sort()).toEqual(['plugin://diary@wework-personal', 'plugin://notes@alpha', 'plugin://notes@beta', 'plugin://tools@alpha']);
    expect(snapshot.plugins.find((plugin) => plugin['ref'] === 'plugin://notes@alpha')).toMatchObject({ displayName: 'notes (alpha)', defaultPrompt: ['Use notes for today'] });
    expect(text).not.toContain(LONG);
    expect(text).not.toContain(SCREENSHOT);
    expect(text).not.toContain('longDescription');
  });

  it('plugins/trial: ready with exactly one plugin mention and the default prompt on this device; another device and failures never install', async () => {
    const ready = await host.ok('plugins/trial', { plugin: 'notes', marketplace: 'alpha', deviceId: DEVICE });
    expect(ready).toEqual({ kind: 'ready', pluginId: 'notes@alpha', draft: { markdown: '[@notes](plugin://notes@alpha) Use notes for today', defaultPrompt: 'Use notes for today' } });
    if (ready.kind !== 'ready') throw new Error(`plugins/trial answered ${ready.kind}`);
    expect(parseMarkdown(ready.draft.markdown).filter((segment) => segment._tag === 'Mention')).toEqual([
      { _tag: 'Mention', kind: 'plugin', name: 'notes', pluginName: 'notes', marketplaceName: 'alpha' },
    ]);
    expect(await host.ok('plugins/trial', { plugin: 'notes', marketplace: 'alpha', deviceId: 'another-device' })).toEqual({ kind: 'needsInstall', pluginId: 'notes@alpha', reason: 'otherDevice' });
    expect(await host.ok('plugins/trial', { plugin: 'notes', marketplace: 'gamma', deviceId: DEVICE })).toEqual({ kind: 'needsInstall', pluginId: 'notes@gamma', reason: 'missing' });

    // An inventory that cannot be read (config.toml broken, so Codex cannot load its configuration) fails the trial; nothing is installed.
    const config = join(box.codexHome, 'config.toml');
    const saved = readFileSync(config);
    const before = codexTree();
    await writeFile(config, 'this is [not toml');
    try {
      expect(await host.ok('plugins/trial', { plugin: 'notes', marketplace: 'alpha', deviceId: DEVICE })).toEqual({
        kind: 'failed',
        message: 'Could not check plugin installation on the target device. Try again.',
      });
    } finally {
      await writeFile(config, saved);
    }
    expect(codexTree()).toBe(before);
    expect(await host.ok('plugins/trial', { plugin: 'notes', marketplace: 'alpha', deviceId: DEVICE })).toMatchObject({ kind: 'ready' });
  });

  it('disabling a plugin removes it from the model’s view on the next turn; a skill switch reloads in place', async () => {
    const before = changes().length;
    const statusesBefore = box.executor.notifications('runtime/status').length;
    expect(await host.ok('plugins/setEnabled', { pluginId: 'notes@alpha', enabled: false })).toEqual({});
    expect(changes().slice(before)).toEqual([{ change: 'pluginEnabled', pluginId: 'notes@alpha' }]);
    // A whole-plugin toggle follows the invalidation policy: the app-server was restarted.
    expect(box.executor.notifications('runtime/status').slice(statusesBefore).map((note) => (note.params as { state: string }).state)).toEqual(['starting', 'ready']);
    expect((await byId('notes@alpha'))?.enabled).toBe(false);
    expect(await host.ok('plugins/trial', { plugin: 'notes', marketplace: 'alpha', deviceId: DEVICE })).toMatchObject({ kind: 'needsInstall', reason: 'disabled' });
    const skills = await turn('And now, with [@notes](plugin://notes@alpha)?');
    expect(skills).not.toContain('notes:jot');
    expect(capabilityBlocks(turns - 1).filter((text) => text.includes('notes (alpha)'))).toHaveLength(1); // only the first turn's, kept in the history
    expect(skills).toEqual(expect.arrayContaining(['notes:scribble', 'tools:hammer']));

    const hammerPath = (await byId('tools@alpha'))?.skills.find((skill) => skill.name === 'tools:hammer')?.path;
    if (typeof hammerPath !== 'string') throw new Error('the skill tools:hammer has no path');
    const statuses = box.executor.notifications('runtime/status').length;
    expect(await host.ok('skills/setEnabled', { path: hammerPath, enabled: false })).toEqual({ effectiveEnabled: false });
    expect(changes().at(-1)).toEqual({ change: 'skillEnabled', pluginId: 'tools@alpha' });
    expect(await turn('Without the hammer?')).not.toContain('tools:hammer');
    expect(await host.ok('skills/setEnabled', { path: hammerPath, enabled: true })).toEqual({ effectiveEnabled: true });
    expect(await turn('With the hammer again?')).toContain('tools:hammer');
    expect(await byId('tools@alpha')).toMatchObject({ skills: [{ name: 'tools:hammer', path: hammerPath, enabled: true }] });
    // Reloaded in place: the app-server was not restarted for the skill switches.
    expect(box.executor.notifications('runtime/status').length).toBe(statuses);
  });

  it('the same plugin name in two marketplaces: uninstalling one leaves the other installed and enabled', async () => {
    await host.ok('plugins/setEnabled', { pluginId: 'notes@alpha', enabled: true });
    const before = changes().length;
    expect(await host.ok('plugins/uninstall', { pluginId: 'notes@beta' })).toEqual({});
    expect(changes().slice(before)).toEqual([{ change: 'uninstalled', pluginId: 'notes@beta' }]);
    expect(await byId('notes@beta')).toBeUndefined();
    expect(await byId('notes@alpha')).toMatchObject({ enabled: true, status: { kind: 'ok' } });
    const skills = await turn('Which notes?');
    expect(skills).toContain('notes:jot');
    expect(skills).not.toContain('notes:scribble');
  });

  it('uninstalling removes the plugin while the task’s chat and the other plugins remain', async () => {
    expect(await host.ok('plugins/uninstall', { pluginId: 'notes@alpha' })).toEqual({});
    expect(await byId('notes@alpha')).toBeUndefined();
    expect(await host.ok('task/list', {})).toMatchObject({ tasks: [{ taskId: 'task-1' }] });
    const skills = await turn('Still there?');
    expect(skills).not.toContain('notes:jot');
    expect(skills).toContain('tools:hammer');
    // One conversation: the last request carries the earlier messages of the task.
    expect(userMessages(box.model.requests[turns - 1] ?? { body: null }).some((text) => text.includes('to jot this down'))).toBe(true);
  });

  it('the Wework personal marketplace: uninstalled by identity with its manifest path deleted, removing only its config and cache', async () => {
    await rm(box.markets.personal, { recursive: true, force: true });
    expect(await byId('diary@wework-personal')).toMatchObject({ source: 'personal', status: { kind: 'repairRequired', reason: 'MarketplaceUnavailable' } });
    const configBefore = parseToml(readFileSync(join(box.codexHome, 'config.toml'), 'utf8')) as { plugins: Record<string, unknown> };
    expect(Object.keys(configBefore.plugins).sort()).toEqual(['diary@wework-personal', 'tools@alpha']);
    const keep = (): ReadonlyArray<string> => treeLines(box.executorHome).filter((line) => !line.startsWith('codex/config.toml') && !line.startsWith('codex/plugins/cache/wework-personal') && !line.startsWith('plugin-inventory/'));
    const kept = keep();
    expect(kept.some((line) => line.startsWith('codex/plugins/cache/alpha/tools'))).toBe(true);
    const diaryCache = join(box.codexHome, 'plugins/cache/wework-personal/diary');
    expect(existsSync(diaryCache)).toBe(true);

    expect(await host.ok('plugins/uninstall', { pluginId: 'diary@wework-personal' })).toEqual({});
    expect(changes().at(-1)).toEqual({ change: 'uninstalled', pluginId: 'diary@wework-personal' });
    expect(existsSync(diaryCache)).toBe(false);
    const configAfter = parseToml(readFileSync(join(box.codexHome, 'config.toml'), 'utf8')) as { plugins: Record<string, unknown> };
    const { ['diary@wework-personal']: removed, ...others } = configBefore.plugins;
    expect(removed).toEqual({ enabled: true });
    expect(configAfter).toEqual({ ...configBefore, plugins: others });
    expect(keep()).toEqual(kept);
    expect(await byId('diary@wework-personal')).toBeUndefined();
    expect(await turn('And the diary?')).not.toContain('diary:entry');
  });

  it('a Wegent cloud plugin is part of the same inventory, and is uninstalled by identity through the sync', async () => {
    const pkg = join(box.root, 'cloud-package');
    await mkdir(join(pkg, '.codex-plugin'), { recursive: true });
    await mkdir(join(pkg, 'skills/standup'), { recursive: true });
    await writeFile(join(pkg, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'team-skills', version: '1.0.0', description: 'Team rituals', skills: './skills/', interface: { displayName: 'Team skills', defaultPrompt: ['Run the stand-up'] } }));
    await writeFile(join(pkg, 'skills/standup/SKILL.md'), '---\nname: standup\ndescription: Daily stand-up\n---\n\nList yesterday, today, blockers.\n');
    expect(await host.ok('plugins/install', { marketplace: 'wegent', plugin: 'team-skills', version: '1.0.0', packagePath: pkg })).toMatchObject({ plugin: { pluginId: 'team-skills@wegent', installed: true } });
    expect(changes().at(-1)).toEqual({ change: 'installed', pluginId: 'team-skills@wegent' });
    expect(await byId('team-skills@wegent')).toMatchObject({ source: 'cloud', enabled: true, status: { kind: 'ok' }, skills: [{ name: 'team-skills:standup' }] });
    expect(await host.ok('plugins/trial', { plugin: 'team-skills', marketplace: 'wegent', deviceId: DEVICE })).toMatchObject({ kind: 'ready', draft: { markdown: '[@team-skills](plugin://team-skills@wegent) Run the stand-up' } });
    expect(await host.ok('plugins/uninstall', { pluginId: 'team-skills@wegent' })).toEqual({});
    expect(changes().at(-1)).toEqual({ change: 'uninstalled', pluginId: 'team-skills@wegent' });
    expect(await byId('team-skills@wegent')).toBeUndefined();
    expect(await host.ok('plugins/list', {})).toEqual({ plugins: [] });
  });

  it('the remote Apps / Connectors switch is readable and writable (features.apps)', async () => {
    expect(await host.ok('integrations/apps/read', {})).toEqual({ enabled: true });
    expect(await host.ok('integrations/apps/write', { enabled: false })).toEqual({ enabled: false });
    expect(changes().at(-1)).toEqual({ change: 'remoteApps', pluginId: null });
    expect(await host.ok('integrations/apps/read', {})).toEqual({ enabled: false });
    expect((parseToml(readFileSync(join(box.codexHome, 'config.toml'), 'utf8')) as { features: Record<string, unknown> }).features['apps']).toBe(false);
    expect(await turn('Apps off, still talking?')).toContain('tools:hammer');
  });
});
