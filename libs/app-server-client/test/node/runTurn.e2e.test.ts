/**
 * `runTurn` against the real `codex app-server`, offline, with a loopback model that never finishes its
 * answer: the turn is given up by timeout or abort, interrupted, and the app-server confirms the
 * interruption with the turn's `turn/completed`. (Turns that complete are run end to end through
 * `runTurn` by the scripted-model and harness tests.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { ThreadStart, TurnCompleted } from '@wework/codex-protocol';
import { runTurn } from '../../src/index.js';
import { spawnAppServer } from '../../src/node/index.js';
import type { SpawnedAppServer } from '../../src/node/index.js';
import { createCodexSandbox } from '../support/codexSandbox.js';
import { startHangingModel } from '../support/hangingModel.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startWithHangingModel(): Promise<{ server: SpawnedAppServer; threadId: string; streaming: Promise<void> }> {
  const model = await startHangingModel();
  cleanups.push(() => model.close());
  const box = await createCodexSandbox({ modelBaseUrl: model.baseUrl });
  cleanups.push(() => box.remove());
  const spawned = await spawnAppServer({ codexHome: box.codexHome, home: box.home, cwd: box.cwd, env: box.env });
  if (E.isLeft(spawned)) throw new Error(`spawnAppServer failed: ${JSON.stringify(spawned.left)}`);
  cleanups.push(() => spawned.right.dispose());
  const thread = await spawned.right.client.request(ThreadStart, { cwd: box.cwd });
  if (E.isLeft(thread)) throw new Error(`thread/start failed: ${JSON.stringify(thread.left)}`);
  return { server: spawned.right, threadId: thread.right.thread.id, streaming: model.streaming };
}

/** The status `turn/completed` reports for the turn, once it does. */
const completedStatus = (server: SpawnedAppServer, turnId: () => string | undefined): Promise<string> =>
  new Promise((resolve) => {
    server.client.on(TurnCompleted, (params) => {
      if (params.turn.id === turnId()) resolve(params.turn.status);
    });
  });

const input = [{ type: 'text' as const, text: 'hello', text_elements: [] }];

describe('runTurn end to end', () => {
  it('times out a turn that never ends, and interrupts it', async () => {
    const { server, threadId } = await startWithHangingModel();
    let turnId: string | undefined;
    const status = completedStatus(server, () => turnId);
    const outcome = await runTurn(server.client, { threadId, input }, { timeoutMs: 1_500, onStarted: (turn) => (turnId = turn.id) });
    expect(outcome).toMatchObject({ _tag: 'TimedOut', threadId, turnId, timeoutMs: 1_500 });
    expect(await status).toBe('interrupted');
  });

  it('aborts a running turn on its signal, and interrupts it', async () => {
    const { server, threadId, streaming } = await startWithHangingModel();
    const controller = new AbortController();
    let turnId: string | undefined;
    let started!: () => void;
    const answered = new Promise<void>((resolve) => (started = resolve));
    const status = completedStatus(server, () => turnId);
    // The model may be streaming before the client has read turn/start's answer; abort once both happened,
    // so the turn is known (an abort before the answer is the documented `turnId: null` case).
    void Promise.all([streaming, answered]).then(() => controller.abort());
    const outcome = await runTurn(server.client, { threadId, input }, {
      signal: controller.signal,
      onStarted: (turn) => {
        turnId = turn.id;
        started();
      },
    });
    expect(outcome).toMatchObject({ _tag: 'Aborted', threadId, turnId });
    expect(turnId).toBeDefined();
    expect(await status).toBe('interrupted');
  });

  it('is ClientClosed when the app-server dies under the turn', async () => {
    const { server, threadId, streaming } = await startWithHangingModel();
    void streaming.then(() => process.kill(server.pid, 'SIGKILL'));
    const outcome = await runTurn(server.client, { threadId, input });
    expect(outcome).toMatchObject({ _tag: 'ClientClosed', threadId, error: { _tag: 'ProcessExited', signal: 'SIGKILL' } });
  });
});
