/**
 * The demo conversation: the real codex app-server, the sample forms plugin as a Wework-managed MCP
 * server, and the scripted model as the embedded default model. One turn, printed as a transcript.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { ItemCompleted, type Turn } from '@wework/codex-protocol';
import { checkCodexVersion, describeCodexVersionCheck } from '@wework/app-server-client';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { DEMO_PROMPT, demoScript } from './demoScript.js';
import { scriptedExecutorConfig, threadParamsFor } from './executorConfig.js';
import { describeRuntimeError, startLocalRuntime, type LocalRuntime } from './runtime/LocalRuntime.js';
import { itemLine, turnLine, userLine } from './DemoTranscript.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Receives each transcript line as it happens. */
  readonly print: (line: string) => void;
  /** Base environment of the app-server; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A Codex binary or npm wrapper script to run instead of the installed `@openai/codex`. */
  readonly codexPath?: string;
  /** Receives a warning a person should see (a Codex outside the supported versions); default: dropped. */
  readonly warn?: (line: string) => void;
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
  let runtime: LocalRuntime | undefined;
  try {
    const plugin = checkPluginBuilt('forms');
    if (!plugin.ok) return { _tag: 'DemoFailed', message: `the sample plugin is not built (${plugin.error.path}); run the build first`, stderrTail: '' };
    model = await startScriptedModel({ script: demoScript });
    const config = scriptedExecutorConfig(model.url, [{ name: 'forms', ...plugin.command }]);
    if (E.isLeft(config)) return { _tag: 'DemoFailed', message: `invalid MCP server config: ${JSON.stringify(config.left)}`, stderrTail: '' };
    await writeFile(join(codexHome, 'config.toml'), stringifyToml(config.right), { mode: 0o600 });

    const started = await startLocalRuntime({ codexHome, home, workspace, env: options.env ?? process.env, pluginNames: ['forms'], log: () => undefined, ...(options.codexPath === undefined ? {} : { codexPath: options.codexPath }) });
    if (E.isLeft(started)) return { _tag: 'DemoFailed', message: describeRuntimeError(started.left), stderrTail: '' };
    runtime = started.right;
    const version = checkCodexVersion(runtime.server.initializeResult.userAgent);
    options.print(`Wework desktop executor — demo conversation (real codex app-server ${version._tag === 'Unknown' ? 'unknown version' : version.version}, embedded scripted model)`);
    if (version._tag !== 'Supported') options.warn?.(`warning: ${describeCodexVersionCheck(version)}; the demo runs, but this Codex is not tested with this executor`);

    const thread = await runtime.startThread(threadParamsFor());
    if (E.isLeft(thread)) return { _tag: 'DemoFailed', message: describeRuntimeError(thread.left), stderrTail: runtime.server.stderrTail() };
    runtime.server.client.on(ItemCompleted, (params) => {
      const line = params.threadId === thread.right.threadId ? itemLine(params.item) : undefined;
      if (line !== undefined) options.print(line);
    });

    options.print(userLine(DEMO_PROMPT));
    const turn = await runtime.runTurn(thread.right.threadId, DEMO_PROMPT);
    if (E.isLeft(turn)) return { _tag: 'DemoFailed', message: describeRuntimeError(turn.left), stderrTail: runtime.server.stderrTail() };
    options.print(turnLine(turn.right));
    return { _tag: 'TurnFinished', turn: turn.right };
  } finally {
    await runtime?.dispose();
    await model?.close();
    await rm(root, { recursive: true, force: true });
  }
}
