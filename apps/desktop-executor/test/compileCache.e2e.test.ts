/**
 * The serve entry with Node's module compile cache (Node 22.1+): a start writes the cache into
 * `<executor home>/cache/node-compile` and a second start on it works; a home where that directory cannot
 * be made (a file stands where it would go) still starts and answers. On an older Node the executor
 * says the cache is unsupported and writes nothing. The log names the Node the executor runs on: the
 * test's own (the executor is started with `process.execPath`).
 *
 * A new build never runs the code of an old one: Node keeps one cache entry per module file, with a
 * checksum of the module's source, and uses it only for that source (and only on the Node and V8 that
 * wrote it: one subdirectory per Node version). The tests change a copy of the build the way a rebuild
 * would, even keeping a chunk's length (V8's own check of cached code looks at the source's length
 * only), and corrupt the entries; both times the executor runs the code on disk and rewrites the cache.
 */
import * as nodeModule from 'node:module';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SERVE, startServe } from './support/serveProcess.js';

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

/**
 * Starts serve.js --stdio (or `entry`, a copy of it), waits for `executor/info`, closes it; its exit
 * code, stderr and the name `executor/info` answered.
 */
async function startOnce(
  dirs: { readonly executorHome: string; readonly home: string; readonly workspace: string },
  entry: string = SERVE,
): Promise<{ readonly code: number | null; readonly stderr: string; readonly name: unknown }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dirs.home };
  delete env['NODE_COMPILE_CACHE'];
  delete env['NODE_DISABLE_COMPILE_CACHE'];
  const executor = startServe(['--executor-home', dirs.executorHome, '--workspace', dirs.workspace], env, entry);
  let name: unknown;
  try {
    const answer = await executor.request('executor/info', {});
    name = 'result' in answer ? (answer.result as { readonly executor?: unknown }).executor : answer.error;
  } finally {
    await executor.close();
  }
  return { code: await executor.exited, stderr: executor.stderr(), name };
}

/**
 * A copy of the built executor (its `dist` and `package.json`) under `root`, resolving its packages from
 * the repository's `node_modules`: a build of its own, which a test may change. Returns its serve entry.
 */
async function copyOfBuild(root: string): Promise<string> {
  const app = dirname(dirname(SERVE));
  const copy = join(root, 'app');
  await mkdir(copy);
  await cp(join(app, 'dist'), join(copy, 'dist'), { recursive: true });
  await cp(join(app, 'package.json'), join(copy, 'package.json'));
  await symlink(join(app, '..', '..', 'node_modules'), join(copy, 'node_modules'), 'dir');
  return join(copy, 'dist', 'serve.js');
}

/** The chunk of the build at `entry` whose source holds `text` (loaded after the cache is enabled). */
async function chunkHolding(entry: string, text: string): Promise<string> {
  const chunks = join(dirname(entry), 'chunks');
  for (const name of await readdir(chunks)) {
    if (!name.endsWith('.js')) continue;
    const path = join(chunks, name);
    if ((await readFile(path, 'utf8')).includes(text)) return path;
  }
  throw new Error(`no chunk holds ${text}`);
}

/** Each file below `dir` with its content. */
async function contentsBelow(dir: string): Promise<Map<string, Buffer>> {
  const files = await filesBelow(dir);
  return new Map(await Promise.all(files.map(async (file) => [file, await readFile(file)] as const)));
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

/** Why the two tests below are skipped on Node 20: it has no module compile cache, nothing to make stale or corrupt. */
const NODE_22 = 'Node 22.1+; skipped on Node 20, which has no module compile cache';

it.skipIf(!supported)(`a new build does not run the code of a stale cache: its changed chunk is compiled again and its entry rewritten (${NODE_22})`, { timeout: 240_000 }, async () => {
  const dirs = await sandbox();
  const entry = await copyOfBuild(dirname(dirs.executorHome));
  const cache = join(dirs.executorHome, 'cache', 'node-compile');
  const first = await startOnce(dirs, entry);
  expect(first).toMatchObject({ code: 0, name: 'wework-desktop-executor' });
  const before = await contentsBelow(cache);
  expect(before.size).toBeGreaterThan(0);
  // The rebuild: one chunk says something else, in a source of the same length.
  const chunk = await chunkHolding(entry, '"wework-desktop-executor"');
  const source = await readFile(chunk, 'utf8');
  await writeFile(chunk, source.replace('"wework-desktop-executor"', '"wework-desktop-executoR"'));
  const second = await startOnce(dirs, entry);
  expect(second).toMatchObject({ code: 0, name: 'wework-desktop-executoR' });
  const after = await contentsBelow(cache);
  const rewritten = [...after].filter(([file, content]) => before.get(file)?.equals(content) === false);
  expect(rewritten.length).toBeGreaterThan(0);
  // The entries of the unchanged modules are kept as they were.
  expect([...after].filter(([file, content]) => before.get(file)?.equals(content) === true).length).toBeGreaterThan(0);
});

it.skipIf(!supported)(`a corrupt cache is ignored: the executor starts, answers and writes the cache again (${NODE_22})`, { timeout: 240_000 }, async () => {
  const dirs = await sandbox();
  const cache = join(dirs.executorHome, 'cache', 'node-compile');
  expect((await startOnce(dirs)).code).toBe(0);
  const written = await filesBelow(cache);
  expect(written.length).toBeGreaterThan(0);
  // Every entry garbled: half keeps its length with other bytes, half is cut short.
  await Promise.all(
    written.map(async (file, index) => {
      const content = await readFile(file);
      await writeFile(file, index % 2 === 0 ? Buffer.alloc(content.length, 0xa5) : content.subarray(0, Math.floor(content.length / 3)));
    }),
  );
  const garbled = await contentsBelow(cache);
  const second = await startOnce(dirs);
  expect(second).toMatchObject({ code: 0, name: 'wework-desktop-executor' });
  expect(second.stderr).toContain('compile cache status="Enabled"');
  const after = await contentsBelow(cache);
  expect([...after].filter(([file, content]) => garbled.get(file)?.equals(content) === false).length).toBeGreaterThan(0);
  const third = await startOnce(dirs);
  expect(third).toMatchObject({ code: 0, name: 'wework-desktop-executor' });
});
