/**
 * The Python host example end to end: `python3 examples/python-host/host.py` starts the real executor
 * (its built `serve.js`), which runs the real `codex app-server` with the scripted model and the real
 * forms plugin. The example answers the plugin's form by the option whose value is `safe`; the plugin
 * must have received that value, the model the plugin's result, and nothing of the run may be left
 * running afterwards.
 *
 * Without `python3` the test is skipped with a message — except in CI (`CI` is set), where it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { functionCallOutputs } from '@wework/scripted-model';
import { prepareScriptedRun, type ScriptedRun } from '../src/scriptedRun.js';

const HOST_PY = join(dirname(fileURLToPath(import.meta.url)), '..', 'python-host', 'host.py');
/** The example's own bound on the whole run; the test stops it after that. */
const RUN_TIMEOUT_MS = 150_000;
/** How much of the example's output is kept (its transcript and summary are far smaller). */
const OUTPUT_BOUND = 1_000_000;

/** Whether `python3` 3.9 or later runs; in CI a missing one fails the test instead of skipping it. */
function pythonAvailable(): boolean {
  const probe = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)'], { timeout: 10_000 });
  if (probe.status === 0) return true;
  if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error("python3 (3.9 or later) is missing: CI must provide it (Debian's python3 package) to run the Python host example");
  }
  console.warn('Skipping the Python host example: python3 (3.9 or later) is not installed.');
  return false;
}

/** How the example ended: its exit code (or the signal that ended it), its output, whether the test had to stop it. */
interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Runs host.py with the run's environment; stops it (SIGTERM, then SIGKILL) when it takes over `RUN_TIMEOUT_MS`. */
function runHostPy(run: ScriptedRun): Promise<Outcome> {
  const child = spawn('python3', [HOST_PY, '--node', process.execPath, '--timeout', '60', '--turn-timeout', '120'], {
    env: { ...process.env, ...run.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout = (stdout + chunk.toString('utf8')).slice(-OUTPUT_BOUND)));
  child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString('utf8')).slice(-OUTPUT_BOUND)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM'); // host.py stops the executor on SIGTERM
    setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** The pids of live processes whose environment has `HOME=<home>`: the executor, its app-server and plugins of this run (Linux). */
async function processesWithHome(home: string): Promise<ReadonlyArray<number>> {
  const entries = await readdir('/proc');
  const found: number[] = [];
  for (const entry of entries.filter((name) => /^\d+$/.test(name))) {
    const environ = await readFile(join('/proc', entry, 'environ')).catch(() => null);
    if (environ?.toString('utf8').split('\0').includes(`HOME=${home}`)) found.push(Number(entry));
  }
  return found;
}

/** Polls until no process of the run is left; the pids still there after `timeoutMs`. */
async function processesLeft(home: string, timeoutMs = 15_000): Promise<ReadonlyArray<number>> {
  if (!existsSync('/proc/self/environ')) return [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await processesWithHome(home);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const runs: ScriptedRun[] = [];
afterAll(async () => {
  for (const run of runs.splice(0)) await run.close();
});

describe('the Python host example', () => {
  it.skipIf(!pythonAvailable())(
    'drives the real executor over stdio: the form answered by value reaches the plugin, the turn completes, malformed requests are refused',
    async () => {
      const run = await prepareScriptedRun();
      runs.push(run);
      const outcome = await runHostPy(run);
      const failure = `host.py exited ${outcome.code ?? outcome.signal}${outcome.timedOut ? ' (stopped by the test after its timeout)' : ''}\n--- stdout ---\n${outcome.stdout}\n--- stderr ---\n${outcome.stderr}`;
      expect(outcome.code, failure).toBe(0);

      // The summary is the last line of the output.
      const summary: unknown = JSON.parse(outcome.stdout.trim().split('\n').at(-1) ?? '');
      expect(summary).toMatchObject({
        ok: true,
        executor: 'wework-desktop-executor',
        protocolVersion: 1,
        subscribed: { reset: false },
        task: { taskId: 'python-host-1' },
        send: { status: 'completed', error: null },
        cards: [{ kind: 'form', answered: { strategy: { answers: ['Safe'] } }, values: { strategy: 'safe' } }],
        tools: [{ server: 'forms', tool: 'choose_strategy', status: 'completed', output: expect.stringContaining('continuing with strategy safe') }],
        agentMessage: 'Aye, the safe course it is.',
        invalidParams: { code: -32602, tag: 'InvalidHostParams', message: expect.stringContaining('params.taskId: expected string') },
        unknownTask: { code: -32001, tag: 'TaskNotFound' },
        unknownMethod: { code: -32601, tag: 'MethodNotFound' },
        executorExitCode: 0,
      });
      // The transcript streamed as the turn ran.
      expect(outcome.stdout).toContain('< codex: Aye, the safe course it is.');
      expect(outcome.stdout).toContain('tool forms.choose_strategy completed');

      // The plugin received the chosen value, and the model the plugin's result in its second request.
      expect(run.model.requests).toHaveLength(2);
      const outputs = run.model.requests.flatMap((request) => functionCallOutputs(request).map((output) => output.text));
      expect(outputs.join('\n')).toContain('elicitation: accept {"strategy":"safe"}');

      // Nothing of the run is left running, and the executor released its home.
      expect(await processesLeft(run.dirs.userHome)).toEqual([]);
      expect(existsSync(join(run.dirs.executorHome, 'executor.lock'))).toBe(false);

      await run.close();
      runs.splice(runs.indexOf(run), 1);
      expect(existsSync(dirname(run.dirs.executorHome))).toBe(false);
    },
  );
});
