/**
 * The example at the top of README.md, run against the real `codex app-server`: the block between the
 * markers below must be the README's first TypeScript block (after its imports), line for line (a test
 * below compares them). The test's `spawnAppServer` and `mkdtemp` are the library's and Node's, each also
 * recording what it made, so the process tree and the directory are gone after the test even when the
 * example fails midway; the example itself must remove its directory.
 */
import { existsSync } from 'node:fs';
import { mkdtemp as nodeMkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { ModelList, ThreadStart } from '@wework/codex-protocol';
import { afterEach, expect, test, vi } from 'vitest';
import { spawnAppServer as spawnAppServerOnly } from '../../src/node/index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const mkdtemp = async (prefix: string): Promise<string> => {
  const dir = await nodeMkdtemp(prefix);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

const spawnRecorded: typeof spawnAppServerOnly = async (options) => {
  const spawned = await spawnAppServerOnly(options);
  if (E.isRight(spawned)) cleanups.push(() => spawned.right.dispose());
  return spawned;
};

test('README example', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  let pid: number | undefined;
  const spawnAppServer: typeof spawnAppServerOnly = async (options) => {
    const spawned = await spawnRecorded(options);
    if (E.isRight(spawned)) pid = spawned.right.pid;
    return spawned;
  };
  // --- README example begins ---
  const codexHome = await mkdtemp(join(tmpdir(), 'codex-home-'));
  try {
    const spawned = await spawnAppServer({ codexHome, home: codexHome, env: { PATH: process.env.PATH }, cwd: process.cwd() });
    if (E.isLeft(spawned)) throw new Error(spawned.left._tag);
    const { client, dispose } = spawned.right; // already initialized
    const models = await client.request(ModelList, { includeHidden: false });
    const thread = await client.request(ThreadStart, { cwd: process.cwd() });
    console.log(E.isRight(models) && models.right.data.length, E.isRight(thread) && thread.right.thread.id);
    await dispose(); // the app-server and its whole process tree are gone when this resolves
  } finally {
    await rm(codexHome, { recursive: true, force: true }); // the temporary home too, whatever happened
  }
  // --- README example ends ---

  const [[count, threadId] = []] = log.mock.calls;
  expect(count).toBeGreaterThan(0); // models listed
  expect(threadId).toEqual(expect.any(String)); // a thread started
  expect(pid).toBeDefined();
  expect(() => process.kill(pid as number, 0)).toThrow(); // gone, as dispose() promised
  expect(existsSync(codexHome)).toBe(false); // and the example removed its directory
  log.mockRestore();
});

test('the README shows exactly the example this test runs', async () => {
  const here = fileURLToPath(import.meta.url);
  const readme = await readFile(join(dirname(here), '..', '..', 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const shown = block.split('\n').filter((line) => !line.startsWith('import ')).join('\n').trim();
  const source = await readFile(here, 'utf8');
  const ran = /\/\/ --- README example begins ---\n([\s\S]*?)\n\s*\/\/ --- README example ends ---/.exec(source)?.[1] ?? '';
  expect(ran.split('\n').map((line) => line.replace(/^ {2}/, '')).join('\n').trim()).toBe(shown);
});
