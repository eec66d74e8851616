/**
 * The serve entry with Node's module compile cache (Node 22.1+): a start writes the cache into
 * `<executor home>/cache/node-compile` and a second start on it works; a home where that directory cannot
 * be made (a file stands where it would go) still starts and answers. On an older Node the executor
 * says the cache is unsupported and writes nothing. The log names the Node the executor runs on: the
 * test's own (the executor is started with `process.execPath`).
 */
import * as nodeModule from 'node:module';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startServe } from './support/serveProcess.js';

/** Whether this Node has the compile cache (22.1+). */
const supported = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A fresh executor home, user home and workspace. */
async function sandbox(): Promise<{ readonly executorHome: string; readonly home: string; readonly workspace: string }> {
  const root = await mkdtemp(join(tmpdir(), 'executor-compile-cache-'));
  roots.push(root);
  const dirs = { executorHome: join(root, 'executor'), home: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  return dirs;
}

/** Starts serve.js --stdio, waits for `executor/info`, closes it; its exit code and stderr. */
async function startOnce(dirs: { readonly executorHome: string; readonly home: string; readonly workspace: string }): Promise<{ readonly code: number | null; readonly stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dirs.home };
  delete env['NODE_COMPILE_CACHE'];
  delete env['NODE_DISABLE_COMPILE_CACHE'];
  const executor = startServe(['--executor-home', dirs.executorHome, '--workspace', dirs.workspace], env);
  try {
    expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  } finally {
    await executor.close();
  }
  return { code: await executor.exited, stderr: executor.stderr() };
}

/** The log lines of the compile cache. */
const compileCacheLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.includes('compile cache'));

/** The files below `dir`, recursively. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

it('writes the compile cache into the executor home, and a second start on it works (Node 22.1+)', { timeout: 240_000 }, async () => {
  const dirs = await sandbox();
  const cache = join(dirs.executorHome, 'cache', 'node-compile');
  const first = await startOnce(dirs);
  expect(first.code).toBe(0);
  expect(first.stderr).toContain(`node="${process.version}"`);
  if (!supported) {
    expect(first.stderr).toContain('compile cache status="Unsupported"');
    await expect(stat(cache)).rejects.toMatchObject({ code: 'ENOENT' });
    return;
  }
  expect(first.stderr).toContain('compile cache status="Enabled"');
  expect(compileCacheLines(first.stderr).join('\n')).not.toContain(dirs.executorHome);
  const written = await filesBelow(cache);
  expect(written.length).toBeGreaterThan(0);
  const second = await startOnce(dirs);
  expect(second.code).toBe(0);
  expect(second.stderr).toContain('compile cache status="Enabled"');
});

it('starts and answers when the compile cache directory cannot be made', { timeout: 120_000 }, async () => {
  const dirs = await sandbox();
  // A file where the cache's parent directory would go: no one, root included, can make the directory.
  await writeFile(join(dirs.executorHome, 'cache'), 'not a directory\n');
  const started = await startOnce(dirs);
  expect(started.code).toBe(0);
  expect(started.stderr).toContain(`node="${process.version}"`);
  if (supported) {
    expect(started.stderr).toContain('compile cache unavailable status="Failed" code=');
    expect(compileCacheLines(started.stderr).join('\n')).not.toContain(dirs.executorHome);
  } else expect(started.stderr).toContain('compile cache status="Unsupported"');
});
