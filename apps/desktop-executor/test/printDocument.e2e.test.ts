/**
 * `serve.js --print-schema` and `--print-openrpc` print the host protocol's committed documents (the
 * files `@wework/host-protocol` ships as `./schema.json` and `./openrpc.json`) and exit 0, starting
 * nothing: the executor home they name is never created.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const SERVE = fileURLToPath(new URL('../dist/serve.js', import.meta.url));
const require = createRequire(import.meta.url);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'executor-print-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs serve.js with `args` to its end: its exit code and what it printed. */
function run(args: ReadonlyArray<string>): Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }> {
  const child = spawn(process.execPath, [SERVE, ...args], { env: { ...process.env, HOME: join(root, 'home') }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })));
}

it.each([
  ['--print-schema', '@wework/host-protocol/schema.json'],
  ['--print-openrpc', '@wework/host-protocol/openrpc.json'],
])('%s prints %s and exits 0, starting nothing', async (flag, document) => {
  const executorHome = join(root, `executor${flag}`);
  const printed = await run([flag, '--executor-home', executorHome]);
  expect(printed.code, printed.stderr).toBe(0);
  expect(printed.stdout).toBe(await readFile(require.resolve(document), 'utf8'));
  expect(existsSync(executorHome)).toBe(false);
}, 30_000);
