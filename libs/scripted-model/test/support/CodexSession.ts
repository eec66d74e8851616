/**
 * A real `codex app-server` wired to a scripted model, for end-to-end tests: temporary
 * CODEX_HOME/HOME/workspace, a config.toml selecting the scripted model (fail-fast) and the
 * sample forms plugin, the app-server spawned and initialized through
 * `@wework/app-server-client/node`, and helpers to run a turn and collect what happened.
 * `dispose()` ends the process tree, closes the model and removes the directories.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { spawnAppServer, type SpawnedAppServer } from '@wework/app-server-client/node';
import { describeClientError, describeMcpStartupError, isTurnEnded, runTurn, trackMcpStartup } from '@wework/app-server-client';
import { ThreadStart, TurnInterrupt, type ItemCompleted, type ParamsOf, type ResultOf, type TurnCompleted } from '@wework/codex-protocol';
import { formsPluginCommand } from '@wework/sample-plugins';
import type { Script } from '../../src/index.js';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '../../src/node/index.js';
import { toToml } from './toml.js';

export type ThreadStartParams = ParamsOf<typeof ThreadStart>;
export type CompletedTurn = ParamsOf<typeof TurnCompleted>['turn'];
export type CompletedItem = ParamsOf<typeof ItemCompleted>['item'];

export interface TurnOutcome {
  readonly turn: CompletedTurn;
  /** Items completed during the turn, in notification order. */
  readonly items: ReadonlyArray<CompletedItem>;
}

export interface CodexSession {
  readonly model: ScriptedModel;
  readonly appServer: SpawnedAppServer;
  /** The thread's working directory. */
  readonly workspace: string;
  startThread(params?: Partial<ThreadStartParams>): Promise<string>;
  /** Starts a turn with one text input; resolves when it completes (or rejects after `timeoutMs`). */
  runTurn(threadId: string, text: string, options?: { readonly timeoutMs?: number; readonly onStarted?: (turnId: string) => void }): Promise<TurnOutcome>;
  interrupt(threadId: string, turnId: string): Promise<void>;
  dispose(): Promise<void>;
}

/** The parent environment without anything that looks like a credential or another Codex home. */
function childEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|^OPENAI_|^CODEX_/i.test(key)) continue;
    env[key] = value;
  }
  return env;
}

function unwrap<A>(what: string, result: E.Either<Parameters<typeof describeClientError>[0], A>): A {
  if (E.isLeft(result)) throw new Error(`${what} failed: ${describeClientError(result.left)}`);
  return result.right;
}

export async function startCodexSession(script: Script): Promise<CodexSession> {
  const root = await mkdtemp(join(tmpdir(), 'scripted-model-e2e-'));
  const codexHome = join(root, 'codex-home');
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  await Promise.all([mkdir(codexHome), mkdir(home), mkdir(workspace)]);
  const cleanups: Array<() => Promise<void>> = [() => rm(root, { recursive: true, force: true })];
  const dispose = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const model = await startScriptedModel({ script, host: '127.0.0.1' });
    cleanups.push(() => model.close());
    const forms = formsPluginCommand();
    await writeFile(join(codexHome, 'config.toml'), toToml({ mcp_servers: { forms: { command: forms.command, args: [...forms.args], default_tools_approval_mode: 'approve' } } }));
    const written = await writeScriptedModelConfig(codexHome, { baseUrl: model.url });
    if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
    const spawned = await spawnAppServer({ codexHome, home, cwd: workspace, env: childEnvironment() });
    if (E.isLeft(spawned)) throw new Error(`spawning codex app-server failed: ${JSON.stringify(spawned.left)}`);
    const appServer = spawned.right;
    cleanups.push(() => appServer.dispose());
    const { client } = appServer;

    return {
      model,
      appServer,
      workspace,
      async startThread(params = {}) {
        // Codex may sample the model before an MCP server has listed its tools: wait for the forms plugin,
        // as the executor and the harness do.
        const startup = trackMcpStartup(client);
        try {
          const result: ResultOf<typeof ThreadStart> = unwrap(
            'thread/start',
            await client.request(ThreadStart, { cwd: workspace, approvalPolicy: 'never', ...params } as ThreadStartParams),
          );
          const ready = await startup.whenSettled(['forms'], 30_000);
          if (E.isLeft(ready)) throw new Error(`the forms plugin did not start: ${describeMcpStartupError(ready.left)}`);
          return result.thread.id;
        } finally {
          startup.dispose();
        }
      },
      async runTurn(threadId, text, options = {}) {
        const timeoutMs = options.timeoutMs ?? 20_000;
        const outcome = await runTurn(
          client,
          { threadId, input: [{ type: 'text', text, text_elements: [] }] },
          { timeoutMs, interruptOnStop: false, ...(options.onStarted === undefined ? {} : { onStarted: (turn: CompletedTurn) => options.onStarted?.(turn.id) }) },
        );
        if (outcome._tag === 'StartFailed') throw new Error(`turn/start failed: ${describeClientError(outcome.error)}`);
        if (!isTurnEnded(outcome)) throw new Error(`turn did not complete within ${timeoutMs} ms (${outcome._tag}); stderr:\n${appServer.stderrTail()}`);
        return { turn: outcome.turn, items: outcome.items };
      },
      async interrupt(threadId, turnId) {
        unwrap('turn/interrupt', await client.request(TurnInterrupt, { threadId, turnId }));
      },
      dispose,
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}
