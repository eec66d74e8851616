/**
 * Runs the pinned Codex CLI (`@openai/codex`, resolved as a dependency of this tool) to produce
 * the TypeScript bindings of the app-server protocol.
 */
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);

/**
 * Locates the npm wrapper script of the pinned Codex CLI and its version.
 * @returns {Promise<{ script: string, version: string }>}
 */
export async function resolveCodexCli() {
  const packageJsonPath = require.resolve('@openai/codex/package.json');
  const pkg = JSON.parse(await readFile(packageJsonPath, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.codex;
  return { script: join(dirname(packageJsonPath), bin), version: pkg.version };
}

/**
 * Builds an environment for a short-lived codex process: an empty, private CODEX_HOME and HOME
 * so that no user configuration can change the output.
 * @param {string} scratch a fresh temporary directory owned by the caller
 */
export function isolatedEnv(scratch) {
  return {
    PATH: process.env.PATH ?? '',
    CODEX_HOME: join(scratch, 'codex-home'),
    HOME: join(scratch, 'home'),
    RUST_LOG: 'error',
  };
}

/**
 * Runs `codex app-server generate-ts --experimental --out <outDir>`.
 * @param {string} outDir an empty directory to write the bindings into
 * @returns {Promise<{ version: string }>} the Codex version that produced them
 */
export async function runGenerateTs(outDir) {
  const cli = await resolveCodexCli();
  const scratch = await mkdtemp(join(tmpdir(), 'codex-generate-'));
  try {
    const env = isolatedEnv(scratch);
    await mkdir(env.CODEX_HOME, { recursive: true });
    await mkdir(env.HOME, { recursive: true });
    await execFileAsync(process.execPath, [cli.script, 'app-server', 'generate-ts', '--experimental', '--out', outDir], {
      cwd: scratch,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { version: cli.version };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
