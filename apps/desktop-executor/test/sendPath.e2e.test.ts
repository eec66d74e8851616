/**
 * The send path's model catalog in a real executor (in process, its real app-server, a scripted model),
 * with `model/list` counted on the wire: five sends read the catalog only on the first; a config write
 * touching `model` on the executor's connection, an account change and an app-server restart each make
 * the next send read it again; an explicit `models/list` always reads; a saved model that is not in the
 * catalog blocks the send after exactly one read more. A message without attachments begins no turn
 * image store: a turn directory left in the store's root by an earlier run stays until a message with an
 * attachment loads the store (which sweeps it), and no directory is created for a text-only send.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountLogout, ConfigValueWrite } from '@wework/codex-protocol';
import { HostErrorCode } from '@wework/host-protocol';
import { respond, say } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { startExecutor, type Executor } from '../src/host/startExecutor.js';
import type { LocalRuntime } from '../src/runtime/LocalRuntime.js';

const SENDS = 16;

let root: string;
let model: ScriptedModel;
let executor: Executor;
let workspace: string;
/** The turn image store's root. */
let modelInput: string;
/** The `model/list` pages each app-server was asked for (a walk of the catalog starts without a cursor). */
const pages: Array<{ readonly cursor: unknown }> = [];
const tapped = new Set<LocalRuntime>();

/** Counts the `model/list` requests the executor sends to its current app-server. */
const tapCurrent = (): void => {
  const runtime = executor.runtime.current();
  if (tapped.has(runtime)) return;
  tapped.add(runtime);
  runtime.server.client.onMessage((direction, message) => {
    if (direction === 'outgoing' && 'method' in message && message.method === 'model/list' && 'id' in message) {
      const params = (message.params ?? {}) as { readonly cursor?: unknown };
      pages.push({ cursor: params.cursor ?? null });
    }
  });
};
/** How many times the catalog was read (walks from its first page). */
const reads = (): number => pages.filter((page) => page.cursor === null).length;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'executor-send-path-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  workspace = dirs.workspace;
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  model = await startScriptedModel({ script: Array.from({ length: SENDS }, (_, i) => respond(say(`answer ${i}`))) });
  // What a crashed run leaves in the image store's root; the store sweeps it when it is loaded.
  modelInput = join(dirs.executorHome, 'model-input');
  await mkdir(join(modelInput, 'turn-leftover'), { recursive: true });
  const written = await writeScriptedModelConfig(join(dirs.executorHome, 'codex'), { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
  const started = await startExecutor({ ...dirs, env: process.env, log: () => undefined, waitForPlugins: [] });
  if (E.isLeft(started)) throw new Error(started.left);
  executor = started.right;
  tapCurrent();
}, 120_000);

afterAll(async () => {
  await executor?.dispose();
  await model?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

const createTask = async (taskId: string, saved: string | null): Promise<void> => {
  const created = await executor.request('task/create', { taskId, modelSelection: { model: saved }, executionRequest: { workspace } });
  if (E.isLeft(created)) throw new Error(created.left.message);
};

const send = (taskId: string) => executor.request('message/send', { taskId, markdown: 'Say something.' });

const sendCompleted = async (taskId: string): Promise<void> => {
  const sent = await send(taskId);
  expect(sent).toMatchObject({ right: { status: 'completed' } });
};

describe('the model catalog on the send path', () => {
  it('five sends read the catalog only on the first', async () => {
    await createTask('five', null);
    expect(reads()).toBe(0);
    for (let i = 0; i < 5; i += 1) await sendCompleted('five');
    expect(reads()).toBe(1);
  });

  it('an explicit models/list always reads, and refills the cache', async () => {
    const before = reads();
    expect(await executor.request('models/list', {})).toMatchObject({ right: { models: expect.arrayContaining([expect.objectContaining({ isDefault: true })]) } });
    expect(await executor.request('models/list', {})).toMatchObject({ right: {} });
    expect(reads()).toBe(before + 2);
    await sendCompleted('five');
    expect(reads()).toBe(before + 2);
  });

  it('a config write touching model makes the next send read again, once', async () => {
    const before = reads();
    const written = await executor.runtime.current().server.client.request(ConfigValueWrite, { keyPath: 'model', value: 'mock-model', mergeStrategy: 'replace' });
    expect(E.isRight(written)).toBe(true);
    await sendCompleted('five');
    expect(reads()).toBe(before + 1);
    await sendCompleted('five');
    expect(reads()).toBe(before + 1);
  });

  it('a config write of another key keeps the cache', async () => {
    const before = reads();
    const written = await executor.runtime.current().server.client.request(ConfigValueWrite, { keyPath: 'personality', value: 'pragmatic', mergeStrategy: 'replace' });
    expect(E.isRight(written)).toBe(true);
    await sendCompleted('five');
    expect(reads()).toBe(before);
  });

  it('an account change makes the next send read again', async () => {
    const before = reads();
    const loggedOut = await executor.runtime.current().server.client.request(AccountLogout, undefined);
    expect(E.isRight(loggedOut)).toBe(true);
    await sendCompleted('five');
    expect(reads()).toBe(before + 1);
  });

  it('a saved model absent from the catalog blocks the send after exactly one read more', async () => {
    await createTask('retired', 'gpt-retired-model');
    const before = reads();
    const blocked = await send('retired');
    expect(blocked).toMatchObject({ left: { code: HostErrorCode.SendBlocked, tag: 'ModelUnavailable', message: 'the model saved with the task is not available; choose a model that models/list lists and send again with it as modelSelection' } });
    expect(reads()).toBe(before + 1);
    // Nothing was sent to the model, and the cache still serves the other task.
    await sendCompleted('five');
    expect(reads()).toBe(before + 1);
  });

  it('an app-server restart makes the next send read again', async () => {
    const restarted = await executor.runtime.restart();
    expect(E.isRight(restarted)).toBe(true);
    tapCurrent();
    const before = reads();
    await sendCompleted('five');
    expect(reads()).toBe(before + 1);
    await sendCompleted('five');
    expect(reads()).toBe(before + 1);
  });
});

describe('the turn image store on the send path', () => {
  it('is not begun for a text-only send: no directory is created, nothing is swept', async () => {
    await createTask('text-only', null);
    await sendCompleted('text-only');
    await sendCompleted('text-only');
    expect(await readdir(modelInput)).toEqual(['turn-leftover']);
  });

  it('is loaded and begun for a message with an attachment', async () => {
    const sent = await executor.request('message/send', { taskId: 'text-only', markdown: 'Look at this.', attachments: [join(root, 'missing.png')] });
    expect(sent).toMatchObject({ right: { status: 'completed', warnings: [expect.stringContaining('missing.png')] } });
    expect(await readdir(modelInput)).toEqual([]);
  });
});
