/**
 * A switch killed midway (SIGKILL of a real process at random moments) leaves auth.json holding one
 * whole account — the old or the new — never a partial file.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, expect, it } from 'vitest';
import { nodeCodexHome } from '../../src/node/index.js';
import { chatGptAuthJson } from '../../src/testing.js';
import { CANARY } from '../support.js';

const SWITCHER = fileURLToPath(new URL('../fixtures/switchForever.mjs', import.meta.url));
const KILLS = 20;

let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

const ada = chatGptAuthJson({ email: 'ada@example.com', accountId: 'acc-1', userId: 'user-1', accessToken: CANARY, refreshToken: CANARY });
const bob = chatGptAuthJson({ email: 'bob@example.com', accountId: 'acc-2', userId: 'user-2', accessToken: `${CANARY}-bob`, refreshToken: `${CANARY}-bob` });

/** Runs the switcher until it has switched at least once, then kills it after `delayMs` more. */
function killMidway(args: ReadonlyArray<string>, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SWITCHER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the switcher ended on its own: ${stderr}`))));
  });
}

it(`auth.json holds one whole account after each of ${KILLS} switches killed midway`, { timeout: 120_000 }, async () => {
  root = await mkdtemp(join(tmpdir(), 'codex-home-crash-'));
  const executorHome = join(root, 'executor');
  const userHome = join(root, 'user');
  await mkdir(userHome, { recursive: true });
  const resolved = nodeCodexHome({ executorHome, userHome, env: {} });
  if (E.isLeft(resolved)) throw new Error(resolved.left._tag);
  const home = resolved.right;
  expect(E.isRight(await home.ensureHome()())).toBe(true);
  const ids: string[] = [];
  for (const auth of [ada, bob]) {
    await writeFile(home.layout.authFile, auth, { mode: 0o600 });
    const saved = await home.saveActiveAccount()();
    if (E.isLeft(saved)) throw new Error(saved.left._tag);
    ids.push(saved.right.account.id);
  }

  const seen = new Set<string>();
  for (let kill = 0; kill < KILLS; kill++) {
    await killMidway([executorHome, userHome, ...ids], Math.floor(Math.random() * 40));
    const active = await readFile(home.layout.authFile, 'utf8');
    expect([ada, bob]).toContain(active);
    seen.add(active === ada ? 'ada' : 'bob');
    // The home stays usable: the next listing names the active account.
    const listed = await home.listAccounts()();
    expect(E.isRight(listed) && listed.right.accounts.filter((account) => account.active).length).toBe(1);
  }
  expect(seen.size).toBe(2);
});
