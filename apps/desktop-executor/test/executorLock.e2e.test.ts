/**
 * One executor per home, with real executor processes and their real app-servers: a second executor on
 * the same executor home exits at once with code 3 and a clear message (naming no secret), never
 * starting an app-server or touching the home; the first keeps working (it answers `executor/info` and
 * completes a `message/send`). A lock left by a SIGKILLed executor (a dead pid) is recovered by the
 * next start, and the lock is gone once an executor ends normally. An executor killed in the middle of
 * a package intake has written nothing in the homes; the next one installs and sweeps the staging copy.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, watch } from 'node:fs';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respond, say } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { SERVE, startServe, type ServeProcess } from './support/serveProcess.js';
import { treeLines } from './support/treeLines.js';

const CANARY = 'CANARY-lock-2b9c-auth-token';

interface Box {
  readonly root: string;
  readonly dirs: { readonly executorHome: string; readonly userHome: string; readonly workspace: string; readonly temp: string };
  readonly env: NodeJS.ProcessEnv;
  readonly model: ScriptedModel;
}
let box: Box;
const running: ServeProcess[] = [];

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-lock-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace'), temp: join(root, 'tmp') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script: [respond(say('first executor still here')), respond(say('after recovery'))] });
  const written = await writeScriptedModelConfig(join(dirs.executorHome, 'codex'), { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
  await writeFile(join(dirs.executorHome, 'codex', 'auth.json'), JSON.stringify({ OPENAI_API_KEY: CANARY }), { mode: 0o600 });
  // The executor stages packages in its OS temp directory: one of the test's own.
  box = { root, dirs, env: { ...process.env, HOME: dirs.userHome, TMPDIR: dirs.temp }, model };
}, 60_000);

/** Processes whose environment names a path under `root` (Linux; empty elsewhere). */
function processesUnder(root: string): number[] {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(root)) out.push(Number(name));
    } catch {
      // Gone, or not ours.
    }
  }
  return out;
}

afterAll(async () => {
  for (const executor of running.splice(0)) await executor.close();
  await box?.model.close();
  if (box === undefined) return;
  // Nothing is left behind, not even the app-server of the SIGKILLed executor (it ends with its stdin).
  for (let i = 0; i < 100 && processesUnder(box.root).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(processesUnder(box.root)).toEqual([]);
  await rm(box.root, { recursive: true, force: true });
}, 60_000);

const args = (): string[] => ['--executor-home', box.dirs.executorHome, '--workspace', box.dirs.workspace];
const lockFile = (): string => join(box.dirs.executorHome, 'executor.lock');

async function startAndAnswer(): Promise<ServeProcess> {
  const executor = startServe(args(), box.env);
  running.push(executor);
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  return executor;
}

/** Runs a second serve.js to its exit: its exit code and stderr. */
function runToExit(): Promise<{ readonly code: number | null; readonly stderr: string; readonly stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SERVE, '--stdio', ...args()], { env: box.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('one executor per home', () => {
  it('a second executor on the same home exits at once with code 3 and a clear message; the first keeps working', async () => {
    const first = await startAndAnswer();
    const owner = JSON.parse(readFileSync(lockFile(), 'utf8')) as { pid: number; startTime: number | null };
    expect(owner.pid).toBe(first.pid);
    if (process.platform === 'linux') expect(processesUnder(box.root)).toContain(first.pid);
    const lockBefore = readFileSync(lockFile());

    const second = await runToExit();
    expect(second.code).toBe(3);
    expect(second.stderr).toContain('another executor is already running on this executor home');
    expect(second.stderr).toContain(`pid ${first.pid}`);
    expect(second.stderr).not.toContain(CANARY);
    expect(second.stdout).toBe('');
    expect(readFileSync(lockFile())).toEqual(lockBefore);

    // The first is unaffected: it answers and completes a turn.
    expect(await first.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
    expect(await first.request('task/create', { taskId: 't1', modelSelection: { model: null }, executionRequest: { workspace: box.dirs.workspace } })).toMatchObject({ result: { task: { taskId: 't1' } } });
    expect(await first.request('message/send', { taskId: 't1', markdown: 'Are you there?' })).toMatchObject({ result: { status: 'completed' } });

    // Ending normally removes the lock.
    await first.close();
    expect(await first.exited).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
  }, 180_000);

  it('a lock left by a SIGKILLed executor (a dead pid) is recovered by the next start', async () => {
    const killed = await startAndAnswer();
    process.kill(killed.pid, 'SIGKILL');
    await killed.exited;
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: killed.pid });
    const next = await startAndAnswer();
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: next.pid });
    expect(await next.request('task/create', { taskId: 't2', modelSelection: { model: null }, executionRequest: { workspace: box.dirs.workspace } })).toMatchObject({ result: { task: { taskId: 't2' } } });
    expect(await next.request('message/send', { taskId: 't2', markdown: 'And now?' })).toMatchObject({ result: { status: 'completed' } });
    await next.close();
  }, 180_000);

  it('an executor SIGKILLed in the middle of a package intake: the homes are as before, the next executor installs and sweeps the staging copy', async () => {
    const executor = await startAndAnswer();
    const pkg = join(box.root, 'big-package');
    await mkdir(join(pkg, '.codex-plugin'), { recursive: true });
    await writeFile(join(pkg, '.codex-plugin/plugin.json'), JSON.stringify({ name: 'big', version: '1.0.0', skills: './skills/' }));
    await writeFile(join(pkg, 'data.bin'), '');
    await truncate(join(pkg, 'data.bin'), 250 * 1024 * 1024);
    const before = JSON.stringify(treeLines(box.dirs.executorHome));
    // Kill it as soon as its staging directory appears.
    const staging = new Promise<void>((resolve) => {
      const watcher = watch(box.dirs.temp, (_event, name) => {
        if (name?.startsWith(`.intake-${executor.pid}-`) === true) {
          watcher.close();
          resolve();
        }
      });
    });
    const answer = executor.request('plugins/install', { marketplace: 'wegent', plugin: 'big', version: '1.0.0', packagePath: pkg }).catch((error: unknown) => error);
    await staging;
    process.kill(executor.pid, 'SIGKILL');
    await executor.exited;
    expect(await answer).toBeInstanceOf(Error);
    expect(readdirSync(box.dirs.temp).filter((name) => name.startsWith(`.intake-${executor.pid}-`))).toHaveLength(1);
    expect(JSON.stringify(treeLines(box.dirs.executorHome))).toBe(before);

    const next = await startAndAnswer();
    await rm(join(pkg, 'data.bin'));
    await mkdir(join(pkg, 'skills/hello'), { recursive: true });
    await writeFile(join(pkg, 'skills/hello/SKILL.md'), '---\nname: hello\ndescription: Says hello\n---\n\nSay hello.\n');
    expect(await next.request('plugins/install', { marketplace: 'wegent', plugin: 'big', version: '1.0.0', packagePath: pkg })).toMatchObject({ result: { plugin: { pluginId: 'big@wegent', installed: true } } });
    expect(readdirSync(box.dirs.temp).filter((name) => name.startsWith('.intake-'))).toEqual([]);
  }, 180_000);
});
