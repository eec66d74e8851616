/**
 * The executor's cold start (`serve.js --stdio` until `executor/info` is answered), as the process loads
 * it: Codex is the first process it spawns, and at that moment none of the heavy modules is loaded — not
 * the protocol's generated codecs (`@wework/codex-protocol`'s main entry), not the JSON-RPC client
 * (`AppServerClient`, its connection, `vscode-jsonrpc`), not the host protocol's codecs. Only what the
 * launch needs is: the home lock (the light lock entry of the transaction library), the home preparation
 * and the light launch entry. A first start has no plugin state, so its plugin recovery loads nothing
 * either. When it writes its first answer, nothing of the plugin machinery is loaded yet: that loads once the
 * executor is ready. A preload module (`--import`) records the modules loaded at the first spawn and at the
 * first answer. The serve entry is bundled (`dist/serve.js` and `dist/chunks/`): each loaded bundle file
 * stands for the modules the build put into it (`dist/bundle-meta.json`), so the checks below name source
 * and dependency modules as before.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './support/serveProcess.js';

const PROBE = pathToFileURL(join(import.meta.dirname, 'support', 'spawnProbe.mjs')).href;
const PACKAGE_DIR = resolve(import.meta.dirname, '..');
const DIST = join(PACKAGE_DIR, 'dist');

/** The modules a loaded file stands for: a bundle file's bundled modules (absolute paths), any other file itself. */
async function unbundled(modules: ReadonlyArray<string>): Promise<ReadonlyArray<string>> {
  const meta = JSON.parse(await readFile(join(DIST, 'bundle-meta.json'), 'utf8')) as { readonly modules: Readonly<Record<string, ReadonlyArray<string>>> };
  return modules.flatMap((module) => {
    const path = module.startsWith('file:') ? fileURLToPath(module) : module;
    const inputs = path.startsWith(`${DIST}/`) ? meta.modules[path.slice(DIST.length + 1)] : undefined;
    return inputs === undefined ? [path] : inputs.map((input) => resolve(PACKAGE_DIR, input));
  });
}

let root: string;
let executor: ServeProcess | undefined;
/** What the probe recorded at the executor's first spawn. */
let first: { readonly spawned: string; readonly modules: ReadonlyArray<string> };
/** The modules loaded when the executor wrote its first answer. */
let atAnswer: ReadonlyArray<string>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'executor-cold-start-'));
  const dirs = { executorHome: join(root, 'executor'), home: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  const probe = join(root, 'spawn-probe.jsonl');
  executor = startServe(['--executor-home', dirs.executorHome, '--workspace', dirs.workspace], {
    ...process.env,
    HOME: dirs.home,
    NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${PROBE}`.trim(),
    SPAWN_PROBE_FILE: probe,
  });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  const [line, answerLine] = (await readFile(probe, 'utf8')).split('\n');
  const recorded = JSON.parse(line ?? '') as typeof first;
  first = { spawned: recorded.spawned, modules: await unbundled(recorded.modules) };
  atAnswer = await unbundled((JSON.parse(answerLine ?? '') as { readonly modules: ReadonlyArray<string> }).modules);
}, 120_000);

afterAll(async () => {
  await executor?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** The loaded modules whose path contains `part`. */
const loaded = (part: string): ReadonlyArray<string> => first.modules.filter((module) => module.includes(part));

describe('the cold start', () => {
  it('spawns Codex first', () => {
    expect(first.spawned).toMatch(/codex/);
  });

  it('runs the bundled serve entry, whose map names the modules it loaded', () => {
    expect(loaded('/desktop-executor/src/serve.ts')).toHaveLength(1);
    expect(loaded('/desktop-executor/dist/')).toEqual([]);
  });

  it('has loaded what the launch needs when it spawns Codex', () => {
    expect(loaded('/app-server-client/dist/node/launch.js')).toHaveLength(1);
    expect(loaded('/codex-home/dist/')).not.toHaveLength(0);
  });

  it('has loaded none of the protocol codecs and no JSON-RPC client when it spawns Codex', async () => {
    expect(loaded('/codex-protocol/dist/index.js')).toEqual([]);
    // What is loaded of codex-protocol is its JSON value helpers' entry and the chunk it imports, no codec.
    const jsonEntry = await readFile(new URL('../../../libs/codex-protocol/dist/json.js', import.meta.url), 'utf8');
    const jsonModules = ['json.js', ...[...jsonEntry.matchAll(/from"\.\/([^"]+)"/g)].map((match) => match[1])];
    expect(loaded('/codex-protocol/dist/').map((module) => module.slice(module.lastIndexOf('/') + 1)).filter((name) => !jsonModules.includes(name))).toEqual([]);
    expect(loaded('/host-protocol/dist/index.js')).toEqual([]);
    expect(loaded('/app-server-client/dist/index.js')).toEqual([]);
    expect(loaded('/app-server-client/dist/AppServerClient.js')).toEqual([]);
    expect(loaded('/app-server-client/dist/internal/Connection.js')).toEqual([]);
    expect(loaded('/vscode-jsonrpc/')).toEqual([]);
  });

  it('has loaded none of the plugin machinery (sync, device logins, undici) when it writes its first answer', () => {
    expect(atAnswer.filter((module) => module.includes('/desktop-executor/src/host/startExecutor.ts'))).toHaveLength(1);
    expect(atAnswer.filter((module) => module.includes('/sync-transaction/dist/node/index.js'))).toEqual([]);
    expect(atAnswer.filter((module) => module.includes('/desktop-executor/src/plugins/PluginSync.ts'))).toEqual([]);
    expect(atAnswer.filter((module) => module.includes('/desktop-executor/src/plugins/deviceAuthorization.ts'))).toEqual([]);
    expect(atAnswer.filter((module) => module.includes('/local-auth/dist/node/'))).toEqual([]);
    expect(atAnswer.filter((module) => module.includes('/undici/'))).toEqual([]);
  });

  it('has loaded only the lock of the plugin transaction library when it spawns Codex on a first start', () => {
    expect(loaded('/sync-transaction/dist/node/lock.js')).toHaveLength(1);
    expect(loaded('/sync-transaction/dist/node/index.js')).toEqual([]);
    expect(loaded('/sync-transaction/dist/index.js')).toEqual([]);
    expect(loaded('/sync-transaction/dist/RecoverDirectories.js')).toEqual([]);
  });
});
