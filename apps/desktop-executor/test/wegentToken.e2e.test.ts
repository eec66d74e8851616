/**
 * The Wegent runtime token through the real executor process, its real app-server and a scripted model
 * whose shell commands read the environment: a command sees `runtime/setWegentToken`'s token as
 * `WEGENT_RUNTIME_AUTH_TOKEN` (`AUTH_TOKEN` of the executor's environment is not it, its `WEGENT_AUTH_TOKEN`
 * and an inherited `WEGENT_RUNTIME_AUTH_TOKEN` reach no command); after a new token the next command of the same task sees the new one (an idle thread is
 * reloaded; a thread that never ran a turn is replaced); a short-lived token is announced expiring at
 * once, in the event stream; `runtime/clearWegentToken` takes it away from the next command; a canary token that a command uses without printing it is found in no
 * file under the test's homes (Codex's rollouts, sqlite state and logs, shell snapshots included), not
 * in the executor's stderr or stdout, and not in what the model received. Malformed params are refused
 * without their value.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { HostErrorCode, RuntimeSetWegentToken, type HostParamsOf } from '@wework/host-protocol';
import { functionCallOutputs, respond, say, shell } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { until } from '@wework/test-support';
import { startServe, typedHost, type ServeAnswer, type ServeProcess } from './support/serveProcess.js';

const token = (label: string): string => `${label}-${randomBytes(12).toString('hex')}`;
const TOKEN_1 = token('runtime-one');
const TOKEN_2 = token('runtime-two');
const CANARY = token('canary-runtime-token');
const BEARER = token('per-task-bearer');
const DEVICE = token('device-connection');
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Prints the three variables; `unset` for one that is not there. */
const PRINT = 'printf "runtime=%s auth=%s device=%s\\n" "${WEGENT_RUNTIME_AUTH_TOKEN-unset}" "${AUTH_TOKEN-unset}" "${WEGENT_AUTH_TOKEN-unset}"';
/** Uses the canary without printing it: only whether it is there and its digest matches. */
const USE_CANARY = `test -n "$WEGENT_RUNTIME_AUTH_TOKEN" && test "$(printf %s "$WEGENT_RUNTIME_AUTH_TOKEN" | sha256sum | cut -c1-64)" = "${sha256(CANARY)}" && echo canary-seen`;

const SENDS = 7;
const script = [
  ...Array.from({ length: SENDS - 1 }, (_, i) => [respond(shell(PRINT, { callId: `print-${i}` })), respond(say(`printed ${i}`))]).flat(),
  respond(shell(USE_CANARY, { callId: 'canary' })),
  respond(say('used it')),
];

interface Box {
  readonly root: string;
  readonly executor: ServeProcess;
  readonly model: ScriptedModel;
  readonly workspace: string;
}
let box: Box;

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'executor-wegent-token-'));
  const executorHome = join(root, 'executor');
  const workspace = join(root, 'workspace');
  await Promise.all([join(executorHome, 'codex'), join(root, 'home'), workspace].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script });
  const written = await writeScriptedModelConfig(join(executorHome, 'codex'), { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
  const executor = startServe(['--executor-home', executorHome, '--workspace', workspace], {
    ...process.env,
    HOME: join(root, 'home'),
    AUTH_TOKEN: BEARER,
    WEGENT_AUTH_TOKEN: DEVICE,
    // One the executor did not set: never seen under that name.
    WEGENT_RUNTIME_AUTH_TOKEN: token('inherited-runtime'),
  });
  expect(await executor.request('executor/info', {})).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
  box = { root, executor, model, workspace };
}, 120_000);

afterAll(async () => {
  await box?.executor.close();
  await box?.model.close();
  if (box !== undefined) await rm(box.root, { recursive: true, force: true });
});

/** Typed requests: every result is decoded with its method's codec, so an answer that does not fit the protocol fails the test. */
const { ok } = typedHost(() => box.executor);

/** `runtime/setWegentToken`'s params, decoded with its codec (so they are what the protocol accepts). */
function tokenParams(token: string, expiresIn: number): HostParamsOf<'runtime/setWegentToken'> {
  const decoded = RuntimeSetWegentToken.params.decode({ token, expiresIn });
  if (E.isLeft(decoded)) throw new Error('the test token does not fit the protocol');
  return decoded.right;
}

const createTask = (taskId: string) => ok('task/create', { taskId, modelSelection: { model: null, options: { permissionMode: 'full-access' } }, executionRequest: { workspace: box.workspace } });

/** Sends a message; answers the output of the command the model ran in that turn. */
async function commandOutput(taskId: string): Promise<string> {
  const before = box.model.requests.length;
  const sent = await ok('message/send', { taskId, markdown: 'Run the command.' });
  expect(sent).toMatchObject({ status: 'completed' });
  const after = box.model.requests[before + 1];
  if (after === undefined) throw new Error('the model was not asked again after the command');
  const outputs = functionCallOutputs(after);
  return outputs[outputs.length - 1]?.text ?? '';
}

/** The `runtime=… auth=… device=…` line of a command's output. */
function variables(output: string): { readonly runtime: string; readonly auth: string; readonly device: string } {
  const match = /runtime=(\S*) auth=(\S*) device=(\S*)/.exec(output);
  if (match === null) throw new Error(`no variables in the command output: ${output}`);
  return { runtime: match[1]!, auth: match[2]!, device: match[3]! };
}

