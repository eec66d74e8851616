/**
 * Executor cold start against the way npm users start Codex: the desktop executor's serve entry
 * spawned as a process (`serve.js --stdio`, fresh executor home: Codex home preparation, the
 * app-server spawned and initialized, the host connection served) until it answers its first host
 * request (`executor/info`), against `node node_modules/@openai/codex/bin/codex.js app-server` (the
 * npm wrapper of the same pinned Codex) until it answered `initialize`. Both start from an empty
 * home with the same offline config.toml and get their first request written right after the spawn;
 * starts run as interleaved pairs. For reading: the wrapper keeps none of the spec's start-up rules,
 * so its start is below any executor's (the goals against the peer are in `peerCodexAcp.ts`).
 *
 * Then the start a user has every day after the first: each side on a home it has started in before
 * (the executor's home prepared, Codex's databases and system skills in place).
 *
 * Last, on such homes, the floor (`coldStartFloor.ts`: the least any executor keeping the spec's
 * start-up rules does, in Node built-ins only) against the same wrapper, for reading: how much room
 * the goal leaves an executor's own work; and the executor against the floor itself (goal ≤ 1.15×):
 * the fair baseline of the everyday start, since no executor keeping those rules starts below it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { resolveCodexCommand } from '@wework/app-server-client/node';
import { LineClient } from './lineClient.js';
import { comparePaired, sidesLine, verdictLine, type Plan } from './stats.js';

const resolver = createRequire(import.meta.url);
/** The executor's serve entry (built), found through its package like any host would. */
const servePath = (): string => join(dirname(resolver.resolve('@wework/desktop-executor/package.json')), 'dist', 'serve.js');
/** The npm wrapper of the pinned Codex. */
const codexWrapper = (): string => join(dirname(resolver.resolve('@openai/codex/package.json')), 'bin', 'codex.js');

const PLAN: Plan = { pairs: Number(process.env['BENCH_EXECUTOR_RUNS'] ?? 8), warmup: 1, maxBatches: 4 };
/** No network at start (curated plugin sync off). */
const CONFIG = '[features]\nplugins = false\n';

export async function freshDirs(root: string, name: string): Promise<{ readonly executorHome: string; readonly codexHome: string; readonly userHome: string; readonly workspace: string }> {
  const base = join(root, name);
  const dirs = { executorHome: join(base, 'executor'), codexHome: join(base, 'executor', 'codex'), userHome: join(base, 'home'), workspace: join(base, 'workspace') };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  await writeFile(join(dirs.codexHome, 'config.toml'), CONFIG, { mode: 0o600 });
  return dirs;
}

/** Spawns, asks, and answers the time until the answer came; the process is ended untimed. */
export async function timedStart(spawn: () => LineClient, method: string, params: unknown, graceful: boolean): Promise<number> {
  const start = performance.now();
  const client = spawn();
  try {
    const answer = await client.request(method, params, 60_000);
    const elapsed = performance.now() - start;
    if (answer.result === undefined) throw new Error(`${method} failed at start`);
    return elapsed;
  } finally {
    await client.close(graceful);
  }
}

let run = 0;

/** The dirs of a start: fresh ones, or always the same `reused` ones (a home started in before). */
export type Homes = (side: 'executor' | 'codex' | 'floor' | 'acp') => ReturnType<typeof freshDirs>;

export const freshHomes = (root: string): Homes => (side) => freshDirs(root, `${side}-${run++}`);

/** One home per side, made (and first started in, untimed, by the warm-up pair) once. */
export const reusedHomes = (root: string): Homes => {
  const made = new Map<string, ReturnType<typeof freshDirs>>();
  return (side) => {
    const dirs = made.get(side) ?? freshDirs(root, `reused-${side}`);
    made.set(side, dirs);
    return dirs;
  };
};

export async function executorStart(homes: Homes): Promise<number> {
  const dirs = await homes('executor');
  return timedStart(
    () => new LineClient(process.execPath, [servePath(), '--stdio', '--executor-home', dirs.executorHome, '--workspace', dirs.workspace], { ...process.env, HOME: dirs.userHome }, dirs.workspace),
    'executor/info',
    {},
    true,
  );
}

/** The floor script (built beside this file), spawning the resolved Codex command. */
async function floorStart(homes: Homes, codex: { readonly command: string; readonly args: ReadonlyArray<string> }): Promise<number> {
  const dirs = await homes('floor');
  const floor = join(dirname(fileURLToPath(import.meta.url)), 'coldStartFloor.js');
  return timedStart(
    () => new LineClient(process.execPath, [floor, dirs.executorHome, codex.command, ...codex.args, 'app-server'], { ...process.env, HOME: dirs.userHome }, dirs.workspace),
    'executor/info',
    {},
    true,
  );
}

async function npmCodexStart(homes: Homes): Promise<number> {
  const dirs = await homes('codex');
  return timedStart(
    () => new LineClient(process.execPath, [codexWrapper(), 'app-server'], { ...process.env, HOME: dirs.userHome, CODEX_HOME: dirs.codexHome }, dirs.workspace),
    'initialize',
    { clientInfo: { name: 'bench', title: null, version: '0' }, capabilities: { experimentalApi: true } },
    false,
  );
}

/** Runs the benchmark and returns printable lines. */
export async function benchExecutorColdStart(): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-executor-'));
  try {
    const fresh = freshHomes(root);
    const result = await comparePaired(
      () => executorStart(fresh),
      () => npmCodexStart(fresh),
      PLAN,
    );
    const reused = reusedHomes(root);
    const again = await comparePaired(
      () => executorStart(reused),
      () => npmCodexStart(reused),
      PLAN,
    );
    const codex = resolveCodexCommand();
    if (E.isLeft(codex)) throw new Error(codex.left.message);
    const floor = await comparePaired(
      () => floorStart(reused, codex.right),
      () => npmCodexStart(reused),
      PLAN,
    );
    // The fair baseline of the everyday start: the floor itself, on a home each side started in before.
    const overFloor = await comparePaired(
      () => executorStart(reused),
      () => floorStart(reused, codex.right),
      PLAN,
    );
    return [
      'cold start: serve.js --stdio → executor/info answered vs node @openai/codex/bin/codex.js app-server → initialize answered',
      verdictLine('cold start, executor / npm codex app-server (for reading)', result, null),
      sidesLine('executor', 'npm codex', result),
      verdictLine('cold start on a home started in before, executor / npm codex app-server (for reading)', again, null),
      sidesLine('executor', 'npm codex', again),
      verdictLine('the floor on a home started in before (lock, read config.toml, spawn, relay; built-ins only), floor / npm codex app-server', floor, null),
      sidesLine('floor', 'npm codex', floor),
      verdictLine('cold start on a home started in before, executor / the floor', overFloor, { atMost: 1.15 }),
      sidesLine('executor', 'floor', overFloor),
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
