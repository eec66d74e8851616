/**
 * The first-start question, answered by the host before it launches the executor: `serve.js
 * --migrate-config native --remote-apps off` migrates the native config (without its top-level model)
 * and turns remote apps off; the native file is never changed, and a later start does not ask again.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { afterEach, expect, it } from 'vitest';

const SERVE = fileURLToPath(new URL('../dist/serve.js', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts serve.js over stdio, waits for its answer to `executor/info`, then closes stdin and waits for the exit. */
async function serveOnce(args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, [SERVE, '--stdio', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'executor/info', params: {} })}\n`);
  const answer = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', resolve);
    void exited.then(() => reject(new Error(`the executor exited: ${stderr}`)));
  });
  child.stdin.end();
  expect(await exited).toBe(0);
  return answer;
}

it('migrates the native config as the host answered, once, and never changes the native file', { timeout: 120_000 }, async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-first-start-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const userHome = join(root, 'home');
  const executorHome = join(root, 'executor');
  await mkdir(join(userHome, '.codex'), { recursive: true });
  const native = '# my CLI settings\nmodel = "o3"\nmodel_provider = "openai"\n\n[features]\nplugins = false\n';
  await writeFile(join(userHome, '.codex', 'config.toml'), native);
  const env = { ...process.env, HOME: userHome };
  const args = ['--executor-home', executorHome, '--workspace', root, '--migrate-config', 'native', '--remote-apps', 'off'];

  expect(await serveOnce(args, env)).toContain('"result"');
  const migratedText = await readFile(join(executorHome, 'codex', 'config.toml'), 'utf8');
  const migrated = parseToml(migratedText) as Record<string, unknown>;
  expect(migrated['model']).toBeUndefined();
  expect(migrated['model_provider']).toBe('openai');
  expect(migrated['personality']).toBe('pragmatic');
  expect(migrated['features']).toEqual({ plugins: false, apps: false });
  expect(migratedText).toContain('# my CLI settings');
  expect(JSON.parse(await readFile(join(executorHome, 'codex', 'wework-home.json'), 'utf8'))).toMatchObject({ configSource: 'native', remoteApps: false });
  expect(await readFile(join(userHome, '.codex', 'config.toml'), 'utf8')).toBe(native);

  // A later start with another answer changes nothing: the question was answered once.
  expect(await serveOnce(['--executor-home', executorHome, '--workspace', root, '--migrate-config', 'fresh'], env)).toContain('"result"');
  expect(await readFile(join(executorHome, 'codex', 'config.toml'), 'utf8')).toBe(migratedText);
});