/** Every file under `dir` (links not followed). */
async function files(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await files(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** Waits (bounded) until a notification of `method` arrived. */
async function notified(method: string, count: number): Promise<ReadonlyArray<{ readonly params: unknown }>> {
  return until(`${count} ${method}`, () => (box.executor.notifications(method).length >= count ? box.executor.notifications(method) : undefined), 10_000);
}

describe('the Wegent runtime token in the shell of the real Codex', { timeout: 180_000 }, () => {
  it('a command sees the token, never the per-task bearer or the device token under its name; a new token reaches the next command', async () => {
    await createTask('early');
    await createTask('before');
    expect(variables(await commandOutput('before')).runtime).toBe('unset');
    expect(await ok('runtime/setWegentToken', tokenParams(TOKEN_1, 3600))).toEqual({
      receivedAt: expect.any(Number),
      refreshAt: expect.any(Number),
      expiresAt: expect.any(Number),
    });
    await createTask('main');

    const first = variables(await commandOutput('main'));
    expect(first.runtime).toBe(TOKEN_1);
    // The per-task bearer stays what it is; the device connection's token never reaches a command.
    expect(first.auth).toBe(BEARER);
    expect(first.device).toBe('unset');

    // Created before the token and never ran a turn: a new thread takes its place, with the token.
    const earlyThread = (await ok('task/list', {})).tasks.find((task) => task.taskId === 'early')?.threadId;
    expect(variables(await commandOutput('early')).runtime).toBe(TOKEN_1);
    const earlyNow = (await ok('task/list', {})).tasks.find((task) => task.taskId === 'early')?.threadId;
    expect(earlyNow).not.toBe(earlyThread);

    await ok('runtime/setWegentToken', tokenParams(TOKEN_2, 3600));
    expect(variables(await commandOutput('main')).runtime).toBe(TOKEN_2);
    expect(variables(await commandOutput('main')).runtime).toBe(TOKEN_2);
    await expect.poll(() => box.executor.stderr(), { timeout: 10_000 }).toContain('thread reloaded for a new environment');
    expect(box.executor.notifications('runtime/wegentTokenExpiring')).toEqual([]);
  });

  it('runtime/clearWegentToken drops the token: the next command of the task no longer sees it, and no notice comes for it', async () => {
    expect(await ok('runtime/clearWegentToken', {})).toEqual({ cleared: true });
    expect(variables(await commandOutput('main')).runtime).toBe('unset');
    expect(await ok('runtime/clearWegentToken', {})).toEqual({ cleared: false });
    await expect.poll(() => box.executor.stderr(), { timeout: 10_000 }).toContain('wegent runtime token cleared');
    expect(box.executor.notifications('runtime/wegentTokenExpiring')).toEqual([]);
  });

  it('a token living a minute or less is announced expiring at once, in the event stream', async () => {
    const schedule = await ok('runtime/setWegentToken', tokenParams(CANARY, 30));
    expect(schedule['refreshAt']).toBe(schedule['receivedAt']);
    const [notice] = await notified('runtime/wegentTokenExpiring', 1);
    expect(notice?.params).toEqual({ expiresAt: schedule['expiresAt'], expiresIn: expect.any(Number), seq: expect.any(Number) });
    const { expiresIn } = notice?.params as { expiresIn: number };
    expect(expiresIn).toBeGreaterThan(0);
    expect(expiresIn).toBeLessThanOrEqual(30);
  });

  it('malformed params are refused, naming the field and never the value', async () => {
    const cases: ReadonlyArray<[object, string]> = [
      [{ expiresIn: 60 }, 'params.token'],
      [{ token: CANARY.repeat(1000), expiresIn: 60 }, 'params.token'],
      [{ token: `${CANARY} with spaces`, expiresIn: 60 }, 'params.token'],
      [{ token: CANARY, expiresIn: -60 }, 'params.expiresIn'],
      [{ token: CANARY, expiresIn: '60' }, 'params.expiresIn'],
    ];
    for (const [params, field] of cases) {
      const answer: ServeAnswer = await box.executor.request('runtime/setWegentToken', params);
      expect(answer).toMatchObject({ error: { code: HostErrorCode.InvalidParams } });
      const text = JSON.stringify(answer);
      expect(text).toContain(field);
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain('-60');
    }
  });

  it('a command uses the canary token; it is in no file, no log line and nothing the model received', async () => {
    expect(await commandOutput('main')).toContain('canary-seen');
    await box.executor.close();
    const leaks: string[] = [];
    for (const path of await files(box.root)) if ((await readFile(path)).includes(CANARY)) leaks.push(path.slice(box.root.length));
    expect(leaks).toEqual([]);
    // The walk did read Codex's state: its rollouts and sqlite files are there.
    const walked = (await files(box.root)).map((path) => path.slice(box.root.length));
    expect(walked.some((path) => /\/sessions\/.*rollout-.*\.jsonl$/.test(path))).toBe(true);
    expect(walked.some((path) => /\.sqlite/.test(path))).toBe(true);
    expect(box.executor.stderr()).not.toContain(CANARY);
    expect(box.executor.stdout()).not.toContain(CANARY);
    expect(box.executor.stdout()).toContain('canary-seen');
    expect(box.executor.stdout()).not.toContain(DEVICE);
    expect(JSON.stringify(box.model.requests.map((request) => request.body))).not.toContain(CANARY);
  });
});
