/**
 * `npm run web`: the web host against the embedded scripted model, so a newcomer sees the chat and a
 * plugin form in a browser without an OpenAI account. It prepares a throw-away executor home whose
 * Codex config names the scripted model and the sample forms plugin, starts `serve.js --ws --ui` on it
 * and prints the one address to open. Ctrl-C (or SIGTERM) stops the executor, the model, and removes
 * the home.
 *
 * `--script FILE` replaces the demo's script with a scripted-model script (JSON, see
 * `@wework/scripted-model`); `--record FILE` writes the model's requests there after each one; the
 * browser tests use them. Codex's plugin system is on, so the Plugins page can add marketplaces.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { formatScriptError, parseScript, type Script } from '@wework/scripted-model';
import { startScriptedModel } from '@wework/scripted-model/node';
import { webDemoScript } from './demoScript.js';
import { scriptedExecutorConfig } from './executorConfig.js';

/** How long the executor may take to print its address. */
const START_TIMEOUT_MS = 120_000;

function fail(message: string): never {
  process.stderr.write(`The web demo did not start: ${message}\n`);
  process.exit(1);
}

/** The demo's options: `--script FILE` (a scripted-model script), `--record FILE` (the model's requests written there after each one). */
interface DemoOptions {
  readonly script: Script;
  readonly record: string | null;
}

async function readOptions(argv: ReadonlyArray<string>): Promise<DemoOptions> {
  const usage = 'usage: webDemo.js [--script=FILE] [--record=FILE]';
  let values: { readonly script?: string | undefined; readonly record?: string | undefined };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { script: { type: 'string' }, record: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
  if (values.script === '' || values.record === '') return fail(usage);
  let script: Script = webDemoScript;
  if (values.script !== undefined) {
    const parsed = parseScript(await readFile(values.script, 'utf8'));
    script = E.isLeft(parsed) ? fail(`the script does not read: ${formatScriptError(parsed.left)}`) : parsed.right;
  }
  return { script, record: values.record ?? null };
}

const options = await readOptions(process.argv.slice(2));
const script = options.script;
const plugin = checkPluginBuilt('forms');
if (!plugin.ok) fail('the sample plugin is not built; run the build first');

const root = await mkdtemp(join(tmpdir(), 'wework-web-'));
const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
const model = await startScriptedModel({ script });
const config = scriptedExecutorConfig(model.url, [{ name: 'forms', ...plugin.command }]);
if (E.isLeft(config)) fail('the MCP server config is invalid');
// Plugins on, so the Plugins page can add marketplaces and install from them.
const features = { ...(config.right['features'] as object), plugins: true };
await writeFile(join(dirs.executorHome, 'codex', 'config.toml'), stringifyToml({ ...config.right, features }), { mode: 0o600 });
if (options.record !== null) void recordRequests(options.record);

/** Writes the model's requests (their bodies, credentials never recorded) to `file` after each one, until the model closes. */
async function recordRequests(file: string): Promise<void> {
  for (let count = 1; ; count++) {
    let requests;
    try {
      requests = await model.waitForRequests(count);
    } catch {
      return;
    }
    await writeFile(`${file}.part`, JSON.stringify(requests.map((r) => r.body)));
    await rename(`${file}.part`, file);
  }
}

const serve = join(dirname(fileURLToPath(import.meta.url)), 'serve.js');
const env: Record<string, string | undefined> = { ...process.env, HOME: dirs.userHome };
delete env['WEWORK_EXECUTOR_HOME'];
delete env['WEGENT_CODEX_HOME'];
const child = spawn(process.execPath, [serve, '--ws', '--ui', '--executor-home', dirs.executorHome, '--workspace', dirs.workspace, '--wait-for-plugin', 'forms'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});

let stopping = false;
const stop = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await model.close();
  await rm(root, { recursive: true, force: true });
  process.exit(code);
};
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
child.once('exit', () => void stop(stopping ? 0 : 1));

const timer = setTimeout(() => {
  process.stderr.write('The web demo did not start: the executor did not print its address in time\n');
  void stop(1);
}, START_TIMEOUT_MS);
const lines = createInterface({ input: child.stdout });
lines.once('line', (line) => {
  clearTimeout(timer);
  let url: unknown;
  try {
    url = (JSON.parse(line) as { url?: unknown }).url;
  } catch {
    url = undefined;
  }
  if (typeof url !== 'string') {
    process.stderr.write('The web demo did not start: the executor did not announce the web host\n');
    void stop(1);
    return;
  }
  process.stdout.write(
    [
      'Wework web host — real codex app-server, embedded scripted model, sample forms plugin',
      `Workspace: ${dirs.workspace}`,
      'Open this address in a browser (it carries this launch\'s token; do not share it):',
      `  ${url}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
});
