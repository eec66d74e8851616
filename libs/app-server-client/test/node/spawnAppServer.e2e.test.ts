/**
 * End-to-end against the real `codex app-server` from the installed `@openai/codex`, offline: a temp
 * CODEX_HOME/HOME per test, and for turns a loopback model that never finishes its answer.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { ModelList, ThreadStart, TurnStart, TurnStarted } from '@wework/codex-protocol';
import type { JsonRpcMessage } from '@wework/jsonrpc';
import { checkCodexVersion, type ClientEvent } from '../../src/index.js';
import type { MessageDirection } from '../../src/ClientContract.js';
import { spawnAppServer } from '../../src/node/index.js';
import type { SpawnedAppServer } from '../../src/node/index.js';
import { createCodexSandbox } from '../support/codexSandbox.js';
import type { CodexSandbox, CodexSandboxOptions } from '../support/codexSandbox.js';
import { startHangingModel } from '../support/hangingModel.js';
import type { HangingModel } from '../support/hangingModel.js';
import { groupMembers, stillRunning, treeSnapshot } from '../support/processes.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  // Last registered, first cleaned: servers before their sandbox and model.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(options: CodexSandboxOptions = {}): Promise<CodexSandbox> {
  const created = await createCodexSandbox(options);
  cleanups.push(() => created.remove());
  return created;
}

async function hangingModel(): Promise<HangingModel> {
  const model = await startHangingModel();
  cleanups.push(() => model.close());
  return model;
}

async function start(box: CodexSandbox, command: { readonly command?: string; readonly args?: string[]; readonly codexPath?: string } = {}): Promise<SpawnedAppServer> {
  const spawned = await spawnAppServer({ codexHome: box.codexHome, home: box.home, cwd: box.cwd, env: box.env, ...command });
  if (E.isLeft(spawned)) throw new Error(`spawnAppServer failed: ${JSON.stringify(spawned.left)}`);
  cleanups.push(() => spawned.right.dispose());
  return spawned.right;
}

function right<A>(result: E.Either<unknown, A>, what: string): A {
  if (E.isLeft(result)) throw new Error(`${what} failed: ${JSON.stringify(result.left)}`);
  return result.right;
}

describe('codex app-server end to end', () => {
  it('taps the handshake when onMessage is given to spawnAppServer', async () => {
    const box = await sandbox();
    const wire: [MessageDirection, string][] = [];
    const spawned = await spawnAppServer({
      codexHome: box.codexHome,
      home: box.home,
      cwd: box.cwd,
      env: box.env,
      onMessage: (direction, message) => {
        // Notifications such as configWarning may arrive at any point of the handshake.
        const notification = direction === 'incoming' && 'method' in message && !('id' in message);
        if (!notification) wire.push([direction, 'method' in message ? message.method : 'response']);
      },
    });
    if (E.isLeft(spawned)) throw new Error(`spawnAppServer failed: ${JSON.stringify(spawned.left)}`);
    cleanups.push(() => spawned.right.dispose());
    expect(wire.slice(0, 3)).toEqual([
      ['outgoing', 'initialize'],
      ['incoming', 'response'],
      ['outgoing', 'initialized'],
    ]);
  });

  it('initializes, lists models, starts a thread, and leaves no process after dispose', async () => {
    const box = await sandbox();
    const server = await start(box);
    const wire: [MessageDirection, JsonRpcMessage][] = [];
    server.client.onMessage((direction, message) => wire.push([direction, message]));
    expect(server.initializeResult.codexHome).toBe(box.codexHome);
    expect(server.initializeResult.userAgent).toContain('0.171.0');

    const models = right(await server.client.request(ModelList, { includeHidden: false }), 'model/list');
    expect(models.data.length).toBeGreaterThan(0);
    expect(models.data.filter((model) => model.isDefault)).toHaveLength(1);

    const started = right(await server.client.request(ThreadStart, { cwd: box.cwd }), 'thread/start');
    expect(started.thread.id).not.toBe('');

    expect(wire.filter(([direction]) => direction === 'outgoing').map(([, message]) => ('method' in message ? message.method : 'response'))).toEqual([
      'model/list',
      'thread/start',
    ]);

    const tree = await treeSnapshot(server.pid);
    expect(tree.map((entry) => entry.pid)).toContain(server.pid);
    await server.dispose();
    expect(await stillRunning(tree)).toEqual([]);
    expect(await groupMembers(server.pid)).toEqual([]);
  });

  it('runs a Codex the host gives (here the npm wrapper script, run with this Node), and dispose also ends the native child it starts', async () => {
    const wrapper = join(dirname(createRequire(import.meta.url).resolve('@openai/codex/package.json')), 'bin', 'codex.js');
    const box = await sandbox();
    const server = await start(box, { codexPath: wrapper });
    expect(server.commandLine).toEqual([process.execPath, wrapper, 'app-server']);
    expect(checkCodexVersion(server.initializeResult.userAgent)).toEqual({ _tag: 'Supported', version: '0.171.0' });
    right(await server.client.request(ModelList, { includeHidden: false, limit: 1 }), 'model/list');
    const tree = await treeSnapshot(server.pid);
    // On Node versions without process.execve the wrapper starts the native binary as its child.
    if (typeof (process as { execve?: unknown }).execve !== 'function') expect(tree.length).toBeGreaterThanOrEqual(2);
    await server.dispose();
    expect(await stillRunning(tree)).toEqual([]);
    expect(await groupMembers(server.pid)).toEqual([]);
  });

  it('survives a garbage line: the app-server logs it and answers the next request', async () => {
    const box = await sandbox();
    const server = await start(box);
    const events: ClientEvent[] = [];
    server.client.onEvent((event) => events.push(event));
    server.child.stdin.write('this is {not json\n');
    const models = right(await server.client.request(ModelList, { includeHidden: false, limit: 1 }), 'model/list after garbage');
    expect(models.data).toHaveLength(1);
    expect(models.nextCursor).toBe('1');
    expect(server.stderrTail()).toContain('Failed to deserialize');
    expect(events).toEqual([]);
  });

  it('turns a SIGKILL mid-turn into ProcessExited, resolves the pending request Left, and leaves no process', async () => {
    const model = await hangingModel();
    const box = await sandbox({ modelBaseUrl: model.baseUrl });
    const server = await start(box);
    const events: ClientEvent[] = [];
    server.client.onEvent((event) => events.push(event));

    const thread = right(await server.client.request(ThreadStart, { cwd: box.cwd }), 'thread/start');
    const turnStarted = new Promise<string>((resolve, reject) => {
      server.client.on(TurnStarted, (params) => resolve(params.turn.id));
      server.client.onEvent((event) => {
        if (event._tag === 'InvalidNotification' && event.method === 'turn/started') reject(new Error(`turn/started did not decode: ${event.message}`));
      });
    });
    const turn = right(
      await server.client.request(TurnStart, { threadId: thread.thread.id, input: [{ type: 'text', text: 'hello', text_elements: [] }] }),
      'turn/start',
    );
    expect(await turnStarted).toBe(turn.turn.id);
    await model.streaming;

    const tree = await treeSnapshot(server.pid);
    // Freeze the app-server so the next request is certainly unanswered when the kill lands.
    process.kill(server.pid, 'SIGSTOP');
    const pending = server.client.request(ModelList, { includeHidden: false });
    process.kill(server.pid, 'SIGKILL');

    const result = await pending;
    expect(result).toMatchObject(E.left({ _tag: 'ProcessExited', code: null, signal: 'SIGKILL' }));
    expect(events.filter((event) => event._tag === 'ProcessExited')).toHaveLength(1);
    expect(await server.exited).toMatchObject({ _tag: 'ProcessExited', signal: 'SIGKILL' });

    await server.dispose();
    expect(await stillRunning(tree)).toEqual([]);
    expect(await groupMembers(server.pid)).toEqual([]);
  });
});
