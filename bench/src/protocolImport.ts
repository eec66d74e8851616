/**
 * Import cost of the protocol library: `import('@wework/codex-protocol')` (its built dist, as a
 * host loads it) against a bare `import('io-ts')`, each in a fresh Node process, timed inside the
 * process around the import alone (Node's own start is in neither). Runs are interleaved pairs so
 * both see the same machine load. Reported: the median of the per-pair ratios with its spread, and
 * the difference of the two sides' medians over the same pairs (goal ≤ 30 ms).
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { comparePaired, sidesLine, verdictLine } from './stats.js';

const execFileAsync = promisify(execFile);
const RUNS = Number(process.env['BENCH_IMPORT_RUNS'] ?? 10);
/** The goal: what the library may add to io-ts, in milliseconds. */
const GOAL_MS = 30;
/** Where the packages resolve from: the bench package itself. */
const benchRoot = dirname(dirname(fileURLToPath(import.meta.url)));

// Written with process.stdout.write: console.log colours numbers when FORCE_COLOR is set (nx sets it), which would not parse.
const probe = (specifier: string): string =>
  `const t0 = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t0));`;

async function importTime(specifier: string): Promise<number> {
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', probe(specifier)], { cwd: benchRoot });
  const ms = Number(stdout.trim());
  if (!Number.isFinite(ms)) throw new Error(`the import probe printed no time: ${JSON.stringify(stdout.slice(0, 200))}`);
  return ms;
}

/** Runs the benchmark and returns the lines to print. */
export async function benchProtocolImport(): Promise<string[]> {
  const result = await comparePaired(() => importTime('@wework/codex-protocol'), () => importTime('io-ts'), { pairs: RUNS, warmup: 1, maxBatches: 3 });
  const difference = result.a.median - result.b.median;
  return [
    'import of @wework/codex-protocol (built dist) vs import of io-ts, fresh Node processes',
    verdictLine("import('@wework/codex-protocol') / import('io-ts')", result, null),
    sidesLine('codex-protocol', 'io-ts', result),
    `  difference of the medians: ${difference.toFixed(1)} ms goal ≤ ${GOAL_MS} ms ${difference <= GOAL_MS ? 'met' : 'NOT met'}`,
  ];
}
