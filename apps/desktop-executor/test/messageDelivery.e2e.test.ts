/**
 * Messages sent while a task's turn runs, end to end: the executor in process with its real app-server,
 * the real forms plugin, a scripted model, and a host connected over a JSON-RPC connection that holds a
 * plugin form card open (so the first turn runs until the test answers it). A steered message reaches
 * the model inside the running turn (its next request, same turn id); queued messages become turns of
 * their own after it, in order, each with its own turn id; a steer that names a skill or changes the
 * permission mode is refused (Codex's `turn/steer` cannot apply them), answered on the wire with the code,
 * the tag and a sentence naming which of the two it is (never the skill's path); a steer leaves the waiting card
 * waiting. Then twenty queued sends and a `task/stop`: sixteen wait, four are refused, the stop cancels
 * the sixteen and interrupts the turn, and every send is answered exactly once on the wire.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostErrorCode, type HostCard, type SendResult } from '@wework/host-protocol';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, respond, say, userMessages } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { until } from '@wework/test-support';
import { startExecutor, type Executor } from '../src/host/startExecutor.js';
import { managedConfig } from './support/executorSandbox.js';

let root: string;
let workspace: string;
let skillPath: string;
let model: ScriptedModel;
let executor: Executor;
let host: MessageConnection;
let served: Promise<void>;
let streams: ReadonlyArray<PassThrough> = [];
/** Every JSON-RPC message the executor wrote to the host, decoded from its framing. */
const toHost: Array<Record<string, unknown>> = [];
/** Cards shown to the host, each with the function that answers it. */
const cards: Array<{ readonly card: HostCard; readonly answer: (reply: unknown) => void }> = [];
const dismissed: string[] = [];
/** The transcript notifications the host got: items started and turns started. */
const items: Array<{ readonly taskId: string; readonly turnId: string; readonly phase: string; readonly item: { readonly type: string; readonly content?: unknown } }> = [];
const turnsStarted: Array<{ readonly taskId: string; readonly turnId: string }> = [];
/** How Codex answered each `turn/steer` the executor sent. */
const steersAnswered: string[] = [];

/** Whether a user message item of `taskId` holding `marker` started (in `turnId` when given). */
const userItem = (taskId: string, marker: string, turnId?: string): boolean =>
  items.some((entry) => entry.taskId === taskId && entry.phase === 'started' && entry.item.type === 'userMessage' && JSON.stringify(entry.item.content).includes(marker) && (turnId === undefined || entry.turnId === turnId));

/** Decodes `Content-Length` frames as they pass. */
function tapFrames(stream: PassThrough, into: Array<Record<string, unknown>>): void {
  let buffer = Buffer.alloc(0);
  stream.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      into.push(JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as Record<string, unknown>);
      buffer = buffer.subarray(headerEnd + 4 + length);
    }
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'executor-delivery-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  workspace = dirs.workspace;
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  const skillDir = join(workspace, '.agents/skills/captain');
  await mkdir(skillDir, { recursive: true });
  skillPath = join(skillDir, 'SKILL.md');
  await writeFile(skillPath, '---\nname: captain\ndescription: Talk like a captain\n---\n\nAnswer like a ship captain.\n');
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
  model = await startScriptedModel({
    script: [
      // The first test: a turn held open by a form card, then the queued messages' turns.
      respond(callTool('forms', 'choose_strategy')),
      respond(say('Steered and done.')),
      respond(say('First queued answered.')),
      respond(say('Second queued answered.')),
      // The second test: a turn held open by a form card until the stop.
      respond(callTool('forms', 'choose_strategy')),
    ],
  });
  await writeFile(join(dirs.executorHome, 'codex', 'config.toml'), stringifyToml(managedConfig()(model.url, plugin.command)), { mode: 0o600 });
  const started = await startExecutor({ ...dirs, env: process.env, log: (entry) => { if (process.env['DEBUG_DELIVERY'] !== undefined) console.log(JSON.stringify(entry)); }, waitForPlugins: ['forms'] });
  if (E.isLeft(started)) throw new Error(started.left);
  executor = started.right;
  const toExecutor = new PassThrough();
  const fromExecutor = new PassThrough();
  streams = [toExecutor, fromExecutor];
  tapFrames(fromExecutor, toHost);
  served = executor.serve(createMessageConnection(new StreamMessageReader(toExecutor), new StreamMessageWriter(fromExecutor)));
  host = createMessageConnection(new StreamMessageReader(fromExecutor), new StreamMessageWriter(toExecutor));
  host.onRequest('card/show', (params: { readonly card: HostCard }) => new Promise((resolve) => void cards.push({ card: params.card, answer: resolve })));
  host.onNotification('card/dismissed', (params: { readonly cardId: string }) => void dismissed.push(params.cardId));
  host.onNotification('transcript/item', (params: (typeof items)[number]) => void items.push(params));
  host.onNotification('transcript/turnStarted', (params: (typeof turnsStarted)[number]) => void turnsStarted.push(params));
  host.listen();
  await host.sendRequest('events/subscribe', {});
  // The executor's own wire to Codex: which turn/steer requests Codex answered, and how.
  const steerIds = new Set<unknown>();
  executor.runtime.current().server.client.onMessage((direction, message) => {
    if (direction === 'outgoing' && 'method' in message && message.method === 'turn/steer' && 'id' in message) steerIds.add(message.id);
    if (direction === 'incoming' && !('method' in message) && 'id' in message && steerIds.has(message.id)) steersAnswered.push('result' in message ? 'joined' : 'refused');
  });
}, 180_000);

