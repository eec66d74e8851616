/**
 * CPU per turn: what a one-message turn costs the machine, not only how long it takes. The executor
 * process with its Codex child (`serve.js --stdio`, `message/send`) against the raw line-pipe client
 * of `rawClient.ts` run in a process of its own (`rawTurnProcess.js`) with its Codex child: each side
 * counts the adapter and the Codex it started, from `/proc` (`procCpu.ts`), and neither counts the
 * bench process, which drives both and serves both scripted models. A sample is the CPU of a run of
 * turns divided by their number; samples run as interleaved pairs (goal ≤ 1.06×).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineClient } from './lineClient.js';
import { canReadTreeCpu, cpuPerTurn } from './procCpu.js';
import { resultOf } from './rawClient.js';
import { comparePaired, verdictLine, type Comparison, type Plan } from './stats.js';
import { executorTask, executorTurn, Rig, type Box } from './turnRig.js';

/** Pairs of samples; each sample is {@link TURNS_PER_SAMPLE} turns. */
export const CPU_PLAN: Plan = { pairs: Number(process.env['BENCH_CPU_PAIRS'] ?? 6), warmup: 1, maxBatches: 3 };
/** Turns per sample: the `/proc` clock ticks are 10 ms, so a sample holds about a second of CPU. */
export const TURNS_PER_SAMPLE = Number(process.env['BENCH_CPU_TURNS'] ?? 10);

/** The line under a CPU verdict: both medians, per turn. */
export const cpuSidesLine = (aLabel: string, bLabel: string, result: Comparison): string =>
  `    ${aLabel} median ${result.a.median.toFixed(1)} ms CPU per turn · ${bLabel} median ${result.b.median.toFixed(1)} ms CPU per turn (${TURNS_PER_SAMPLE} turns a sample, adapter and its Codex)`;

/** The raw client in a process of its own, with one thread. */
async function rawProcess(b: Box): Promise<{ readonly client: LineClient; readonly turn: () => Promise<void> }> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'rawTurnProcess.js');
  const client = new LineClient(process.execPath, [script, b.codexHome, b.home, b.workspace], { ...process.env }, b.workspace);
  const { threadId } = resultOf(await client.request('thread', {}), 'thread') as { threadId: string };
  return { client, turn: async () => void resultOf(await client.request('turn', { threadId }), 'turn') };
}

/** Runs the comparison and returns printable lines. */
export async function benchTurnCpu(): Promise<string[]> {
  if (!canReadTreeCpu()) return ['CPU per turn skipped: this system has no /proc/<pid>/stat and task children files'];
  const root = await mkdtemp(join(tmpdir(), 'bench-cpu-'));
  const rig = new Rig(root);
  try {
    const { box: executorBox, exec } = await rig.executorSide();
    const raw = await rawProcess(await rig.box('raw', 'codex-home'));
    rig.own(raw.client, true);
    await executorTask(exec, executorBox, 'cpu');
    const result = await comparePaired(
      () => cpuPerTurn(exec.pid, TURNS_PER_SAMPLE, () => executorTurn(exec, 'cpu')),
      () => cpuPerTurn(raw.client.pid, TURNS_PER_SAMPLE, raw.turn),
      CPU_PLAN,
    );
    return [
      'CPU per turn: executor process + its Codex vs the raw line-pipe client in its own process + its Codex; same Codex, scripted model',
      verdictLine('CPU per one-message turn, executor / raw app-server client', result, { atMost: 1.06 }),
      cpuSidesLine('executor', 'raw', result),
    ];
  } finally {
    await rig.close();
    await rm(root, { recursive: true, force: true });
  }
}
