/**
 * Import cost of the protocol library: `import('@wework/codex-protocol')` (its built dist, as a
 * host loads it) against a bare `import('io-ts')`, each in a fresh Node process, timed inside the
 * process around the import alone (Node's own start is in neither). Runs alternate in pairs so
 * both see the same machine load. Reported: both medians, their difference (goal ≤ 30 ms) and the
 * ratio.
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { summarize, type Summary } from './stats.js';

const execFileAsync = promisify(execFile);
const RUNS = Number(process.env['BENCH_IMPORT_RUNS'] ?? 21);
/** The goal: what the library may add to io-ts, in milliseconds. */
const GOAL_MS = 30;
/** Where the packages resolve from: the bench package itself. */
const benchRoot = dirname(dirname(fileURLToPath(import.meta.url)));

const probe = (specifier: string): string =>
  `const t0 = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t0);`;

async function importTime(specifier: string): Promise<number> {
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', probe(specifier)], { cwd: benchRoot });
  return Number(stdout.trim());
}

const fmt = (s: Summary): string => `median ${s.median.toFixed(1)} ms, p90 ${s.p90.toFixed(1)} ms (n=${s.n})`;

/** Runs the benchmark and returns the lines to print. */
export async function benchProtocolImport(): Promise<string[]> {
  const bare: number[] = [];
  const library: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    bare.push(await importTime('io-ts'));
    library.push(await importTime('@wework/codex-protocol'));
  }
  const baseline = summarize(bare);
  const measured = summarize(library);
  const difference = measured.median - baseline.median;
  return [
    'import of @wework/codex-protocol (built dist), fresh Node processes',
    `  baseline  import('io-ts'):                  ${fmt(baseline)}`,
    `  measured  import('@wework/codex-protocol'): ${fmt(measured)}`,
    `  difference of medians: ${difference.toFixed(1)} ms (goal ≤ ${GOAL_MS} ms) ${difference <= GOAL_MS ? 'ok' : 'ABOVE GOAL'}; ratio ${(measured.median / baseline.median).toFixed(2)}×`,
  ];
}
