/**
 * `npm run bench`: the round trip of one scripted turn (turn/start → turn/completed) through
 * `@wework/app-server-client`, against a minimal direct line-pipe client driving an identically
 * configured app-server. Turns alternate between the two so both see the same machine load; the
 * result is printed as a ratio of medians measured in this run (goal: ≤ 1.05×).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { stringify } from 'smol-toml';
import { Methods, ThreadStart } from '@wework/codex-protocol';
import { isTurnEnded, runTurn } from '@wework/app-server-client';
import { resolveCodexCommand, spawnAppServer, type SpawnedAppServer } from '@wework/app-server-client/node';
import { respond, say } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { LineClient } from './lineClient.js';
import { summarize, type Summary } from './stats.js';
import { benchElicitationMapping } from './elicitationMapping.js';
import { benchImagePreprocess } from './imagePreprocess.js';
import { benchMentionParsing } from './mentionParsing.js';
import { benchSyncCommit } from './syncCommit.js';
import { benchExecutorColdStart } from './executorColdStart.js';
import { benchProtocolImport } from './protocolImport.js';
import { benchWebHost } from './webHostPaint.js';

const WARMUP_TURNS = 5;
const MEASURED_TURNS = Number(process.env['BENCH_TURNS'] ?? 40);

interface Sandbox {
  readonly root: string;
  readonly codexHome: string;
  readonly home: string;
  readonly workspace: string;
  readonly model: ScriptedModel;
}

async function sandbox(turns: number): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'wework-bench-'));
  const dirs = { root, codexHome: join(root, 'codex-home'), home: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([dirs.codexHome, dirs.home, dirs.workspace].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script: Array.from({ length: turns }, (_, i) => respond(say(`answer ${i}`))) });
  const config = {
    model_provider: 'scripted',
    model: 'mock-model',
    model_providers: { scripted: { name: 'Scripted', base_url: model.url, wire_api: 'responses', request_max_retries: 0, stream_max_retries: 0 } },
    features: { plugins: false, unbounded_connection_retries: false },
  };
  await writeFile(join(dirs.codexHome, 'config.toml'), stringify(config), { mode: 0o600 });
  return { ...dirs, model };
}

type TurnRunner = () => Promise<number>;

async function viaClient(box: Sandbox): Promise<{ readonly turn: TurnRunner; readonly close: () => Promise<void> }> {
  const spawned = await spawnAppServer({ codexHome: box.codexHome, home: box.home, cwd: box.workspace, env: process.env });
  if (E.isLeft(spawned)) throw new Error(`spawnAppServer: ${spawned.left._tag}`);
  const server: SpawnedAppServer = spawned.right;
  const thread = await server.client.request(ThreadStart, { cwd: box.workspace });
  if (E.isLeft(thread)) throw new Error('thread/start failed');
  const threadId = thread.right.thread.id;
  const turn: TurnRunner = async () => {
    const t0 = performance.now();
    const outcome = await runTurn(server.client, { threadId, input: [{ type: 'text', text: 'hi', text_elements: [] }] });
    if (!isTurnEnded(outcome)) throw new Error(`turn did not complete: ${outcome._tag}`);
    return performance.now() - t0;
  };
  return { turn, close: () => server.dispose() };
}

async function viaLinePipe(box: Sandbox): Promise<{ readonly turn: TurnRunner; readonly close: () => Promise<void> }> {
  const codex = resolveCodexCommand();
  if (E.isLeft(codex)) throw new Error('codex not found');
  const env = { ...process.env, CODEX_HOME: box.codexHome, HOME: box.home, PATH: [...codex.right.pathPrepend, process.env['PATH'] ?? ''].join(delimiter) };
  const client = new LineClient(codex.right.command, [...codex.right.args, 'app-server'], env, box.workspace);
  await client.request(Methods.Initialize, { clientInfo: { name: 'bench', title: null, version: '0' }, capabilities: { experimentalApi: true } });
  client.notify(Methods.Initialized);
  const thread = (await client.request(Methods.ThreadStart, { cwd: box.workspace })) as { result: { thread: { id: string } } };
  const threadId = thread.result.thread.id;
  const turn: TurnRunner = async () => {
    const t0 = performance.now();
    const completed = client.waitFor((message) => message.method === Methods.TurnCompleted && message.params?.['threadId'] === threadId);
    await client.request(Methods.TurnStart, { threadId, input: [{ type: 'text', text: 'hi', text_elements: [] }] });
    await completed;
    return performance.now() - t0;
  };
  return { turn, close: () => client.close() };
}

const fmt = (summary: Summary): string => `median ${summary.median.toFixed(1)} ms, p90 ${summary.p90.toFixed(1)} ms (n=${summary.n})`;

async function main(): Promise<void> {
  const turns = WARMUP_TURNS + MEASURED_TURNS;
  const [clientBox, lineBox] = await Promise.all([sandbox(turns), sandbox(turns)]);
  const client = await viaClient(clientBox);
  const line = await viaLinePipe(lineBox);
  const samples = { client: [] as number[], line: [] as number[] };
  try {
    for (let i = 0; i < turns; i += 1) {
      // Alternate which goes first so neither always runs right after the other.
      const order = i % 2 === 0 ? (['client', 'line'] as const) : (['line', 'client'] as const);
      for (const which of order) {
        const ms = await (which === 'client' ? client.turn() : line.turn());
        if (i >= WARMUP_TURNS) samples[which].push(ms);
      }
    }
  } finally {
    await client.close();
    await line.close();
    await Promise.all([clientBox, lineBox].map(async (box) => {
      await box.model.close();
      await rm(box.root, { recursive: true, force: true });
    }));
  }
  const measured = { client: summarize(samples.client), line: summarize(samples.line) };
  const ratio = measured.client.median / measured.line.median;
  console.log('turn round trip (turn/start → turn/completed), real codex app-server, scripted model');
  console.log(`  baseline  line-pipe client:   ${fmt(measured.line)}`);
  console.log(`  measured  app-server-client:  ${fmt(measured.client)}`);
  console.log(`  ratio (median) app-server-client / line-pipe: ${ratio.toFixed(3)}× (goal ≤ 1.05×) ${ratio <= 1.05 ? 'ok' : 'ABOVE GOAL'}`);
}

await main();
console.log('');
console.log((await benchElicitationMapping()).join('\n'));
console.log('');
console.log((await benchImagePreprocess()).join('\n'));
console.log('');
console.log((await benchMentionParsing()).join('\n'));
console.log('');
console.log((await benchSyncCommit()).join('\n'));
console.log('');
console.log((await benchExecutorColdStart()).join('\n'));
console.log('');
console.log((await benchProtocolImport()).join('\n'));

console.log((await benchWebHost()).join('\n'));
