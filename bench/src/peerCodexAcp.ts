/**
 * The executor against the peer a user would pick instead: `@agentclientprotocol/codex-acp`
 * (`codexAcp.ts`), on the same pinned Codex binary and the same scripted model, every line as
 * interleaved pairs:
 * - one-message turn: `message/send` answered against `session/prompt` answered, wall time (for
 *   reading) and CPU per turn of the adapter with its Codex (`procCpu.ts`; goal ≤ 0.85×);
 * - cold start to the first answer: `serve.js --stdio` until `executor/info` is answered against
 *   codex-acp until its `initialize` is answered, on fresh homes (goal ≤ 0.80×) and on homes each
 *   side started in before (goal ≤ 0.70×);
 * - a ready session on fresh homes: `executor/info` then `task/create` answered, against `initialize`
 *   then `session/new` answered (for reading).
 * Skipped with a note when the package cannot be installed (`BENCH_SKIP_ACP=1` skips it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { acpPrompt, acpSession, ACP_INITIALIZE, CODEX_ACP_VERSION, initializeAcp, installCodexAcp, spawnCodexAcp } from './codexAcp.js';
import { executorStart, freshHomes, reusedHomes, timedStart, type Homes } from './executorColdStart.js';
import { LineClient } from './lineClient.js';
import { canReadTreeCpu, cpuPerTurn } from './procCpu.js';
import { nativeCodex, resultOf } from './rawClient.js';
import { comparePaired, sidesLine, verdictLine, type Plan } from './stats.js';
import { executorTask, executorTurn, Rig, servePath, timed } from './turnRig.js';
import { CPU_PLAN, cpuSidesLine, TURNS_PER_SAMPLE } from './turnCpu.js';

const TURN_PLAN: Plan = { pairs: Number(process.env['BENCH_ACP_TURN_PAIRS'] ?? 15), warmup: 3, maxBatches: 5 };
const START_PLAN: Plan = { pairs: Number(process.env['BENCH_ACP_START_PAIRS'] ?? 8), warmup: 1, maxBatches: 4 };

/** Homes with the scripted model written into their Codex home (a start needs no login on either side). */
const withModel =
  (homes: Homes, model: ScriptedModel): Homes =>
  async (side) => {
    const dirs = await homes(side);
    const written = await writeScriptedModelConfig(dirs.codexHome, { baseUrl: model.url });
    if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
    return dirs;
  };

const acpDirs = async (homes: Homes): Promise<{ readonly codexHome: string; readonly home: string; readonly workspace: string }> => {
  const dirs = await homes('acp');
  return { codexHome: dirs.codexHome, home: dirs.userHome, workspace: dirs.workspace };
};

async function acpStart(homes: Homes, entry: string, binary: string): Promise<number> {
  const dirs = await acpDirs(homes);
  return timedStart(() => spawnCodexAcp(entry, binary, dirs), 'initialize', ACP_INITIALIZE, true);
}

/** Spawns, runs `ready`, and answers the time until it resolved; the process is ended untimed. */
async function timedReady(spawn: () => LineClient, ready: (client: LineClient) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  const client = spawn();
  try {
    await ready(client);
    return performance.now() - start;
  } finally {
    await client.close(true);
  }
}

async function executorReady(homes: Homes): Promise<number> {
  const dirs = await homes('executor');
  const workspace = dirs.workspace;
  return timedReady(
    () => new LineClient(process.execPath, [servePath(), '--stdio', '--executor-home', dirs.executorHome, '--workspace', workspace], { ...process.env, HOME: dirs.userHome }, workspace),
    async (client) => {
      resultOf(await client.request('executor/info', {}), 'executor/info');
      resultOf(await client.request('task/create', { taskId: 'ready', modelSelection: { model: null }, executionRequest: { workspace } }), 'task/create');
    },
  );
}

