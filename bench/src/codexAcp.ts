/**
 * The peer a user would pick instead of the executor: `@agentclientprotocol/codex-acp`, the Agent
 * Client Protocol adapter for Codex, installed on demand (never a dependency) into a cache folder
 * under the repository's `node_modules/.cache`, reused by later runs. It speaks ACP (line-delimited
 * JSON-RPC over stdio: `initialize`, `session/new`, `session/prompt`) and starts `codex app-server`
 * itself: `CODEX_PATH` picks the binary (the pinned native Codex here), `CODEX_HOME` the home, whose
 * config.toml names the scripted model as a custom provider, so no login is needed.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { LineClient } from './lineClient.js';
import { codexEnv, resultOf, type Dirs } from './rawClient.js';

/** The version measured (the registry's at the time of writing); a cached install of another is replaced. */
export const CODEX_ACP_VERSION = '2.6.0';
const PACKAGE = '@agentclientprotocol/codex-acp';

/** `<repository>/node_modules/.cache/bench-codex-acp` (this file is built into `bench/dist`). */
const cacheFolder = (): string => join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.cache', 'bench-codex-acp');

const installedVersion = async (packageDir: string): Promise<string | null> => {
  try {
    return (JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
};

/**
 * The adapter's entry script: from the cache folder when it holds {@link CODEX_ACP_VERSION}, else
 * installed there first (`npm install --prefix`, no scripts, no optional packages: its own Codex
 * binary is not needed); or why not.
 */
export async function installCodexAcp(): Promise<E.Either<string, string>> {
  const prefix = cacheFolder();
  const packageDir = join(prefix, 'node_modules', ...PACKAGE.split('/'));
  const entry = async (): Promise<E.Either<string, string>> => {
    const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
    const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.['codex-acp'];
    return bin === undefined ? E.left('its package.json names no codex-acp bin') : E.right(join(packageDir, bin));
  };
  if ((await installedVersion(packageDir)) === CODEX_ACP_VERSION) return entry();
  try {
    await mkdir(prefix, { recursive: true });
    await promisify(execFile)('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--omit=optional', '--no-save', `${PACKAGE}@${CODEX_ACP_VERSION}`], { timeout: 180_000 });
    return await entry();
  } catch (error) {
    return E.left(npmFailure(error));
  }
}

/** npm's own reason (its `npm error code …` line) rather than the command line that failed. */
const npmFailure = (error: unknown): string => {
  const stderr = typeof error === 'object' && error !== null && typeof (error as { stderr?: unknown }).stderr === 'string' ? (error as { stderr: string }).stderr : '';
  const reason = stderr.split('\n').find((line) => /^npm (error|ERR!) code /.test(line));
  return reason ?? (error instanceof Error && (error as { killed?: boolean }).killed === true ? 'npm install timed out' : 'npm install failed');
};

/** Spawns codex-acp (not yet initialized) on the pinned native Codex. */
export const spawnCodexAcp = (entry: string, codexBinary: string, dirs: Dirs): LineClient => new LineClient(process.execPath, [entry], { ...codexEnv(dirs), CODEX_PATH: codexBinary }, dirs.workspace);

/** The ACP `initialize` request. */
export const ACP_INITIALIZE = { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'bench', version: '0' } } as const;

/** Initializes a spawned codex-acp. */
export async function initializeAcp(client: LineClient): Promise<void> {
  resultOf(await client.request('initialize', ACP_INITIALIZE), 'initialize');
}

/** `session/new` in the workspace; answers the session id. */
export async function acpSession(client: LineClient, dirs: Dirs): Promise<string> {
  const session = resultOf(await client.request('session/new', { cwd: dirs.workspace, mcpServers: [] }), 'session/new');
  return String(session['sessionId']);
}

/** One `session/prompt`, answered when the turn ended. */
export async function acpPrompt(client: LineClient, sessionId: string): Promise<void> {
  const answer = resultOf(await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] }), 'session/prompt');
  if (answer['stopReason'] !== 'end_turn') throw new Error(`session/prompt ended ${String(answer['stopReason'])}`);
}
