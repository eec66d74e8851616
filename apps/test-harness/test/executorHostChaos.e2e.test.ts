/**
 * Chaos through the desktop executor's host protocol: a 50-turn conversation of one task, plain turns
 * and plugin-form turns, with the app-server SIGKILLed at seeded random points — between turns, while
 * the model streams, and while a form waits for the user. The host behaves as documented: a request
 * answered RuntimeUnavailable (-32012) is sent again once `runtime/status` says `ready`. Nothing is
 * lost: every send gets a terminal answer (completed, or failed for the turns under a kill), and the
 * last turn's model input holds every completed user message, in order, on the same thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, hang, respond, say, userMessages, type ModelResponse, type RecordedRequest } from '@wework/scripted-model';
import type { ScriptedModel } from '@wework/scripted-model/node';
import type { HostCard, HostReply, RuntimeStatus } from '@wework/host-protocol';
import type { ExecutorHostClient } from '../src/host/ExecutorHostClient.js';
import { killAppServer } from './support/appServerProcess.js';
import { startHostBox } from './support/executorHostBox.js';
import { until } from '@wework/test-support';

const TURNS = 50;
/** Kills, spread out so they stay below the crash-loop limit (5 within 60 s). */
const KILLS = 4;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Kill = 'none' | 'idle' | 'streaming' | 'card';
interface PlannedTurn {
  readonly index: number;
  readonly form: boolean;
  readonly kill: Kill;
}

/** A small seeded generator (mulberry32), so a failing plan can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 50 turns, about a third with a form; KILLS kills at random turns (not the first two), at least 8 turns apart. */
function plan(seed: number): PlannedTurn[] {
  const next = random(seed);
  const killAt = new Map<number, Kill>();
  while (killAt.size < KILLS) {
    const index = 2 + Math.floor(next() * (TURNS - 3));
    if ([...killAt.keys()].some((other) => Math.abs(other - index) < 8)) continue;
    killAt.set(index, (['idle', 'streaming', 'card'] as const)[killAt.size % 3] ?? 'idle');
  }
  return Array.from({ length: TURNS }, (_unused, index) => {
    const kill = killAt.get(index) ?? 'none';
    return { index, form: kill === 'card' || (kill !== 'streaming' && next() < 0.3), kill };
  });
}

const text = (turn: PlannedTurn): string => `Chaos message ${turn.index}.`;

/** The model's answers, request by request: a killed turn consumes only what it asked for before the kill. */
function scriptOf(turns: ReadonlyArray<PlannedTurn>): ModelResponse[] {
  return turns.flatMap((turn): ModelResponse[] => {
    if (turn.kill === 'streaming') return [hang()];
    if (turn.kill === 'card') return [respond(callTool('forms', 'choose_strategy'))];
    return turn.form ? [respond(callTool('forms', 'choose_strategy')), respond(say(`Reply ${turn.index}, after the form.`))] : [respond(say(`Reply ${turn.index}.`))];
  });
}

const modelTurns = (model: ScriptedModel): ReadonlyArray<RecordedRequest> => model.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/v1/responses'));

interface SendResult {
  readonly threadId: string;
  readonly status: string;
  readonly error: string | null;
}

/** Sends as a host does: a RuntimeUnavailable answer is retried once the runtime says ready again. */
async function send(host: ExecutorHostClient, markdown: string): Promise<SendResult> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const ready = host.nextNotification<RuntimeStatus>('runtime/status', (status) => status.state === 'ready', { timeoutMs: 60_000 });
    ready.catch(() => undefined);
    const answer = await host.request('message/send', { taskId: 'chaos', markdown });
    if (answer._tag === 'Right') return answer.right;
    if (answer.left.code !== -32012) throw new Error(`message/send failed: ${answer.left.code} ${answer.left.message}`);
    await ready;
  }
  throw new Error('message/send was refused too often');
}

describe('chaos: a 50-turn conversation with forms and app-server kills', () => {
  it('loses nothing: every turn completed or reported failed, the history intact after every resume', async () => {
    const seed = Number(process.env['CHAOS_SEED'] ?? 1_3013);
    const turns = plan(seed);
    const plugin = checkPluginBuilt('forms');
    if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
    /** The turn now running, so the card policy knows whether to answer or to wait for the kill. */
    let running: PlannedTurn | undefined;
    const waiting = new Set<(answer: HostReply) => void>();
    const box = await startHostBox({
      prefix: 'harness-host-chaos-',
      script: scriptOf(turns),
      mcpServers: { forms: { ...plugin.command, default_tools_approval_mode: 'approve' } },
      waitForPlugins: ['forms'],
      cards: (card: HostCard) =>
        running?.kill === 'card' ? new Promise<HostReply>((resolve) => waiting.add(resolve)) : { answers: { [card.questions[0]?.id ?? 'strategy']: { answers: ['Safe'] } } },
    });
    cleanups.push(async () => {
      for (const resolve of waiting) resolve({ action: 'cancel' });
      await box.close();
    });
    const { host, model, workspace } = box;

    const created = await host.request('task/create', { taskId: 'chaos', modelSelection: { model: null }, executionRequest: { workspace } });
    if (created._tag === 'Left') throw new Error(`task/create failed: ${created.left.message}\n${host.stderr()}`);
    const threadId = created.right.task.threadId;
    const completed: string[] = [];
    const outcomes: Array<{ index: number; kill: Kill; status: string }> = [];

    for (const turn of turns) {
      running = turn;
      const cardsBefore = host.cards.length;
      const requestsBefore = modelTurns(model).length;
      if (turn.kill === 'idle') await killAppServer(host.pid);
      const answer = send(host, text(turn));
      if (turn.kill === 'streaming') {
        await until('the model request', () => modelTurns(model).length > requestsBefore, 60_000);
        await killAppServer(host.pid);
      }
      if (turn.kill === 'card') {
        await until('the form card', () => host.cards.length > cardsBefore, 60_000);
        await killAppServer(host.pid);
      }
      const result = await answer;
      expect(result.threadId).toBe(threadId);
      outcomes.push({ index: turn.index, kill: turn.kill, status: result.status });
      if (result.status === 'completed') completed.push(text(turn));
    }

    // Killed under a running turn: reported failed; every other turn completed.
    expect(outcomes.filter((o) => o.status !== 'completed')).toEqual(outcomes.filter((o) => o.kill === 'streaming' || o.kill === 'card').map((o) => ({ ...o, status: 'failed' })));
    expect(completed).toHaveLength(TURNS - turns.filter((t) => t.kill === 'streaming' || t.kill === 'card').length);
    // The history survived every restart: the last model input holds every completed message, in order.
    const last = modelTurns(model).at(-1);
    const seen = last === undefined ? [] : userMessages(last).filter((message) => message.startsWith('Chaos message'));
    expect(seen.filter((message) => completed.includes(message))).toEqual(completed);
    // Every form was shown: the plugin was ready again after each restart.
    expect(host.cards.filter((card) => card.origin === 'mcpElicitation')).toHaveLength(turns.filter((t) => t.form).length);
    expect(turns.filter((t) => t.form).length).toBeGreaterThan(5);
    const states = host.runtimeStatuses().map((status) => status.state);
    expect(states.filter((state) => state === 'restarting')).toHaveLength(KILLS);
    expect(states.at(-1)).toBe('ready');
    expect(await host.request('executor/info', {})).toMatchObject({ right: { runtime: { state: 'ready' } } });
  }, 300_000);
});