async function acpReady(homes: Homes, entry: string, binary: string): Promise<number> {
  const dirs = await acpDirs(homes);
  return timedReady(
    () => spawnCodexAcp(entry, binary, dirs),
    async (client) => {
      await initializeAcp(client);
      await acpSession(client, dirs);
    },
  );
}

/** The turn lines: wall time and CPU per turn, each side on its own box and scripted model. */
async function turnLines(root: string, entry: string, binary: string): Promise<string[]> {
  const rig = new Rig(root);
  try {
    const { box: executorBox, exec } = await rig.executorSide();
    const acpBox = await rig.box('acp', 'codex-home');
    const acp = rig.own(spawnCodexAcp(entry, binary, acpBox), true);
    await initializeAcp(acp);
    const sessionId = await acpSession(acp, acpBox);
    await executorTask(exec, executorBox, 'peer');
    const wall = await comparePaired(
      () => timed(() => executorTurn(exec, 'peer')),
      () => timed(() => acpPrompt(acp, sessionId)),
      TURN_PLAN,
    );
    const lines = [verdictLine('one-message turn (wall), executor / codex-acp', wall, null), sidesLine('executor', 'codex-acp', wall)];
    if (!canReadTreeCpu()) return [...lines, '  CPU per turn against codex-acp skipped: this system has no /proc/<pid>/stat and task children files'];
    const cpu = await comparePaired(
      () => cpuPerTurn(exec.pid, TURNS_PER_SAMPLE, () => executorTurn(exec, 'peer')),
      () => cpuPerTurn(acp.pid, TURNS_PER_SAMPLE, () => acpPrompt(acp, sessionId)),
      CPU_PLAN,
    );
    return [...lines, verdictLine('CPU per one-message turn, executor / codex-acp', cpu, { atMost: 0.85 }), cpuSidesLine('executor', 'codex-acp', cpu)];
  } finally {
    await rig.close();
  }
}

/** Runs the comparisons and returns printable lines. */
export async function benchPeerCodexAcp(): Promise<string[]> {
  const title = `the executor vs @agentclientprotocol/codex-acp ${CODEX_ACP_VERSION} (ACP adapter of Codex); same Codex binary, scripted model`;
  if (process.env['BENCH_SKIP_ACP'] === '1') return [title, '  codex-acp lines skipped (BENCH_SKIP_ACP=1)'];
  const binary = nativeCodex();
  if (binary === '') return [title, '  codex-acp lines skipped: the pinned Codex resolves to a wrapper, not a native binary'];
  const entry = await installCodexAcp();
  if (E.isLeft(entry)) return [title, `  codex-acp lines skipped: it could not be installed (${entry.left.slice(0, 160)})`];
  const root = await mkdtemp(join(tmpdir(), 'bench-peer-'));
  const model = await startScriptedModel({ script: [] });
  try {
    const lines = [title, ...(await turnLines(root, entry.right, binary))];
    const fresh = withModel(freshHomes(root), model);
    const cold = await comparePaired(() => executorStart(fresh), () => acpStart(fresh, entry.right, binary), START_PLAN);
    lines.push(verdictLine('cold start on fresh homes, executor executor/info / codex-acp initialize', cold, { atMost: 0.8 }), sidesLine('executor', 'codex-acp', cold));
    const reused = withModel(reusedHomes(root), model);
    const again = await comparePaired(() => executorStart(reused), () => acpStart(reused, entry.right, binary), START_PLAN);
    lines.push(verdictLine('cold start on homes started in before, executor / codex-acp', again, { atMost: 0.7 }), sidesLine('executor', 'codex-acp', again));
    const ready = await comparePaired(() => executorReady(fresh), () => acpReady(fresh, entry.right, binary), START_PLAN);
    lines.push(verdictLine('to a ready session on fresh homes, task/create answered / session/new answered', ready, null), sidesLine('executor', 'codex-acp', ready));
    return lines;
  } finally {
    await model.close();
    await rm(root, { recursive: true, force: true });
  }
}
