/**
 * The isolated Codex home against the real app-server: config.toml normalization before start,
 * custom instructions and the interaction style through config/read and config/batchWrite, and a
 * malformed config that is reported and left alone.
 */
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as T from 'fp-ts/lib/Task.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigRead } from '@wework/codex-protocol';
import { DEFAULT_MIGRATION_CHOICE, type CodexHome } from '@wework/codex-home';
import { nodeCodexHome } from '@wework/codex-home/node';
import { respond, say } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { describeHomePreparationError, prepareCodexHome } from '../src/home/prepareCodexHome.js';
import type { LogEntry } from '@wework/ports';
import { describeRuntimeError, startLocalRuntime, type LocalRuntime } from '../src/runtime/LocalRuntime.js';
import { codexSettings, EMBEDDED_BROWSER_ROUTING } from '../src/settings/CodexSettings.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface HomeBox {
  readonly root: string;
  readonly executorHome: string;
  readonly userHome: string;
  readonly workspace: string;
  readonly home: CodexHome;
  readonly log: LogEntry[];
}

async function homeBox(): Promise<HomeBox> {
  const root = await mkdtemp(join(tmpdir(), 'executor-home-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'user'), workspace: join(root, 'workspace') };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  const home = nodeCodexHome({ executorHome: dirs.executorHome, userHome: dirs.userHome, env: {} });
  if (E.isLeft(home)) throw new Error(`home: ${home.left._tag}`);
  return { root, ...dirs, home: home.right, log: [] };
}

/** A hand-formatted config with comments and the legacy `instructions` key. */
const handWrittenConfig = (modelUrl: string): string => `# Wework test config — formatted by hand
model = "mock-model"      # the scripted model
model_provider = "scripted"

# Legacy custom instructions, from an older Wework:
instructions = """
Always answer in French.
Keep it short."""

[features]
# No network at start, and fail fast.
plugins = false
unbounded_connection_retries = false

[model_providers.scripted]
name = "Scripted"            # aligned by hand
base_url = "${modelUrl}"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`;

async function startRuntime(box: HomeBox, model: ScriptedModel | null): Promise<LocalRuntime> {
  void model;
  const started = await startLocalRuntime({
    codexHome: box.home.layout.home,
    home: box.userHome,
    workspace: box.workspace,
    env: process.env,
    pluginNames: [],
    log: (entry) => box.log.push(entry),
  });
  if (E.isLeft(started)) throw new Error(describeRuntimeError(started.left));
  cleanups.push(() => started.right.dispose());
  return started.right;
}

const commentLines = (text: string): string[] => text.split('\n').filter((line) => line.includes('#'));

describe('the Wework Codex home on the real app-server', () => {
  it('normalizes a legacy, hand-formatted config before start: Codex reads developer_instructions and personality, every comment stays', async () => {
    const box = await homeBox();
    const model = await startScriptedModel({ script: [respond(say('Bonjour.'))] });
    cleanups.push(() => model.close());
    await mkdir(box.home.layout.home, { recursive: true });
    const original = handWrittenConfig(model.url);
    await writeFile(box.home.layout.configFile, original, { mode: 0o640 });

    const prepared = await prepareCodexHome(box.home, () => T.of(DEFAULT_MIGRATION_CHOICE), (entry) => box.log.push(entry));
    if (E.isLeft(prepared)) throw new Error(describeHomePreparationError(prepared.left));
    expect(prepared.right.config._tag).toBe('Normalized');
    const normalized = await readFile(box.home.layout.configFile, 'utf8');
    for (const line of commentLines(original)) expect(normalized).toContain(line);
    expect((await stat(box.home.layout.configFile)).mode & 0o777).toBe(0o640);

    const runtime = await startRuntime(box, model);
    const read = await runtime.server.client.request(ConfigRead, {});
    if (E.isLeft(read)) throw new Error('config/read failed');
    const config = read.right.config as Record<string, unknown>;
    expect(config['developer_instructions']).toBe('Always answer in French.\nKeep it short.');
    expect(config['personality']).toBe('pragmatic');
    expect(config['instructions'] ?? null).toBeNull();

    // The developer instructions reach the model.
    const thread = await runtime.startThread({});
    if (E.isLeft(thread)) throw new Error(describeRuntimeError(thread.left));
    const turn = await runtime.runTurn(thread.right.threadId, 'Hello');
    expect(E.isRight(turn)).toBe(true);
    expect(JSON.stringify(model.requests[0]?.body)).toContain('Always answer in French.\\nKeep it short.');

    // A second normalization is a byte-for-byte no-op.
    const again = await box.home.prepareConfig()();
    expect(E.isRight(again) && again.right._tag).toBe('Unchanged');
    expect(await readFile(box.home.layout.configFile, 'utf8')).toBe(normalized);
  });

  it('reads and writes custom instructions and the interaction style through config/read and config/batchWrite', async () => {
    const box = await homeBox();
    const model = await startScriptedModel({ script: [respond(say('ok'))] });
    cleanups.push(() => model.close());
    await mkdir(box.home.layout.home, { recursive: true });
    await writeFile(box.home.layout.configFile, handWrittenConfig(model.url), { mode: 0o600 });
    const prepared = await prepareCodexHome(box.home, () => T.of(DEFAULT_MIGRATION_CHOICE), (entry) => box.log.push(entry));
    expect(E.isRight(prepared)).toBe(true);
    const runtime = await startRuntime(box, model);
    const settings = codexSettings(runtime.server.client);

    expect(await settings.readInstructions()).toEqual(E.right('Always answer in French.\nKeep it short.'));
    const mine = 'Réponds en français.\n\nCite tes sources — toujours.';
    expect(E.isRight(await settings.writeInstructions(mine))).toBe(true);
    expect(await settings.readInstructions()).toEqual(E.right(mine));
    const file = await readFile(box.home.layout.configFile, 'utf8');
    expect(file).toContain(EMBEDDED_BROWSER_ROUTING);
    expect(file).toContain('# Wework test config — formatted by hand');
    expect(file).toContain('name = "Scripted"            # aligned by hand');

    expect(await settings.readStyle()).toEqual(E.right('pragmatic'));
    expect(E.isRight(await settings.writeStyle('friendly'))).toBe(true);
    expect(await settings.readStyle()).toEqual(E.right('friendly'));
    expect(await readFile(box.home.layout.configFile, 'utf8')).toMatch(/^personality = "friendly"$/m);

    // A thread started after the write sends the new instructions (with the routing block) to the model.
    const thread = await runtime.startThread({});
    if (E.isLeft(thread)) throw new Error(describeRuntimeError(thread.left));
    expect(E.isRight(await runtime.runTurn(thread.right.threadId, 'Salut'))).toBe(true);
    const body = JSON.stringify(model.requests[0]?.body);
    expect(body).toContain('Réponds en français.');
    expect(body).toContain(EMBEDDED_BROWSER_ROUTING);
  });

  it('leaves a malformed config.toml untouched and says where it is broken, before any app-server starts', async () => {
    const box = await homeBox();
    await mkdir(box.home.layout.home, { recursive: true });
    const broken = '# mine\nmodel = "gpt-5.5"\n[features\nplugins = false\n';
    await writeFile(box.home.layout.configFile, broken, { mode: 0o600 });
    const before = await stat(box.home.layout.configFile);

    const prepared = await prepareCodexHome(box.home, () => T.of(DEFAULT_MIGRATION_CHOICE), (entry) => box.log.push(entry));
    expect(prepared).toMatchObject({ left: { _tag: 'MalformedConfig', line: 3 } });
    if (E.isLeft(prepared)) expect(describeHomePreparationError(prepared.left)).toMatch(/^config\.toml is not valid TOML \(line 3, column \d+\)/);
    expect(await readFile(box.home.layout.configFile, 'utf8')).toBe(broken);
    expect((await stat(box.home.layout.configFile)).mtimeMs).toBe(before.mtimeMs);
    expect(box.log.map((entry) => entry.event)).toEqual(['codex home not prepared']);
  });

  it('creates a missing home and a fresh private config, which the app-server accepts', async () => {
    const box = await homeBox();
    const prepared = await prepareCodexHome(box.home, () => T.of(DEFAULT_MIGRATION_CHOICE), (entry) => box.log.push(entry));
    if (E.isLeft(prepared)) throw new Error(describeHomePreparationError(prepared.left));
    // First start without a native ~/.codex: the default choice wrote a fresh config, which is normalized already.
    expect(prepared.right.firstStart._tag).not.toBe('Initialized');
    expect(prepared.right.migration?.state.configSource).toBe('fresh');
    expect(prepared.right.config._tag).toBe('Unchanged');
    expect((await stat(box.home.layout.configFile)).mode & 0o777).toBe(0o600);
    const runtime = await startRuntime(box, null);
    const read = await runtime.server.client.request(ConfigRead, {});
    expect(E.isRight(read) && (read.right.config as Record<string, unknown>)['personality']).toBe('pragmatic');
  });
});
