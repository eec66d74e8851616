/**
 * Bundled plugin upgrades of the real executor process (`serve.js --bundled-plugin DIR`, its real
 * app-server, a scripted model), over one executor home restarted between steps as the desktop app
 * restarts it: the first start installs the bundled plugin and its script runs; a same-version content
 * fix and a version change are upgraded at the next start (and the new script is what runs); a
 * disabled plugin stays disabled; a failure (the test fault hook refuses the staged upgrade) restores
 * the previous caches byte for byte and reports `updateFailed`, and a retry succeeds; an upgrade that
 * arrives while a turn runs waits for the turn without delaying another `message/send`; a plugin the user
 * uninstalled is not reinstalled by a restart, a retry after each of two restarts is refused (`-32035`,
 * nothing installed, no status sent), and an explicit reinstall resumes its synchronisation;
 * an executor SIGKILLed in the middle of an upgrade comes back with the old state, never a mix.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HostResultOf } from '@wework/host-protocol';
import { functionCallOutputs, hang, respond, say, scriptedModelCodexConfig, shell } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { until } from '@wework/test-support';
import { startServe, typedHost, type ServeProcess } from './support/serveProcess.js';
import { treeLines } from './support/treeLines.js';

const PLUGIN_ID = 'wework-space@wework';

interface Box {
  readonly root: string;
  readonly executorHome: string;
  readonly workspace: string;
  /** The bundled package directory, rewritten between steps as a new desktop app would ship it. */
  readonly bundled: string;
  /** An older package of the same plugin, for an explicit reinstall. */
  readonly older: string;
  readonly env: NodeJS.ProcessEnv;
  readonly model: ScriptedModel;
}
let box: Box;
let executor: ServeProcess | undefined;

const codexCache = (version: string): string => join(box.executorHome, 'codex/plugins/cache/wework/wework-space', version);
const script = (version: string): string => join(codexCache(version), 'scripts/hello.mjs');

/** Writes the bundled package: `version`, and a script that prints `marker`. */
async function writePackage(dir: string, version: string, marker: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, '.codex-plugin'), { recursive: true });
  await mkdir(join(dir, 'skills/greet'), { recursive: true });
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'wework-space', version, description: 'The Wework space', skills: './skills/' }));
  await writeFile(join(dir, 'skills/greet/SKILL.md'), `---\nname: greet\ndescription: Greets the space\n---\n\nRun scripts/hello.mjs.\n`);
  await writeFile(join(dir, 'scripts/hello.mjs'), `console.log(${JSON.stringify(`hello from ${marker}`)});\n`);
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-bundled-'));
  const executorHome = join(root, 'executor');
  const workspace = join(root, 'workspace');
  await Promise.all([join(executorHome, 'codex'), join(root, 'home'), workspace].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({
    script: [
      respond(shell(`node ${join(executorHome, 'codex/plugins/cache/wework/wework-space/1.0.0/scripts/hello.mjs')}`)),
      respond(say('ran it')),
      respond(shell(`node ${join(executorHome, 'codex/plugins/cache/wework/wework-space/1.0.0/scripts/hello.mjs')}`)),
      respond(say('ran it again')),
      respond(shell(`node ${join(executorHome, 'codex/plugins/cache/wework/wework-space/2.0.0/scripts/hello.mjs')}`)),
      respond(say('ran the new version')),
      hang(),
      respond(say('quick answer')),
    ],
  });
  const provider = scriptedModelCodexConfig({ baseUrl: model.url });
  await writeFile(join(executorHome, 'codex/config.toml'), stringifyToml({ ...provider, features: { ...provider.features, plugins: true } }), { mode: 0o600 });
  const bundled = join(root, 'app/bundled/wework-space');
  const older = join(root, 'downloads/wework-space-1.0.0');
  await writePackage(bundled, '1.0.0', 'A');
  await writePackage(older, '1.0.0', 'OLD');
  box = { root, executorHome, workspace, bundled, older, env: { ...process.env, HOME: join(root, 'home'), WEWORK_EXECUTOR_RESTART_BACKOFF_MS: '200' }, model };
}, 60_000);