afterAll(async () => {
  host?.dispose();
  // The host goes away: its connection ends, and the executor's serve with it.
  for (const stream of streams) stream.end();
  await Promise.race([served?.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await executor?.dispose();
  await model?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

type Sent = { readonly right: SendResult } | { readonly left: { readonly code: number; readonly message: string; readonly tag: unknown } };

/** `message/send` over the host connection: the result, or the error with its code and tag. */
const send = (params: Record<string, unknown>): Promise<Sent> =>
  host.sendRequest('message/send', params).then(
    (result) => ({ right: result as SendResult }),
    (error: { code: number; message: string; data?: { tag?: unknown } }) => ({ left: { code: error.code, message: error.message, tag: error.data?.tag } }),
  );

const createTask = async (taskId: string): Promise<void> => {
  const created = await host.sendRequest('task/create', { taskId, modelSelection: { model: null }, executionRequest: { workspace } });
  expect(created).toMatchObject({ task: { taskId } });
};

const strategy = { answers: { strategy: { answers: ['Safe'] } } };

describe('messages while a turn runs', () => {
  it('a steer joins the running turn (the model sees it there), queued messages become turns of their own in order', async () => {
    await createTask('steer');
    const first = send({ taskId: 'steer', markdown: 'Choose a strategy.' });
    await until('the strategy card', () => cards.length === 1, 30_000);
    const modelRequests = model.requests.length;
    const running = turnsStarted.find((started) => started.taskId === 'steer')?.turnId;
    expect(running).toBeDefined();

    const steered = await Promise.race([send({ taskId: 'steer', markdown: 'Also keep it short (steer marker 4417).' }).then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))]);
    // The steer waits for the turn it joined; it does not run a model request of its own, nor close the card.
    expect(steered).toBe('waiting');
    const queuedOne = send({ taskId: 'steer', markdown: 'Queued one (marker 5521).', delivery: 'queue' });
    const queuedTwo = send({ taskId: 'steer', markdown: 'Queued two (marker 5522).', delivery: 'queue' });
    // What turn/steer cannot apply is refused, with a sentence saying which it is and never the mention's target:
    // a skill mention, a change of permission mode.
    const mentioned = await send({ taskId: 'steer', markdown: `Use [$captain](${skillPath}).` });
    expect(mentioned).toMatchObject({ left: { code: HostErrorCode.SendBlocked, tag: 'NotSteerable', message: 'this message cannot join the running turn: it names skills, plugins or apps, which Codex applies only when a turn starts; send it again with delivery queue' } });
    expect('left' in mentioned && (mentioned.left.message.includes(skillPath) || mentioned.left.message.includes('captain'))).toBe(false);
    expect(await send({ taskId: 'steer', markdown: 'Now read only.', permissionMode: 'read-only' })).toMatchObject({
      left: { code: HostErrorCode.SendBlocked, tag: 'NotSteerable', message: 'this message cannot join the running turn: it changes the model or the permission mode, which only a new turn takes; send it again with delivery queue' },
    });
    expect(model.requests.length).toBe(modelRequests);
    expect(dismissed).toEqual([]);
    expect(await host.sendRequest('cards/pending', {})).toMatchObject({ cards: [{ cardId: cards[0]?.card.cardId }] });

    const steer = send({ taskId: 'steer', markdown: 'And mention the weather (steer marker 4418).' });
    // Codex took both steers (it records them as items of the turn when the model is next asked) before the card is answered.
    await until('both steers answered by Codex', () => steersAnswered.length === 2, 30_000);
    expect(steersAnswered).toEqual(['joined', 'joined']);
    cards[0]?.answer(strategy);
    const [started, joined, one, two] = await Promise.all([first, steer, queuedOne, queuedTwo]);
    expect(started).toMatchObject({ right: { status: 'completed', delivery: 'started' } });
    const turnId = 'right' in started ? started.right.turnId : null;
    expect(joined).toMatchObject({ right: { status: 'completed', delivery: 'steered', turnId } });
    expect(one).toMatchObject({ right: { status: 'completed', delivery: 'queued' } });
    expect(two).toMatchObject({ right: { status: 'completed', delivery: 'queued' } });
    const turnIds = [started, one, two].map((sent) => ('right' in sent ? sent.right.turnId : null));
    expect(new Set(turnIds).size).toBe(3);
    expect(turnIds[0]).toBe(running);
    // One turnStarted per turn: the steers started none.
    expect(turnsStarted.filter((started) => started.taskId === 'steer').map((started) => started.turnId)).toEqual(turnIds);
    expect(userItem('steer', 'steer marker 4417', running) && userItem('steer', 'steer marker 4418', running)).toBe(true);
    expect(userItem('steer', 'marker 5521', turnIds[1] ?? '')).toBe(true);
    expect(userItem('steer', 'marker 5522', turnIds[2] ?? '')).toBe(true);

    // The model's next request in the running turn holds the steered text; the queued ones come after, one turn each, in order.
    const [inTurn, afterOne, afterTwo] = model.requests.slice(modelRequests).map((request) => userMessages(request));
    expect(inTurn?.some((text) => text.includes('steer marker 4417'))).toBe(true);
    expect(inTurn?.some((text) => text.includes('steer marker 4418'))).toBe(true);
    expect(inTurn?.some((text) => text.includes('marker 552'))).toBe(false);
    expect(afterOne?.at(-1)).toContain('marker 5521');
    expect(afterOne?.some((text) => text.includes('marker 5522'))).toBe(false);
    expect(afterTwo?.at(-1)).toContain('marker 5522');
    const headers = model.requests.slice(modelRequests).map((request) => JSON.stringify(request.headers));
    expect(headers[0]).toContain(String(turnId));
    expect(headers[1]).toContain(String(turnIds[1]));
    expect(headers[2]).toContain(String(turnIds[2]));
  });

  it('twenty queued sends and a stop: sixteen cancelled, four refused, every send answered exactly once', async () => {
    await createTask('stop');
    const shown = cards.length;
    const first = send({ taskId: 'stop', markdown: 'Choose a strategy again.' });
    await until('the second strategy card', () => cards.length === shown + 1, 30_000);
    const sends = Array.from({ length: 20 }, (_, i) => send({ taskId: 'stop', markdown: `Queued ${i}.`, delivery: 'queue' }));
    const refused = await Promise.all(sends.slice(16));
    for (const sent of refused) expect(sent).toMatchObject({ left: { code: HostErrorCode.SendBlocked, tag: 'QueueFull' } });
    expect(await host.sendRequest('task/stop', { taskId: 'stop' })).toEqual({});
    const answered = await Promise.all(sends.slice(0, 16));
    for (const sent of answered) expect(sent).toMatchObject({ right: { taskId: 'stop', status: 'cancelled', delivery: 'queued', turnId: null } });
    expect(await first).toMatchObject({ right: { status: 'interrupted', delivery: 'started' } });
    await until('the card dismissed', () => dismissed.includes(cards[shown]?.card.cardId ?? ''), 30_000);
    // The host never answers the dismissed card, and need not: it is no longer pending.
    expect(await host.sendRequest('cards/pending', {})).toEqual({ cards: [] });

    // On the wire: one response for each of the 21 sends, none twice.
    const responses = toHost.filter((message) => 'id' in message && !('method' in message) && ('result' in message || 'error' in message));
    const ids = responses.map((message) => message['id']);
    expect(new Set(ids).size).toBe(ids.length);
    const sendAnswers = responses.filter((message) => {
      const result = message['result'] as { taskId?: unknown } | undefined;
      const error = message['error'] as { data?: { tag?: unknown } } | undefined;
      return result?.taskId === 'stop' || error?.data?.tag === 'QueueFull';
    });
    expect(sendAnswers).toHaveLength(21);
  }, 120_000);
});
