/**
 * What a user feels per turn: one scripted turn through the desktop executor's `message/send`
 * (`serve.js --stdio`, host protocol, answered when the turn completed) against the same turn on a
 * raw line-pipe JSON-RPC client of `codex app-server` (`turn/start` → `turn/completed`), the same
 * Codex binary and the same scripted model; the same raw turn against `@wework/app-server-client`'s
 * `runTurn` (the library under the executor). Then 8 turns at once: 8 tasks through one executor
 * against 8 threads on one raw app-server that keeps the spec's thread rules (at most four idle
 * threads, resumes carrying the permission profile: `specRawClient.ts`), and, for reading, against 8
 * threads on a raw app-server that keeps none (throughput). Optionally the same turn through
 * `@openai/codex-sdk` (`thread.run`, which starts `codex exec` per turn), installed on demand into a
 * temporary folder and pointed at the same Codex binary; skipped with a note when it cannot be
 * installed.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { ThreadStart } from '@wework/codex-protocol';
import { isTurnEnded, runTurn } from '@wework/app-server-client';
import { spawnAppServer, type SpawnedAppServer } from '@wework/app-server-client/node';
import type { LineClient } from './lineClient.js';
import { nativeCodex, rawServer, rawThread, rawTurn } from './rawClient.js';
import { SpecRawClient } from './specRawClient.js';
import { comparePaired, sidesLine, verdictLine, type Plan } from './stats.js';
import { box, executorTask, executorTurn, Rig, timed, type Box } from './turnRig.js';

const TURN_PLAN: Plan = { pairs: Number(process.env['BENCH_TURN_PAIRS'] ?? 15), warmup: 3, maxBatches: 5 };
const CONCURRENT_PLAN: Plan = { pairs: Number(process.env['BENCH_CONCURRENT_PAIRS'] ?? 6), warmup: 1, maxBatches: 4 };
const SDK_PLAN: Plan = { pairs: Number(process.env['BENCH_SDK_PAIRS'] ?? 6), warmup: 1, maxBatches: 3 };
const CONCURRENCY = 8;

/** Installs `@openai/codex-sdk` into `prefix`; answers its entry module or why not. */
async function installSdk(prefix: string): Promise<E.Either<string, string>> {
  try {
    await promisify(execFile)('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '@openai/codex-sdk'], { timeout: 180_000 });
    // ESM only: the entry is the `import` export of its package.json.
    const packageDir = join(prefix, 'node_modules', '@openai', 'codex-sdk');
    const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { exports?: unknown; module?: string; main?: string };
    const dot = (manifest.exports as Record<string, unknown> | undefined)?.['.'];
    const target = typeof dot === 'string' ? dot : typeof dot === 'object' && dot !== null ? ((dot as Record<string, unknown>)['import'] ?? (dot as Record<string, unknown>)['default']) : (manifest.module ?? manifest.main);
    if (typeof target !== 'string') return E.left('its package.json names no ES module entry');
    return E.right(pathToFileURL(join(packageDir, target)).href);
  } catch (error) {
    return E.left(error instanceof Error ? (error.message.split('\n')[0] ?? 'npm install failed') : 'npm install failed');
  }
}

interface SdkThread {
  run(input: string): Promise<unknown>;
}
interface SdkModule {
  Codex: new (options: { codexPathOverride?: string; env?: Record<string, string> }) => { startThread(options: { workingDirectory?: string; skipGitRepoCheck?: boolean }): SdkThread };
}

/** Runs the comparisons and returns printable lines. */
export async function benchExecutorTurn(): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'bench-turn-'));
  const lines: string[] = ['turn through the executor (message/send, stdio) vs a raw line-pipe client of codex app-server; same Codex, scripted model'];
  const rig = new Rig(root);
  try {
    const { box: executorBox, exec } = await rig.executorSide();
    const rawBox = await rig.box('raw', 'codex-home');
    const raw = rig.own(await rawServer(rawBox), false);

    await executorTask(exec, executorBox, 'single');
    const rawSingle = await rawThread(raw, rawBox);
    const single = await comparePaired(
      () => timed(() => executorTurn(exec, 'single')),
      () => timed(() => rawTurn(raw, rawSingle)),
      TURN_PLAN,
    );
    lines.push(verdictLine('one-message turn, executor / raw app-server', single, { atMost: 1.1 }), sidesLine('executor', 'raw', single));

    const clientBox = await rig.box('client', 'codex-home');
    const spawned = await spawnAppServer({ codexHome: clientBox.codexHome, home: clientBox.home, cwd: clientBox.workspace, env: process.env });
    if (E.isLeft(spawned)) throw new Error(`spawnAppServer: ${spawned.left._tag}`);
    const server: SpawnedAppServer = spawned.right;
    try {
      const thread = await server.client.request(ThreadStart, { cwd: clientBox.workspace });
      if (E.isLeft(thread)) throw new Error('thread/start failed');
      const clientThread = thread.right.thread.id;
      const clientTurn = async (): Promise<void> => {
        const outcome = await runTurn(server.client, { threadId: clientThread, input: [{ type: 'text', text: 'hi', text_elements: [] }] });
        if (!isTurnEnded(outcome)) throw new Error(`turn did not complete: ${outcome._tag}`);
      };
      const library = await comparePaired(
        () => timed(clientTurn),
        () => timed(() => rawTurn(raw, rawSingle)),
        TURN_PLAN,
      );
      lines.push(verdictLine('one-message turn, app-server-client runTurn / raw app-server', library, { atMost: 1.05 }), sidesLine('app-server-client', 'raw', library));
    } finally {
      await server.dispose();
    }

    const taskIds = Array.from({ length: CONCURRENCY }, (_, i) => `parallel-${i}`);
    for (const taskId of taskIds) await executorTask(exec, executorBox, taskId);
    const executorRound = (): Promise<number> => timed(() => Promise.all(taskIds.map((taskId) => executorTurn(exec, taskId))));

    // The baseline that keeps the spec's rules: its own raw app-server (its own idle threads) on a box of its own.
    const specBox = await rig.box('spec', 'codex-home');
    const spec = new SpecRawClient(rig.own(await rawServer(specBox), false), specBox);
    const specThreads: string[] = [];
    for (let i = 0; i < CONCURRENCY; i++) specThreads.push(await spec.thread());
    // Pair = (baseline round time, executor round time): the ratio is the executor's throughput relative to it.
    const fair = await comparePaired(() => timed(() => Promise.all(specThreads.map((threadId) => spec.turn(threadId)))), executorRound, CONCURRENT_PLAN);
    lines.push(
      verdictLine(`${CONCURRENCY} turns at once, executor throughput / raw app-server keeping the spec's thread rules`, fair, { atLeast: 0.95 }),
      sidesLine(`spec-keeping raw ${CONCURRENCY}-turn round`, `executor ${CONCURRENCY}-turn round`, fair),
    );

    const threadIds: string[] = [];
    for (let i = 0; i < CONCURRENCY; i++) threadIds.push(await rawThread(raw, rawBox));
    const parallel = await comparePaired(() => timed(() => Promise.all(threadIds.map((threadId) => rawTurn(raw, threadId)))), executorRound, CONCURRENT_PLAN);
    lines.push(
      verdictLine(`${CONCURRENCY} turns at once, executor throughput / raw app-server keeping no thread rule (for reading)`, parallel, null),
      sidesLine(`raw ${CONCURRENCY}-turn round`, `executor ${CONCURRENCY}-turn round`, parallel),
    );

    lines.push(...(await sdkComparison(root, exec, executorBox)));
    return lines;
  } finally {
    await rig.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function sdkComparison(root: string, exec: LineClient, executorBox: Box): Promise<string[]> {
  if (process.env['BENCH_SKIP_SDK'] === '1') return ['  @openai/codex-sdk line skipped (BENCH_SKIP_SDK=1)'];
  const binary = nativeCodex();
  if (binary === '') return ['  @openai/codex-sdk line skipped: the pinned Codex resolves to a wrapper, not a native binary'];
  const prefix = join(root, 'sdk');
  await mkdir(prefix, { recursive: true });
  const entry = await installSdk(prefix);
  if (E.isLeft(entry)) return [`  @openai/codex-sdk line skipped: it could not be installed (${entry.left.slice(0, 160)})`];
  const sdkBox = await box(root, 'sdk', 'codex-home');
  try {
    const { Codex } = (await import(entry.right)) as SdkModule;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    const codex = new Codex({ codexPathOverride: binary, env: { ...env, CODEX_HOME: sdkBox.codexHome, HOME: sdkBox.home } });
    const thread = codex.startThread({ workingDirectory: sdkBox.workspace, skipGitRepoCheck: true });
    await executorTask(exec, executorBox, 'sdk-pair');
    const result = await comparePaired(
      () => timed(() => executorTurn(exec, 'sdk-pair')),
      () => timed(() => thread.run('hi')),
      SDK_PLAN,
    );
    return [verdictLine('one-message turn, executor / @openai/codex-sdk thread.run', result, { atMost: 0.35 }), sidesLine('executor', 'sdk', result)];
  } catch (error) {
    return [`  @openai/codex-sdk line skipped: ${error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) : 'it failed'}`];
  } finally {
    await sdkBox.model.close();
  }
}
