/**
 * An older release of Codex from the npm registry, for tests of the supported-version check: the native
 * binary of `@openai/codex@<version>-<platform>`, fetched with `npm pack` once into `node_modules/.cache`
 * (a clean clone fetches it on first use; later runs reuse it).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The release the tests use: older than the pinned 0.171.0, outside the supported range. */
export const OLDER_CODEX_VERSION = '0.169.0';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** The native binary of Codex `version` for this machine (Linux x64 only), fetched on first use. */
export async function olderCodexBinary(version: string = OLDER_CODEX_VERSION): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('the older Codex is fetched for Linux x64 only');
  const dir = join(repositoryRoot, 'node_modules', '.cache', 'wework-older-codex', version);
  const binary = join(dir, 'package', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
  if (existsSync(binary)) return binary;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const { stdout } = await run('npm', ['pack', `@openai/codex@${version}-linux-x64`, '--pack-destination', dir, '--silent'], { cwd: dir, timeout: 300_000, maxBuffer: 1024 * 1024 });
  const tarball = stdout.trim().split('\n').pop() ?? '';
  await run('tar', ['xzf', join(dir, tarball), '-C', dir, 'package/vendor/x86_64-unknown-linux-musl/bin/codex'], { timeout: 120_000 });
  await rm(join(dir, tarball), { force: true });
  if (!existsSync(binary)) throw new Error(`the package of Codex ${version} has no Linux x64 binary where expected`);
  return binary;
}
