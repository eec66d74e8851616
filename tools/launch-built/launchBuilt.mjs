/**
 * The entry of a repository command (a package `bin`): runs the command's built CLI, and builds its
 * project first when this checkout has not been built yet — a fresh clone right after `npm ci`.
 *
 * npm links a `bin` only when its target exists at install time, so a `bin` that names the build
 * output is skipped in a fresh clone, and `npx <name>` then looks the name up in the registry. The
 * `bin` is therefore a small committed file that calls this. The build's own output goes to stderr,
 * so the command's stdout stays its own (`--version` prints only the version).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Imports the built CLI `entry` (relative to `binUrl`, the bin's `import.meta.url`), building nx
 * project `project` first when it is missing. Exits 2 when the build fails.
 * @param {string} binUrl
 * @param {{ readonly entry: string, readonly project: string }} command
 * @returns {Promise<void>}
 */
export async function launchBuilt(binUrl, command) {
  const built = new URL(command.entry, binUrl);
  if (!existsSync(built)) {
    process.stderr.write(`${command.project} is not built in this checkout yet: building it once (nx run ${command.project}:build)\n`);
    const nxPackage = createRequire(join(repositoryRoot, 'package.json')).resolve('nx/package.json');
    const nx = join(nxPackage, '..', JSON.parse(readFileSync(nxPackage, 'utf8')).bin.nx);
    const result = spawnSync(process.execPath, [nx, 'run', `${command.project}:build`, '--output-style=static'], {
      cwd: repositoryRoot,
      stdio: ['ignore', 2, 2],
      env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false' },
      timeout: 15 * 60_000,
    });
    if (result.status !== 0 || !existsSync(built)) {
      process.stderr.write(`the build of ${command.project} failed; run \`npm run build\` in the repository and try again\n`);
      process.exit(2);
    }
  }
  await import(built.href);
}
