/**
 * The plugin pages' marketplaces through the host protocol of the real executor process and its real
 * app-server, offline: a local marketplace made by the test is added (as a directory and as its
 * marketplace.json file), listed, its catalog opened (summaries without long descriptions) and a plugin
 * read (skills, connectors with their localAuth); a git marketplace served from a loopback HTTP server is
 * cloned into Codex's cache and still lists and reads with the server stopped and the repository
 * deleted; the order persists across an executor restart; the official marketplace cannot be removed
 * or reordered; bad params are -32602, unknown names typed errors, and a refusal changes nothing on
 * disk. After the restart Codex is signed in (a made-up ChatGPT login) with `chatgpt_base_url` on a
 * loopback catalog server: the official tab is read end to end, concurrent reads share one fetch and a
 * refresh refetches.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostErrorCode } from '@wework/host-protocol';
import { scriptedModelCodexConfig } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { chatgptAuthJson, TOKEN_CANARY } from '@wework/test-support';
import { writeLocalMarketplace } from '@wework/test-support';
import { startServe, typedHost, type ServeProcess } from './support/serveProcess.js';
import { treeLines } from './support/treeLines.js';

const LONG = 'LONG-DESCRIPTION-CANARY';
const SCREENSHOT = 'SCREENSHOT-CANARY';

interface Box {
  readonly root: string;
  readonly executorHome: string;
  readonly userHome: string;
  readonly workspace: string;
  readonly model: ScriptedModel;
  executor: ServeProcess;
}
let box: Box;
const servers: Server[] = [];

/** Serves `root` read-only over HTTP on 127.0.0.1 (git's "dumb" HTTP protocol needs nothing more). */
function staticServer(root: string): Promise<{ readonly server: Server; readonly url: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    readFile(join(root, path)).then(
      (bytes) => response.writeHead(200).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

/** A scripted ChatGPT plugin backend: the official catalog with one plugin; every request is counted by path. */
function catalogServer(): Promise<{ readonly server: Server; readonly url: string; readonly hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const linear = {
    id: 'plugins~Plugin_linear',
    name: 'linear',
    scope: 'GLOBAL',
    installation_policy: 'AVAILABLE',
    authentication_policy: 'ON_USE',
    status: 'AVAILABLE',
    release: {
      version: '2.0.0',
      display_name: 'Linear',
      description: 'Track issues',
      app_ids: [],
      keywords: ['issues'],
      interface: { short_description: 'Issues at a glance', long_description: LONG, capabilities: [], default_prompt: 'Show my open issues', screenshot_urls: [`https://example.test/${SCREENSHOT}.png`] },
      skills: [],
    },
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = (plugins: unknown[]) => JSON.stringify({ plugins, pagination: { next_page_token: null } });
    const body = path.endsWith('/ps/plugins/list')
      ? page([linear])
      : path.includes('/ps/plugins/installed') || path.includes('/workspace/') || path.includes('/suggested/')
        ? page([])
        : path.endsWith('/ps/plugins/linear') || path.endsWith(`/ps/plugins/${linear.id}`)
          ? JSON.stringify(linear)
          : path.endsWith('/plugins/featured')
            ? '[]'
            : '{}';
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits })));
}

/** A local marketplace directory `<root>/<dir>` named `name` with one plugin `hello` (a skill and a QR connector). */
async function localMarketplace(dir: string, name: string): Promise<string> {
  const root = join(box.root, dir);
  const qr = { type: 'local_qr', authPolicy: 'on_install', health: ['bin/bridge.mjs', 'health'], start: ['bin/bridge.mjs', 'start'], poll: ['bin/bridge.mjs', 'poll'] };
  await writeLocalMarketplace(root, {
    name,
    interface: { displayName: `${name} tools` },
    plugins: [
      {
        name: 'hello',
        version: '1.2.0',
        description: 'Says hello',
        skills: [{ name: 'greet', description: 'Greets people', body: 'Say hi.' }],
        manifest: {
          connectors: [{ slug: 'team-chat', localAuth: qr }],
          interface: { displayName: 'Hello', shortDescription: 'Greets the team', longDescription: LONG, defaultPrompt: ['Say hello to the team'], screenshots: [`./${SCREENSHOT}.png`] },
        },
        entry: { policy: { installation: 'AVAILABLE', authentication: 'ON_INSTALL' }, category: 'Productivity' },
      },
    ],
  });
  return root;
}

