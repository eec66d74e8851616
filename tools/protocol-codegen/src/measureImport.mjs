/**
 * Measures how long importing the built barrel of libs/codex-protocol takes, in fresh Node
 * processes, split into its dependencies (io-ts, fp-ts) and the library itself. Informs how
 * much of the protocol the config can afford to cover. Needs `dist/` (build the library first).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { libRoot } from './paths.mjs';

const execFileAsync = promisify(execFile);

const probe = `
const t0 = performance.now();
await import('io-ts'); await import('fp-ts/lib/Either.js'); await import('fp-ts/lib/function.js');
const t1 = performance.now();
await import(process.argv[1]);
const t2 = performance.now();
console.log(JSON.stringify({ dependencies: t1 - t0, library: t2 - t1 }));
`;

/**
 * @param {number} runs
 * @returns {Promise<{ runs: number, dependencies: number, library: number, total: number }>} medians in ms
 */
export async function measureImport(runs = 15) {
  const entry = join(libRoot, 'dist', 'index.js');
  if (!existsSync(entry)) throw new Error('libs/codex-protocol/dist/index.js is missing: build the library first');
  /** @type {{ dependencies: number, library: number }[]} */
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', probe, pathToFileURL(entry).href], { cwd: libRoot });
    samples.push(JSON.parse(stdout));
  }
  const median = (/** @type {number[]} */ xs) => /** @type {number} */ ([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
  const dependencies = median(samples.map((s) => s.dependencies));
  const library = median(samples.map((s) => s.library));
  const total = median(samples.map((s) => s.dependencies + s.library));
  return { runs, dependencies, library, total };
}
