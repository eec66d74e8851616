/**
 * The example at the top of README.md, run against the real `codex app-server`: the block between the
 * markers below must be the README's first TypeScript block (after its imports), line for line. The
 * test's `spawnAppServer` and `mkdtemp` are the library's and Node's, each also recording what it made,
 * so the process tree and the directory are gone after the test even when the example fails midway.
 */
import { mkdtemp as nodeMkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const spawnAppServer: typeof spawnAppServerOnly = async (options) => {
  const spawned = await spawnAppServerOnly(options);
  if (E.isRight(spawned)) cleanups.push(() => spawned.right.dispose());
  return spawned;
};

test('README example', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  // --- README example begins ---
  const codexHome = await mkdtemp(join(tmpdir(), 'codex-home-'));
  const spawned = await spawnAppServer({ codexHome, home: codexHome, env: { PATH: process.env.PATH }, cwd: process.cwd() });
  if (E.isLeft(spawned)) throw new Error(spawned.left._tag);
  const { client, dispose } = spawned.right; // already initialized
  const models = await client.request(ModelList, { includeHidden: false });
  const thread = await client.request(ThreadStart, { cwd: process.cwd() });
  console.log(E.isRight(models) && models.right.data.length, E.isRight(thread) && thread.right.thread.id);
  await dispose(); // the app-server and its whole process tree are gone when this resolves
  // --- README example ends ---

  expect(E.isRight(models) && models.right.data.length).toBeGreaterThan(0);
  expect(E.isRight(thread) && thread.right.thread.id).toEqual(expect.any(String));
  expect(log).toHaveBeenCalledWith(expect.any(Number), expect.any(String));
  expect(() => process.kill(spawned.right.pid, 0)).toThrow(); // gone, as dispose() promised
  log.mockRestore();
});