const startExecutor = (): ServeProcess => startServe(['--executor-home', box.executorHome, '--workspace', box.workspace], { ...process.env, HOME: box.userHome });

async function writeConfig(extra: Readonly<Record<string, unknown>> = {}): Promise<void> {
  const provider = scriptedModelCodexConfig({ baseUrl: box.model.url });
  const path = join(box.executorHome, 'codex', 'config.toml');
  const existing = await readFile(path, 'utf8').catch(() => '');
  // Keep what Codex wrote ([marketplaces.*]); replace the rest.
  const marketplaces = existing.includes('[marketplaces.') ? existing.slice(existing.indexOf('[marketplaces.')) : '';
  await writeFile(path, `${stringifyToml({ ...extra, ...provider, features: { ...provider.features, plugins: true } })}\n${marketplaces}`, { mode: 0o600 });
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-marketplaces-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script: [] });
  box = { root, ...dirs, model, executor: undefined as unknown as ServeProcess };
  await writeConfig();
  box.executor = startExecutor();
  expect(await box.executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
}, 120_000);

afterAll(async () => {
  await box?.executor.close();
  await box?.model.close();
  for (const server of servers) server.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

const { call, ok, refused } = typedHost(() => box.executor);

const names = async (): Promise<ReadonlyArray<string>> => (await ok('marketplaces/list', {})).marketplaces.map((entry) => entry.name);
const digest = (): string => JSON.stringify(treeLines(box.executorHome));

describe('marketplaces through the executor (signed out)', () => {
  it('shows the welcome page when there is no marketplace, and the official tab answers Codex’s offline state', async () => {
    expect(await ok('marketplaces/list', {})).toEqual({ marketplaces: [], welcome: true });
    // Codex signed out and offline lists no official catalog: a typed answer, not an empty page.
    expect(await refused('plugins/catalog', { marketplace: 'openai-curated-remote' })).toMatchObject({ code: HostErrorCode.CatalogUnavailable, tag: 'CatalogUnavailable' });
  });

  it('adds a local marketplace, lists it, opens its catalog and reads a plugin', async () => {
    const root = await localMarketplace('team-market', 'team-tools');
    const added = await ok('marketplaces/add', { source: root, name: 'Team' });
    expect(added).toEqual({ alreadyAdded: false, marketplace: { name: 'team-tools', kind: 'local', source: root, displayName: 'Team', editable: true } });
    expect(await ok('marketplaces/list', {})).toEqual({ welcome: false, marketplaces: [added.marketplace] });

    const catalog = await ok('plugins/catalog', { marketplace: 'team-tools' });
    expect(catalog).toEqual({
      marketplace: 'team-tools',
      cachedUntil: null,
      plugins: [
        {
          pluginId: 'hello@team-tools',
          name: 'hello',
          marketplace: 'team-tools',
          displayName: 'Hello',
          shortDescription: 'Greets the team',
          category: 'Productivity',
          version: '1.2.0',
          installed: false,
          enabled: false,
          installPolicy: 'AVAILABLE',
          authPolicy: 'ON_INSTALL',
          availability: 'AVAILABLE',
          defaultPrompts: ['Say hello to the team'],
        },
      ],
    });
    // Projected before it crossed the connection: the raw answer has no long description or screenshot.
    const raw = JSON.stringify(await box.executor.request('plugins/catalog', { marketplace: 'team-tools' }));
    expect(raw).not.toContain(LONG);
    expect(raw).not.toContain(SCREENSHOT);

    const { plugin } = await ok('plugins/read', { marketplace: 'team-tools', plugin: 'hello' });
    expect(plugin.summary.pluginId).toBe('hello@team-tools');
    expect(plugin.description).toBe('Says hello');
    expect(plugin.longDescription).toBe(LONG);
    expect(plugin.skills.map((skill) => skill.name)).toEqual(['hello:greet']);
    expect(plugin.connectors).toEqual([{ slug: 'team-chat', localAuth: { type: 'local_qr', authPolicy: 'on_install' } }]);
    // The log reports sizes, never contents.
    await expect.poll(() => box.executor.stderr(), { timeout: 10_000 }).toContain('marketplace catalog read');
    expect(box.executor.stderr()).not.toContain(LONG);
  });

  it('adds a marketplace from its marketplace.json file; adding it again is alreadyAdded', async () => {
    const root = await localMarketplace('file-market', 'file-tools');
    const added = await ok('marketplaces/add', { source: join(root, '.agents', 'plugins', 'marketplace.json') });
    expect(added.marketplace).toMatchObject({ name: 'file-tools', kind: 'local', source: root, displayName: 'file-tools tools' });
    expect((await ok('marketplaces/add', { source: root })).alreadyAdded).toBe(true);
    expect(await names()).toEqual(['team-tools', 'file-tools']);
  });

  it('clones a git marketplace served from loopback; it still lists and reads with the server stopped and the repository deleted', async () => {
    const source = await localMarketplace('git-source', 'git-tools');
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: box.userHome } });
    git(source, 'init', '-q', '-b', 'main');
    git(source, 'add', '-A');
    git(source, '-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-qm', 'marketplace');
    const served = join(box.root, 'served');
    await mkdir(served);
    git(served, 'clone', '-q', '--bare', source, 'tools.git');
    git(join(served, 'tools.git'), 'update-server-info');
    const { server, url } = await staticServer(served);
    servers.push(server);

    const added = await ok('marketplaces/add', { source: `${url}/tools.git` });
    expect(added.marketplace).toEqual({ name: 'git-tools', kind: 'git', source: `${url}/tools.git`, displayName: 'git-tools tools', editable: true });
    expect((await ok('marketplaces/refresh', { name: 'git-tools' })).plugins).toBe(1);

    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(served, { recursive: true, force: true });
    await rm(source, { recursive: true, force: true });
    expect(await names()).toEqual(['team-tools', 'file-tools', 'git-tools']);
    expect((await ok('plugins/catalog', { marketplace: 'git-tools' })).plugins.map((plugin) => plugin.pluginId)).toEqual(['hello@git-tools']);
    expect((await ok('plugins/read', { marketplace: 'git-tools', plugin: 'hello' })).plugin.skills.map((skill) => skill.name)).toEqual(['hello:greet']);
    // A pull with the server gone is refused; the clone stays and still lists.
    const before = digest();
    expect(await refused('marketplaces/refresh', { name: 'git-tools' })).toMatchObject({ code: HostErrorCode.MarketplaceRefused, tag: 'MarketplaceRefused' });
    expect(digest()).toBe(before);
    expect(await names()).toContain('git-tools');
  });

  it('refuses bad sources, bad params and unknown names, changing nothing on disk', async () => {
    const before = digest();
    const stray = join(box.root, 'stray.json');
    await writeFile(stray, '{}');
    expect(await refused('marketplaces/add', { source: `file://${join(box.root, 'served', 'tools.git')}` })).toMatchObject({ code: HostErrorCode.MarketplaceRefused, message: expect.stringContaining('InvalidSource') });
    expect(await refused('marketplaces/add', { source: join(box.root, 'no-such-dir') })).toMatchObject({ code: HostErrorCode.MarketplaceRefused });
    expect(await refused('marketplaces/add', { source: join(box.root, 'workspace') })).toMatchObject({ code: HostErrorCode.MarketplaceRefused });
    expect(await refused('marketplaces/add', { source: join(box.root, 'team-market'), refName: 'main' })).toMatchObject({ code: HostErrorCode.MarketplaceRefused, message: expect.stringContaining('RefOnlyForGit') });
    expect(await refused('marketplaces/remove', { name: 'nope' })).toMatchObject({ code: HostErrorCode.MarketplaceNotFound, tag: 'MarketplaceNotFound' });
    expect(await refused('marketplaces/refresh', { name: 'nope' })).toMatchObject({ code: HostErrorCode.MarketplaceNotFound });
    expect(await refused('plugins/catalog', { marketplace: 'nope' })).toMatchObject({ code: HostErrorCode.MarketplaceNotFound });
    expect(await refused('plugins/read', { marketplace: 'nope', plugin: 'hello' })).toMatchObject({ code: HostErrorCode.MarketplaceNotFound });
    expect(await refused('plugins/read', { marketplace: 'team-tools', plugin: 'nope' })).toMatchObject({ code: HostErrorCode.CatalogPluginNotFound, tag: 'CatalogPluginNotFound' });
    expect(await refused('marketplaces/reorder', { names: ['team-tools'] })).toMatchObject({ code: HostErrorCode.MarketplaceNotEditable, tag: 'ReorderRefused' });
    expect(await refused('marketplaces/reorder', { names: ['team-tools', 'file-tools', 'git-tools', 'team-tools'] })).toMatchObject({ code: HostErrorCode.MarketplaceNotEditable });
    expect(await refused('marketplaces/reorder', { names: ['team-tools', 'file-tools', 'ghost'] })).toMatchObject({ code: HostErrorCode.MarketplaceNotFound });
    for (const [method, params] of [
      ['marketplaces/add', {}],
      ['marketplaces/add', { source: 42 }],
      ['marketplaces/remove', { name: null }],
      ['marketplaces/reorder', { names: 'team-tools' }],
      ['marketplaces/refresh', {}],
      ['plugins/catalog', { marketplace: ['x'] }],
      ['plugins/read', { marketplace: 'team-tools' }],
    ] as const) {
      expect(await box.executor.request(method, params)).toMatchObject({ error: { code: HostErrorCode.InvalidParams } });
    }
    expect(digest()).toBe(before);
    expect(await names()).toEqual(['team-tools', 'file-tools', 'git-tools']);
  });

  it('reorders the custom marketplaces and removes one', async () => {
    expect((await ok('marketplaces/reorder', { names: ['git-tools', 'team-tools', 'file-tools'] })).marketplaces.map((entry) => entry.name)).toEqual(['git-tools', 'team-tools', 'file-tools']);
    await ok('marketplaces/remove', { name: 'file-tools' });
    expect(await names()).toEqual(['git-tools', 'team-tools']);
    const stored = JSON.parse(await readFile(join(box.executorHome, 'marketplaces.json'), 'utf8'));
    expect(stored).toEqual({ version: 1, names: ['git-tools', 'team-tools'], labels: { 'team-tools': 'Team' } });
  });
});

