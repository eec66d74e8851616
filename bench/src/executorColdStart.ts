/**
 * Executor cold start against a bare app-server start: the desktop executor's serve entry spawned as a
 * process (fresh executor home: Codex home preparation, the app-server spawned and initialized, the
 * host connection served) until it answers its first host request (`executor/info`), against
 * `spawnAppServer` alone until the app-server answered `initialize`. Both start from an empty home with
 * the same offline config.toml; runs alternate so they see the same machine load. Reported: the ratio
 * of the medians (goal ≤ 1.2×).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import * as E from 'fp-ts/lib/Either.js';
import { spawnAppServer } from '@wework/app-server-client/node';
import { summarize, type Summary } from './stats.js';

/** The executor's serve entry (built), found through its package like any host would. */
const servePath = (): string => join(dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json')), 'dist', 'serve.js');

const RUNS = Number(process.env['BENCH_EXECUTOR_RUNS'] ?? 7);
/** No network at start (curated plugin sync off). */
const CONFIG = '[features]\nplugins = false\n';

async function freshDirs(root: string, name: string): Promise<{ readonly executorHome: string; readonly codexHome: string; readonly userHome: string; readonly workspace: string }> {
  const base = join(root, name);
  const dirs = { executorHome: join(base, 'executor'), codexHome: join(base, 'executor', 'codex'), userHome: join(base, 'home'), workspace: join(base, 'workspace') };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  await writeFile(join(dirs.codexHome, 'config.toml'), CONFIG, { mode: 0o600 });
  return dirs;
}

async function executorStart(root: string, run: number): Promise<number> {
  const dirs = await freshDirs(root, `executor-${run}`);
  const start = performance.now();
  const child = spawn(process.execPath, [servePath(), '--stdio', '--executor-home', dirs.executorHome, '--workspace', dirs.workspace], {
    env: { ...process.env, HOME: dirs.userHome },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    // The first host request, as one line of the host protocol; the executor answers once it is ready.
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'executor/info', params: {} })}\n`);
    const answered = await Promise.race([
      new Promise<string>((resolve) => {
        const lines = createInterface({ input: child.stdout });
        lines.on('line', (line) => {
          if ((JSON.parse(line) as { id?: unknown }).id === 1) resolve(line);
        });
      }),
      exited.then(() => null),
    ]);
    const elapsed = performance.now() - start;
    if (answered === null || !answered.includes('"result"')) throw new Error(`executor/info failed: ${answered ?? 'the executor exited'}\n${stderr}`);
    return elapsed;
  } finally {
    // Closing stdin ends the executor and its app-server.
    child.stdin.end();
    await exited;
  }
}

async function bareStart(root: string, run: number): Promise<number> {
  const dirs = await freshDirs(root, `bare-${run}`);
  const start = performance.now();
  const spawned = await spawnAppServer({ codexHome: dirs.codexHome, home: dirs.userHome, cwd: dirs.workspace, env: process.env });
  const elapsed = performance.now() - start;
  if (E.isLeft(spawned)) throw new Error(`the app-server did not start: ${spawned.left._tag}`);
  await spawned.right.dispose();
  return elapsed;
}

const line = (label: string, s: Summary): string => `  ${label.padEnd(40)} median ${s.median.toFixed(1)} ms  p90 ${s.p90.toFixed(1)} ms  (n=${s.n})`;

/** Runs the benchmark and returns printable lines. */
export async function benchExecutorColdStart(): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-executor-'));
  try {
    // One warm-up of each (disk caches, the Node and Codex binaries paged in).
    await executorStart(root, -1);
    await bareStart(root, -1);
    const executor: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        executor.push(await executorStart(root, i));
        bare.push(await bareStart(root, i));
      } else {
        bare.push(await bareStart(root, i));
        executor.push(await executorStart(root, i));
      }
    }
    const e = summarize(executor);
    const b = summarize(bare);
    const ratio = e.median / b.median;
    return [
      'Executor cold start (serve entry → first host answer) vs bare app-server (spawn → initialize)',
      line('executor serve.js → executor/info', e),
      line('spawnAppServer → initialize', b),
      `  ratio (median) executor / bare app-server: ${ratio.toFixed(3)}× (goal ≤ 1.2×) ${ratio <= 1.2 ? 'ok' : 'ABOVE GOAL'}`,
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
