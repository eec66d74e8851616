/**
 * The demo conversation: the real codex app-server, the sample forms plugin as a Wework-managed MCP
 * server, and the scripted model as the embedded default model. One turn, printed as a transcript.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { ItemCompleted, ThreadStart, TurnCompleted, TurnStart, type Turn } from '@wework/codex-protocol';
import { describeClientError, describeMcpStartupError, trackMcpStartup } from '@wework/app-server-client';
import { spawnAppServer, type SpawnedAppServer } from '@wework/app-server-client/node';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { DEMO_PROMPT, demoScript } from './demoScript.js';
import { fullAccessThreadParams, scriptedExecutorConfig } from './executorConfig.js';
import { itemLine, turnLine, userLine } from './Transcript.js';

const PLUGIN_START_TIMEOUT_MS = 30_000;

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Receives each transcript line as it happens. */
  readonly print: (line: string) => void;
  /** Base environment of the app-server; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long the turn may take; default 60 s. */
  readonly turnTimeoutMs?: number;
}

/** How the demo ended. */
export type DemoResult =
  | { readonly _tag: 'TurnFinished'; readonly turn: Turn }
  | { readonly _tag: 'DemoFailed'; readonly message: string; readonly stderrTail: string };

/** Runs the demo conversation; everything it starts is stopped before it resolves. */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const root = await mkdtemp(join(tmpdir(), 'wework-executor-'));
  const codexHome = join(root, 'codex-home');
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  await Promise.all([codexHome, home, workspace].map((dir) => mkdir(dir, { recursive: true })));
  let model: ScriptedModel | undefined;
  let server: SpawnedAppServer | undefined;
  try {
    const plugin = checkPluginBuilt('forms');
    if (!plugin.ok) return { _tag: 'DemoFailed', message: `the sample plugin is not built (${plugin.error.path}); run the build first`, stderrTail: '' };
    model = await startScriptedModel({ script: demoScript });
    const config = scriptedExecutorConfig(model.url, [{ name: 'forms', ...plugin.command }]);
    await writeFile(join(codexHome, 'config.toml'), stringifyToml(config), { mode: 0o600 });

    const spawned = await spawnAppServer({ codexHome, home, cwd: workspace, env: options.env ?? process.env });
    if (E.isLeft(spawned)) return { _tag: 'DemoFailed', message: `codex app-server did not start: ${spawned.left._tag}`, stderrTail: '' };
    server = spawned.right;
    const { client } = server;
    const version = /\/(\d+\.\d+\.\d+)/.exec(server.initializeResult.userAgent)?.[1] ?? 'unknown version';
    options.print(`Wework desktop executor — demo conversation (real codex app-server ${version}, embedded scripted model)`);

    const startup = trackMcpStartup(client);
    const thread = await client.request(ThreadStart, fullAccessThreadParams(workspace));
    if (E.isLeft(thread)) return { _tag: 'DemoFailed', message: `thread/start failed: ${describeClientError(thread.left)}`, stderrTail: server.stderrTail() };
    const threadId = thread.right.thread.id;
    const ready = await startup.whenSettled(['forms'], PLUGIN_START_TIMEOUT_MS);
    startup.dispose();
    if (E.isLeft(ready)) return { _tag: 'DemoFailed', message: describeMcpStartupError(ready.left), stderrTail: server.stderrTail() };

    const finished = new Promise<Turn>((resolve) => {
      client.on(TurnCompleted, (params) => {
        if (params.threadId === threadId) resolve(params.turn);
      });
    });
    client.on(ItemCompleted, (params) => {
      if (params.threadId !== threadId) return;
      const line = itemLine(params.item);
      if (line !== undefined) options.print(line);
    });

    options.print(userLine(DEMO_PROMPT));
    const started = await client.request(TurnStart, { threadId, input: [{ type: 'text', text: DEMO_PROMPT, text_elements: [] }] });
    if (E.isLeft(started)) return { _tag: 'DemoFailed', message: `turn/start failed: ${describeClientError(started.left)}`, stderrTail: server.stderrTail() };

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), options.turnTimeoutMs ?? 60_000);
    });
    const closed = client.closed.then(() => undefined);
    const turn = await Promise.race([finished, timeout, closed]);
    clearTimeout(timer);
    if (turn === undefined) {
      const why = client.terminalError === undefined ? 'the turn did not finish in time' : describeClientError(client.terminalError);
      return { _tag: 'DemoFailed', message: why, stderrTail: server.stderrTail() };
    }
    options.print(turnLine(turn));
    return { _tag: 'TurnFinished', turn };
  } finally {
    await server?.dispose();
    await model?.close();
    await rm(root, { recursive: true, force: true });
  }
}
