/**
 * `npm run web`: the web host against the embedded scripted model, so a newcomer sees the chat and a
 * plugin form in a browser without an OpenAI account. It prepares a throw-away executor home whose
 * Codex config names the scripted model and the sample forms plugin, starts `serve.js --ws --ui` on it
 * and prints the one address to open. Ctrl-C (or SIGTERM) stops the executor, the model, and removes
 * the home.
 *
 * `--script FILE` replaces the demo's script with a scripted-model script (JSON, see
 * `@wework/scripted-model`); the browser tests use it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
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

async function readScript(argv: ReadonlyArray<string>): Promise<Script> {
  if (argv.length === 0) return webDemoScript;
  if (argv.length !== 2 || argv[0] !== '--script' || argv[1] === undefined) return fail('usage: webDemo.js [--script FILE]');
  const parsed = parseScript(await readFile(argv[1], 'utf8'));
  return E.isLeft(parsed) ? fail(`the script does not read: ${formatScriptError(parsed.left)}`) : parsed.right;
}

const script = await readScript(process.argv.slice(2));
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