describe('an add whose order cannot be saved', () => {
  it('is undone in Codex: answered failed, listed nowhere, and added afresh once the order can be saved', async () => {
    const orderFile = join(box.executorHome, 'marketplaces.json');
    const kept = await readFile(orderFile, 'utf8').catch(() => null);
    // The order file's place taken by a directory: its write fails as it does on a full disk.
    await rm(orderFile, { force: true });
    await mkdir(orderFile);
    const root = await localMarketplace('undo-market', 'undo-tools');
    const refusedAdd = await refused('marketplaces/add', { source: root });
    expect(refusedAdd.message).not.toContain(box.root);
    expect(await names()).not.toContain('undo-tools');
    expect(await readFile(join(box.executorHome, 'codex', 'config.toml'), 'utf8')).not.toContain('undo-tools');
    await expect.poll(() => box.executor.stderr(), { timeout: 10_000 }).toContain('marketplace add undone undone=true');
    await rm(orderFile, { recursive: true });
    if (kept !== null) await writeFile(orderFile, kept);
    expect(await ok('marketplaces/add', { source: root })).toMatchObject({ alreadyAdded: false, marketplace: { name: 'undo-tools' } });
    await ok('marketplaces/remove', { name: 'undo-tools' });
  });
});

describe('after an executor restart, signed in with ChatGPT (loopback plugin backend)', () => {
  let catalog: Awaited<ReturnType<typeof catalogServer>>;

  beforeAll(async () => {
    await box.executor.close();
    catalog = await catalogServer();
    servers.push(catalog.server);
    await writeFile(join(box.executorHome, 'codex', 'auth.json'), chatgptAuthJson({ email: 'ada@example.com', accountId: 'acc-ada', userId: 'user-ada' }), { mode: 0o600 });
    await writeConfig({ chatgpt_base_url: `${catalog.url}/backend-api` });
    box.executor = startExecutor();
    expect(await box.executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  }, 120_000);

  it('keeps the order; the official marketplace comes first and cannot be removed or reordered', async () => {
    const listed = await ok('marketplaces/list', {});
    expect(listed.welcome).toBe(false);
    expect(listed.marketplaces.map((entry) => [entry.name, entry.kind, entry.editable])).toEqual([
      ['openai-curated-remote', 'official', false],
      ['git-tools', 'git', true],
      ['team-tools', 'local', true],
    ]);
    const before = digest();
    expect(await refused('marketplaces/remove', { name: 'openai-curated-remote' })).toMatchObject({ code: HostErrorCode.MarketplaceNotEditable, tag: 'OfficialNotEditable' });
    expect(await refused('marketplaces/reorder', { names: ['openai-curated-remote', 'git-tools', 'team-tools'] })).toMatchObject({ code: HostErrorCode.MarketplaceNotEditable, tag: 'OfficialNotEditable' });
    expect(digest()).toBe(before);
  });

  it('opens the official tab from the loopback catalog: projected summaries, one fetch for concurrent reads, a refresh refetches', async () => {
    const fetched = () => box.executor.stderr().split('\n').filter((line) => / info official catalog fetched/.test(line)).length;
    const [first, second] = await Promise.all([ok('plugins/catalog', { marketplace: 'openai-curated-remote' }), ok('plugins/catalog', { marketplace: 'openai-curated-remote' })]);
    expect(first).toEqual(second);
    expect(first.plugins).toEqual([
      {
        pluginId: 'linear@openai-curated-remote',
        name: 'linear',
        marketplace: 'openai-curated-remote',
        displayName: 'Linear',
        shortDescription: 'Issues at a glance',
        category: null,
        version: '2.0.0',
        installed: false,
        enabled: false,
        installPolicy: 'AVAILABLE',
        authPolicy: 'ON_USE',
        availability: 'AVAILABLE',
        defaultPrompts: ['Show my open issues'],
      },
    ]);
    expect(first.cachedUntil).toEqual(expect.any(Number));
    expect(fetched()).toBe(1);
    expect(catalog.hits.get('/backend-api/ps/plugins/list')).toBeGreaterThanOrEqual(1);
    // Within the 60 s the tab is served from the cache; a custom refresh does not invalidate it.
    await ok('marketplaces/refresh', { name: 'team-tools' });
    await ok('plugins/catalog', { marketplace: 'openai-curated-remote' });
    expect(fetched()).toBe(1);
    // The refresh button refetches, bypassing Codex's cache too.
    expect((await ok('marketplaces/refresh', { name: 'openai-curated-remote' })).plugins).toBe(1);
    expect(fetched()).toBe(2);
    await expect.poll(() => box.executor.stderr(), { timeout: 10_000 }).toContain('force=true');
    // The selected plugin's details come from plugin/read (Codex asks the backend for that one plugin).
    const details = await call('plugins/read', { marketplace: 'openai-curated-remote', plugin: 'linear' });
    if (E.isRight(details)) {
      expect(details.right.plugin.summary.pluginId).toBe('linear@openai-curated-remote');
      expect(details.right.plugin.longDescription).toBe(LONG);
    } else {
      throw new Error(`plugins/read of the official plugin failed: ${details.left.code} ${details.left.message} ${JSON.stringify(catalog.hits)}`);
    }
    const log = box.executor.stderr();
    for (const secret of [LONG, SCREENSHOT, TOKEN_CANARY, 'Issues at a glance']) expect(log).not.toContain(secret);
  });
});
