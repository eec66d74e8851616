/**
 * What the end-to-end tests of the host examples share: running an example (host.py, or its TypeScript
 * twin) against a prepared scripted run with the run's environment, and the checks every example's run
 * must pass — its summary, its streamed transcript, what the plugin and the model received, that
 * nothing of the run is left running, and that the run's directories are removed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { functionCallOutputs, type HasBody, type Script } from '@wework/scripted-model';
import { prepareScriptedRun, type ScriptedRun } from '../../src/scriptedRun.js';

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The Python host. */
export const HOST_PY = join(EXAMPLES, 'python-host', 'host.py');
/** The TypeScript twin, as the examples project builds it. */
export const HOST_JS = join(EXAMPLES, 'dist', 'typescript-host', 'host.js');
/** The arguments both examples get in the tests: this Node for the executor, and shorter bounds. */
export const HOST_ARGS: ReadonlyArray<string> = ['--node', process.execPath, '--timeout', '60', '--turn-timeout', '120'];
/** The example's own bound on the whole run; the test stops it after that. */
const RUN_TIMEOUT_MS = 150_000;
/** How much of the example's output is kept (its transcript and summary are far smaller). */
const OUTPUT_BOUND = 1_000_000;

/** Whether `python3` 3.9 or later runs; in CI a missing one fails the test instead of skipping it. */
export function pythonAvailable(): boolean {
  const probe = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)'], { timeout: 10_000 });
  if (probe.status === 0) return true;
  if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error("python3 (3.9 or later) is missing: CI must provide it (Debian's python3 package) to run the Python host example");
  }
  console.warn('Skipping the Python host example: python3 (3.9 or later) is not installed.');
  return false;
}

/** How the example ended: its exit code (or the signal that ended it), its output, whether the test had to stop it. */
export interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** The runs prepared and not yet closed; {@link closeRuns} (in `afterAll`) closes them whatever happened. */
const open = new Set<ScriptedRun>();

/**
 * Prepares a scripted run (a model, directories, the Codex config) that {@link closeRuns} closes if the test
 * does not; with `null`, no model in this process (the example starts `wework-scripted-model` itself).
 */
export async function prepareRun(script?: Script | null): Promise<ScriptedRun> {
  const run = await prepareScriptedRun(script);
  open.add(run);
  return run;
}

/** Closes every run a test left open. */
export async function closeRuns(): Promise<void> {
  for (const run of [...open]) {
    open.delete(run);
    await run.close();
  }
}

/**
 * Runs `command args` with the run's environment; stops it (SIGTERM, then SIGKILL) when it takes over
 * `RUN_TIMEOUT_MS`. Both examples stop the executor on SIGTERM.
 */
export function runExample(run: ScriptedRun, command: string, args: ReadonlyArray<string>): Promise<Outcome> {
  const child = spawn(command, args, { env: { ...process.env, ...run.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout = (stdout + chunk.toString('utf8')).slice(-OUTPUT_BOUND)));
  child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString('utf8')).slice(-OUTPUT_BOUND)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
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

/** What differs between the examples' runs by design: their name, the task id, and the unknown-method step's outcome. */
export interface ExpectedRun {
  /** The example, for messages: `host.py`, `host.js`. */
  readonly name: string;
  readonly taskId: string;
  /** `{ code, tag }` of the unknown method: the executor's refusal, or the client's own. */
  readonly unknownMethod: { readonly code: number | null; readonly tag: string };
  /** The requests the model received, when the example ran the model itself (`wework-scripted-model --record`); else the run's model's. */
  readonly modelRequests?: () => Promise<ReadonlyArray<HasBody>>;
}

/** An example's summary: the last line of its output, one JSON object. */
export type Summary = Readonly<Record<string, unknown>>;

/**
 * Checks one run of a host example and closes the run: the example exited 0 with a summary of every step,
 * the transcript streamed, the plugin received the chosen value and the model the plugin's result, nothing
 * of the run is left running, the executor released its home, and the run's directories are removed.
 * Returns the summary.
 */
export async function expectExampleHeld(run: ScriptedRun, outcome: Outcome, expected: ExpectedRun): Promise<Summary> {
  const failure = `${expected.name} exited ${outcome.code ?? outcome.signal}${outcome.timedOut ? ' (stopped by the test after its timeout)' : ''}\n--- stdout ---\n${outcome.stdout}\n--- stderr ---\n${outcome.stderr}`;
  expect(outcome.code, failure).toBe(0);

  // The summary is the last line of the output.
  const summary = JSON.parse(outcome.stdout.trim().split('\n').at(-1) ?? '') as Summary;
  expect(summary).toMatchObject({
    ok: true,
    executor: 'wework-desktop-executor',
    protocolVersion: 1,
    subscribed: { reset: false },
    task: { taskId: expected.taskId },
    send: { status: 'completed', error: null },
    cards: [{ kind: 'form', answered: { strategy: { answers: ['Safe'] } }, values: { strategy: 'safe' } }],
    tools: [{ server: 'forms', tool: 'choose_strategy', status: 'completed', output: expect.stringContaining('continuing with strategy safe') }],
    agentMessage: 'Aye, the safe course it is.',
    invalidParams: { code: -32602, tag: 'InvalidHostParams', message: expect.stringContaining('params.taskId: expected string') },
    unknownTask: { code: -32001, tag: 'TaskNotFound' },
    unknownMethod: expected.unknownMethod,
    executorExitCode: 0,
  });
  // The transcript streamed as the turn ran.
  expect(outcome.stdout).toContain('< codex: Aye, the safe course it is.');
  expect(outcome.stdout).toContain('tool forms.choose_strategy completed');

  // The plugin received the chosen value, and the model the plugin's result in its second request.
  const requests = expected.modelRequests === undefined ? (run.model?.requests ?? []) : await expected.modelRequests();
  expect(requests).toHaveLength(2);
  const outputs = requests.flatMap((request) => functionCallOutputs(request).map((output) => output.text));
  expect(outputs.join('\n')).toContain('elicitation: accept {"strategy":"safe"}');

  // Nothing of the run is left running, and the executor released its home.
  expect(await processesLeft(run.dirs.userHome)).toEqual([]);
  expect(existsSync(join(run.dirs.executorHome, 'executor.lock'))).toBe(false);

  open.delete(run);
  await run.close();
  expect(existsSync(dirname(run.dirs.executorHome))).toBe(false);
  return summary;
}

/**
 * The summary without what two runs of the same steps cannot share: the task's `threadId`, a
 * time-ordered id (UUID v7) that Codex mints when the thread starts.
 */
export function comparable(summary: Summary): Summary {
  const { task, ...rest } = summary;
  if (typeof task !== 'object' || task === null) return summary;
  const { threadId: _threadId, ...sameTask } = task as Record<string, unknown>;
  return { ...rest, task: sameTask };
}
