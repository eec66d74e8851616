/**
 * Temporary CODEX_HOME, HOME and working directory for one end-to-end test, with a config.toml that
 * keeps the app-server offline and failing fast.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CodexSandbox {
  readonly codexHome: string;
  readonly home: string;
  readonly cwd: string;
  /** The environment to give the child: PATH only, so no credential of the host leaks in. */
  readonly env: Readonly<Record<string, string | undefined>>;
  remove(): Promise<void>;
}

export interface CodexSandboxOptions {
  /** Base URL (ending in /v1) of a loopback Responses API server to use as the model. */
  readonly modelBaseUrl?: string;
}

export async function createCodexSandbox(options: CodexSandboxOptions = {}): Promise<CodexSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'app-server-client-e2e-'));
  const codexHome = join(root, 'codex-home');
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  await Promise.all([mkdir(codexHome), mkdir(home), mkdir(cwd)]);
  const lines: string[] = [];
  if (options.modelBaseUrl !== undefined) {
    lines.push(
      'model_provider = "mock"',
      'model = "mock-model"',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${options.modelBaseUrl}"`,
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      'unbounded_connection_retries = false',
      '',
    );
  }
  lines.push('[features]', 'plugins = false', '');
  await writeFile(join(codexHome, 'config.toml'), lines.join('\n'));
  return {
    codexHome,
    home,
    cwd,
    env: { PATH: process.env['PATH'] },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
