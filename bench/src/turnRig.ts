/**
 * What the turn benchmarks share: a side's box (its homes, workspace and own scripted model, with
 * the model written into its Codex home's config.toml), the desktop executor on the host protocol
 * over stdio, and its tasks and one-message turns.
 */
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { respond, say } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { LineClient } from './lineClient.js';
import { resultOf, type Dirs } from './rawClient.js';

/** Enough answers for every turn any comparison may run. */
const SCRIPT_LENGTH = 2000;

/** The executor's serve entry (built), found through its package like any host would. */
export const servePath = (): string => join(dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json')), 'dist', 'serve.js');

/** A side of a turn comparison. */
export interface Box extends Dirs {
  readonly root: string;
  readonly model: ScriptedModel;
}

/** Makes `<root>/<name>` with its Codex home at `codexHomeUnder`, and starts its scripted model. */
export async function box(root: string, name: string, codexHomeUnder: string): Promise<Box> {
  const base = join(root, name);
  const codexHome = join(base, codexHomeUnder);
  const dirs = { root: base, codexHome, home: join(base, 'home'), workspace: join(base, 'workspace') };
  await Promise.all([dirs.codexHome, dirs.home, dirs.workspace].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script: Array.from({ length: SCRIPT_LENGTH }, (_, i) => respond(say(`answer ${i}`))) });
  const written = await writeScriptedModelConfig(codexHome, { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
  return { ...dirs, model };
}

/** The executor on the host protocol over stdio, answered `executor/info`. */
export async function executor(b: Box, executorHome: string): Promise<LineClient> {
  const client = new LineClient(process.execPath, [servePath(), '--stdio', '--executor-home', executorHome, '--workspace', b.workspace], { ...process.env, HOME: b.home }, b.workspace);
  resultOf(await client.request('executor/info', {}), 'executor/info');
  return client;
}

/** `task/create` of a task in the box's workspace (no permission mode: Full access, the default). */
export async function executorTask(client: LineClient, b: Box, taskId: string): Promise<void> {
  resultOf(await client.request('task/create', { taskId, modelSelection: { model: null }, executionRequest: { workspace: b.workspace } }), 'task/create');
}

/** One `message/send`, answered when the turn completed. */
export async function executorTurn(client: LineClient, taskId: string): Promise<void> {
  const answer = resultOf(await client.request('message/send', { taskId, markdown: 'hi' }), 'message/send');
  if (answer['status'] !== 'completed') throw new Error(`message/send ended ${String(answer['status'])}`);
}

/** The wall time of `op`, in milliseconds. */
export const timed = async (op: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await op();
  return performance.now() - t0;
};

/** The boxes and processes of one benchmark, ended together by {@link Rig.close}. */
export class Rig {
  private readonly boxes: Box[] = [];
  private readonly clients: Array<{ readonly client: LineClient; readonly graceful: boolean }> = [];

  constructor(private readonly root: string) {}

  /** A box under the rig's root (see {@link box}). */
  async box(name: string, codexHomeUnder: string): Promise<Box> {
    const made = await box(this.root, name, codexHomeUnder);
    this.boxes.push(made);
    return made;
  }

  /** Ends `client` with the rig; `graceful`: by closing its stdin first (see {@link LineClient.close}). */
  own(client: LineClient, graceful: boolean): LineClient {
    this.clients.push({ client, graceful });
    return client;
  }

  /** The executor's box (its Codex home inside the executor home) and the executor on it. */
  async executorSide(): Promise<{ readonly box: Box; readonly exec: LineClient }> {
    const executorBox = await this.box('executor', join('executor', 'codex'));
    return { box: executorBox, exec: this.own(await executor(executorBox, join(executorBox.root, 'executor')), true) };
  }

  /** Ends every owned process, then every box's scripted model. */
  async close(): Promise<void> {
    for (const { client, graceful } of this.clients) await client.close(graceful);
    for (const b of this.boxes) await b.model.close();
  }
}