afterAll(async () => {
  await executor?.close();
  await box?.model.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

/** Starts the executor on the box's home with the bundled package (and `env`); answers `executor/info` first. */
async function start(env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  await executor?.close();
  // A bad entry is skipped, never fatal: a directory that is no package.
  executor = startServe(['--executor-home', box.executorHome, '--workspace', box.workspace, '--bundled-plugin', join(box.root, 'no-such-package'), '--bundled-plugin', box.bundled], { ...box.env, ...env });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  return executor;
}

/** Typed requests to the executor of the moment: every result is decoded with its method's codec. */
const host = typedHost(() => executor as ServeProcess);

// A test that fails shows what the executor logged last.
beforeEach(({ onTestFailed }) => onTestFailed(() => console.error(`the executor's stderr, last 4000 characters:\n${executor?.stderr().slice(-4000)}`)));

interface StatusNote {
  readonly seq: number;
  readonly pluginId: string;
  readonly status: { readonly kind: string; readonly reason?: string };
  readonly version?: string;
}
const statusNotes = (): ReadonlyArray<StatusNote> => (executor as ServeProcess).notifications('plugins/updateStatus').map((note) => note.params as StatusNote);
/** The update status notifications once `count` of them arrived (seq left out). */
const statuses = async (count: number): Promise<ReadonlyArray<Omit<StatusNote, 'seq'>>> =>
  (await until(`${count} plugins/updateStatus`, () => (statusNotes().length >= count ? statusNotes() : undefined), 60_000)).map(({ seq: _seq, ...rest }) => rest);

type Installed = HostResultOf<'plugins/installed'>['plugins'][number];
const installed = async (): Promise<Installed | undefined> => (await host.ok('plugins/installed', {})).plugins.find((plugin) => plugin.pluginId === PLUGIN_ID);

/** Every file of the plugin's caches in both homes and config.toml, byte for byte. */
const pluginState = (): string =>
  JSON.stringify({
    codex: existsSync(join(box.executorHome, 'codex/plugins/cache/wework')) ? treeLines(join(box.executorHome, 'codex/plugins/cache/wework')) : null,
    claude: existsSync(join(box.executorHome, 'claude/plugins/cache/wework')) ? treeLines(join(box.executorHome, 'claude/plugins/cache/wework')) : null,
    config: readFileSync(join(box.executorHome, 'codex/config.toml'), 'utf8'),
  });

let tasks = 0;
/** Runs one turn in a new task (full access, so the script may run) and answers what the shell printed. */
async function runScript(): Promise<string> {
  const taskId = `task-${++tasks}`;
  await host.ok('task/create', { taskId, modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
  const before = box.model.requests.length;
  expect(await host.ok('message/send', { taskId, markdown: 'Run the space script', permissionMode: 'full-access' })).toMatchObject({ status: 'completed' });
  return functionCallOutputs(box.model.requests[before + 1] ?? { body: null })
    .map((output) => output.text)
    .join('\n');
}

describe('bundled plugin upgrades in the real executor', () => {
  it('the first start installs the bundled plugin in the background; a bad entry is skipped; its script runs', async () => {
    await start();
    expect(await statuses(2)).toEqual([
      { pluginId: PLUGIN_ID, status: { kind: 'updating' }, version: '1.0.0' },
      { pluginId: PLUGIN_ID, status: { kind: 'ok' }, version: '1.0.0' },
    ]);
    await expect.poll(() => executor?.stderr(), { timeout: 10_000 }).toMatch(/bundled plugin skipped index=0 reason="ManifestUnreadable"/);
    expect(executor?.stderr()).not.toContain('no-such-package');
    expect(await installed()).toMatchObject({ enabled: true, version: '1.0.0', status: { kind: 'ok' } });
    expect(await runScript()).toContain('hello from A');
  }, 180_000);

  it('a same-version content fix is upgraded at the next start, and the new script is what runs', async () => {
    await writePackage(box.bundled, '1.0.0', 'B');
    await start();
    expect(await statuses(2)).toEqual([
      { pluginId: PLUGIN_ID, status: { kind: 'updating' }, version: '1.0.0' },
      { pluginId: PLUGIN_ID, status: { kind: 'ok' }, version: '1.0.0' },
    ]);
    expect(readFileSync(script('1.0.0'), 'utf8')).toContain('hello from B');
    expect(await runScript()).toContain('hello from B');
  }, 180_000);

  it('an unchanged package is left alone: a start announces nothing', async () => {
    await start();
    await until('the bundled check', () => /bundled plugins checked/.test(executor?.stderr() ?? ''), 60_000);
    expect(statusNotes()).toEqual([]);
  }, 180_000);

  it('a version change is upgraded, and the new version runs', async () => {
    await writePackage(box.bundled, '2.0.0', 'C');
    await start();
    expect((await statuses(2)).map((note) => [note.status.kind, note.version])).toEqual([
      ['updating', '2.0.0'],
      ['ok', '2.0.0'],
    ]);
    expect(await installed()).toMatchObject({ enabled: true, version: '2.0.0', status: { kind: 'ok' } });
    expect(await runScript()).toContain('hello from C');
    // The previous version's cache is gone once the new one committed.
    expect(existsSync(codexCache('1.0.0'))).toBe(false);
  }, 180_000);

  it('a disabled bundled plugin stays disabled through an upgrade', async () => {
    await host.ok('plugins/setEnabled', { pluginId: PLUGIN_ID, enabled: false });
    await writePackage(box.bundled, '2.0.0', 'D');
    expect(await host.ok('plugins/retryUpdate', { pluginId: PLUGIN_ID })).toEqual({ status: { kind: 'updating' } });
    expect((await statuses(4)).slice(2)).toEqual([
      { pluginId: PLUGIN_ID, status: { kind: 'updating' }, version: '2.0.0' },
      { pluginId: PLUGIN_ID, status: { kind: 'ok' }, version: '2.0.0' },
    ]);
    expect(readFileSync(script('2.0.0'), 'utf8')).toContain('hello from D');
    const config = parseToml(readFileSync(join(box.executorHome, 'codex/config.toml'), 'utf8')) as { plugins?: Record<string, { enabled?: boolean }> };
    expect(config.plugins?.[PLUGIN_ID]?.enabled).toBe(false);
    expect(await installed()).toMatchObject({ enabled: false, version: '2.0.0', status: { kind: 'ok' } });
    await host.ok('plugins/setEnabled', { pluginId: PLUGIN_ID, enabled: true });
  }, 180_000);

  it('a failed upgrade restores the previous caches byte for byte and reports updateFailed; a retry succeeds', async () => {
    await executor?.close();
    await writePackage(box.bundled, '2.0.0', 'E');
    const before = pluginState();
    await start({ WEWORK_TEST_BUNDLED_FAULT: 'fail-once' });
    expect(await statuses(2)).toEqual([
      { pluginId: PLUGIN_ID, status: { kind: 'updating' }, version: '2.0.0' },
      { pluginId: PLUGIN_ID, status: { kind: 'updateFailed', reason: 'TransactionAborted' } },
    ]);
    expect(pluginState()).toBe(before);
    expect(await installed()).toMatchObject({ version: '2.0.0', status: { kind: 'updateFailed', reason: 'TransactionAborted' } });
    expect(await host.ok('plugins/retryUpdate', { pluginId: PLUGIN_ID })).toEqual({ status: { kind: 'updating' } });
    expect((await statuses(4)).slice(2).map((note) => note.status)).toEqual([{ kind: 'updating' }, { kind: 'ok' }]);
    expect(readFileSync(script('2.0.0'), 'utf8')).toContain('hello from E');
    expect(await installed()).toMatchObject({ status: { kind: 'ok' } });
  }, 180_000);

  it('an upgrade that arrives while a turn runs waits for the turn, and does not delay another message/send', async () => {
    await host.ok('task/create', { taskId: 'long', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    const requests = box.model.requests.length;
    const long = (executor as ServeProcess).request('message/send', { taskId: 'long', markdown: 'Take your time' }, 90_000);
    // The model has the request (and never answers it): the turn runs.
    await until('the long turn to reach the model', () => box.model.requests.length > requests, 60_000);
    await writePackage(box.bundled, '2.0.0', 'F');
    const waiting = pluginState();
    expect(await host.ok('plugins/retryUpdate', { pluginId: PLUGIN_ID })).toEqual({ status: { kind: 'updating' } });
    // Another message is not delayed by the waiting upgrade.
    await host.ok('task/create', { taskId: 'quick', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    expect(await host.ok('message/send', { taskId: 'quick', markdown: 'Quick one' })).toMatchObject({ status: 'completed' });
    expect(pluginState()).toBe(waiting);
    expect(statusNotes().at(-1)?.status).toEqual({ kind: 'updating' });
    await host.ok('task/stop', { taskId: 'long' });
    expect(await long).toMatchObject({ result: { status: 'interrupted' } });
    const done = await until('the upgrade after the turn', () => statusNotes().find((note, index) => index >= 4 && note.status.kind === 'ok'), 60_000);
    const longEnded = (executor as ServeProcess)
      .notifications('transcript/turnCompleted')
      .map((note) => note.params as { seq: number; taskId: string })
      .find((note) => note.taskId === 'long');
    expect(longEnded).toBeDefined();
    expect(done.seq).toBeGreaterThan(longEnded?.seq ?? Number.POSITIVE_INFINITY);
    expect(readFileSync(script('2.0.0'), 'utf8')).toContain('hello from F');
  }, 180_000);

  it('a plugin the user uninstalled is never reinstalled by a restart, nor updated by a retry after any restart; an explicit reinstall resumes its synchronisation', async () => {
    expect(await host.ok('plugins/uninstall', { pluginId: PLUGIN_ID })).toEqual({});
    expect(await (executor as ServeProcess).request('plugins/retryUpdate', { pluginId: PLUGIN_ID })).toMatchObject({ error: { code: -32035, data: { tag: 'UpdatePaused' } } });
    expect(await (executor as ServeProcess).request('plugins/retryUpdate', { pluginId: 'other@wework' })).toMatchObject({ error: { code: -32025 } });
    await start();
    await until('the bundled check', () => /bundled plugins checked/.test(executor?.stderr() ?? ''), 60_000);
    expect(statusNotes()).toEqual([]);
    expect(await installed()).toBeUndefined();

    // Two restarts on the same home: the uninstall is known each time, after the start-up check and
    // before it (after the second restart the first retry races the check). Nothing is installed, nothing announced.
    for (const restart of [1, 2]) {
      if (restart === 2) await start();
      expect(await (executor as ServeProcess).request('plugins/retryUpdate', { pluginId: PLUGIN_ID }), `restart ${restart}`).toMatchObject({ error: { code: -32035, data: { tag: 'UpdatePaused' } } });
      await until('the bundled check', () => /bundled plugins checked/.test(executor?.stderr() ?? ''), 60_000);
      expect(executor?.stderr()).toMatch(/bundled plugins checked packages=1 admitted=0 paused=1/);
      expect(await (executor as ServeProcess).request('plugins/retryUpdate', { pluginId: PLUGIN_ID })).toMatchObject({ error: { code: -32035, data: { tag: 'UpdatePaused' } } });
      expect((await host.ok('plugins/installed', {})).plugins).toEqual([]);
      expect(statusNotes()).toEqual([]);
    }

    expect(await host.ok('plugins/install', { marketplace: 'wework', plugin: 'wework-space', version: '1.0.0', packagePath: box.older })).toMatchObject({ plugin: { pluginId: PLUGIN_ID, installed: true } });
    expect((await statuses(2)).map((note) => [note.status.kind, note.version])).toEqual([
      ['updating', '2.0.0'],
      ['ok', '2.0.0'],
    ]);
    expect(await installed()).toMatchObject({ version: '2.0.0', status: { kind: 'ok' } });
    expect(readFileSync(script('2.0.0'), 'utf8')).toContain('hello from F');
  }, 180_000);

  it('SIGKILL in the middle of an upgrade: the next start has the old state byte for byte, never a mix', async () => {
    await executor?.close();
    const before = pluginState();
    await writePackage(box.bundled, '2.0.0', 'G');
    const marker = join(box.root, 'paused-before-commit');
    const killed = await start({ WEWORK_TEST_BUNDLED_FAULT: `pause:${marker}` });
    await until('the upgrade to reach its commit point', () => existsSync(marker), 60_000);
    // The new caches are published beside the old ones; hosts are still answered meanwhile.
    expect(await installed()).toMatchObject({ status: { kind: 'updating' } });
    expect(readdirSync(join(box.executorHome, 'codex/plugins/cache/wework/wework-space')).length).toBeGreaterThan(0);
    process.kill(killed.pid, 'SIGKILL');
    await killed.exited;
    expect(pluginState()).not.toBe(before);

    // The package as it was: recovery restores the old state exactly and the check finds nothing to do.
    await writePackage(box.bundled, '2.0.0', 'F');
    await start();
    await until('the bundled check', () => /bundled plugins checked/.test(executor?.stderr() ?? ''), 60_000);
    expect(statusNotes()).toEqual([]);
    expect(pluginState()).toBe(before);
    expect(await installed()).toMatchObject({ version: '2.0.0', status: { kind: 'ok' } });
  }, 180_000);
});
