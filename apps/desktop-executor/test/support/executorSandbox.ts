/**
 * Starts the executor's pieces for an end-to-end test: the real app-server with an isolated
 * CODEX_HOME/HOME, the scripted model, the sample forms plugin, the forms bridge with a scripted host.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ItemCompleted, type ThreadItem } from '@wework/codex-protocol';
import { checkPluginBuilt } from '@wework/sample-plugins';
import type { Script } from '@wework/scripted-model';
import type { ScriptedModel } from '@wework/scripted-model/node';
import { startCodexSandbox, type CodexSandbox } from '@wework/test-support';
import { scriptedExecutorConfig } from '../../src/executorConfig.js';
import type { AppServerClient } from '@wework/app-server-client';
import { attachExecutorCards, type CardRouter } from '../../src/cards/index.js';
import type { ExecutorHost } from '../../src/cards/ExecutorHost.js';
import type { LogEntry } from '@wework/ports';
import { describeRuntimeError, startLocalRuntime, type LocalRuntime, type ThreadParams } from '../../src/runtime/LocalRuntime.js';

export interface SandboxOptions {
  readonly script: Script;
  readonly host: ExecutorHost;
  /** The config.toml content, given the model URL and the forms plugin's command line. */
  readonly config: (modelUrl: string, forms: { readonly command: string; readonly args: ReadonlyArray<string> }) => Readonly<Record<string, unknown>>;
  readonly threadParams: ThreadParams;
  /** Called with the app-server client once it is up (e.g. to tap the wire). */
  readonly onClient?: (client: AppServerClient) => void;
}

export interface Sandbox {
  readonly runtime: LocalRuntime;
  readonly bridge: CardRouter;
  readonly model: ScriptedModel;
  readonly threadId: string;
  /** The task's workspace (the threads' cwd). */
  readonly workspace: string;
  readonly log: LogEntry[];
  readonly items: ThreadItem[];
  close(): Promise<void>;
}

/** The Codex sandbox of an executor test: the forms plugin built, config.toml from `config`; disposed by `cleanups`. */
export async function startFormsSandbox(script: Script, prefix: string, config: SandboxOptions['config'], cleanups: Array<() => Promise<void>>): Promise<CodexSandbox> {
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
  const box = await startCodexSandbox({ script, prefix, config: (modelUrl) => config(modelUrl, plugin.command) });
  cleanups.push(() => box.dispose());
  return box;
}

/** Starts everything; the caller must `close()` (in afterEach) whatever happens. */
export async function startSandbox(options: SandboxOptions, cleanups: Array<() => Promise<void>>): Promise<Sandbox> {
  const box = await startFormsSandbox(options.script, 'executor-e2e-', options.config, cleanups);
  const { model } = box;
  const dirs = { codexHome: box.codexHome, home: box.home, workspace: box.workspace };

  const log: LogEntry[] = [];
  const items: ThreadItem[] = [];
  let bridge: CardRouter | undefined;
  const started = await startLocalRuntime({
    ...dirs,
    env: process.env,
    pluginNames: ['forms'],
    log: (entry) => log.push(entry),
    attach: (client) => {
      bridge = attachExecutorCards(client, options.host, (entry) => log.push(entry));
      client.on(ItemCompleted, (params) => items.push(params.item));
      options.onClient?.(client);
      return bridge;
    },
  });
  if (E.isLeft(started)) throw new Error(describeRuntimeError(started.left));
  const runtime = started.right;
  cleanups.push(() => runtime.dispose());
  const thread = await runtime.startThread(options.threadParams);
  if (E.isLeft(thread)) throw new Error(`${describeRuntimeError(thread.left)}\n${runtime.server.stderrTail()}`);
  if (bridge === undefined) throw new Error('the bridge was not attached');
  return { runtime, bridge, model, threadId: thread.right.threadId, workspace: dirs.workspace, log, items, close: () => runtime.dispose() };
}

/** The text of every MCP tool call result the turn completed, in order. */
export function toolOutputs(items: ReadonlyArray<ThreadItem>): string[] {
  return items.flatMap((item) =>
    item.type === 'mcpToolCall'
      ? [
          (item.result?.content ?? [])
            .flatMap((part) => (typeof part === 'object' && part !== null && !Array.isArray(part) && typeof part['text'] === 'string' ? [part['text']] : []))
            .join('\n') + (item.error === null ? '' : `error: ${item.error.message}`),
        ]
      : [],
  );
}

/** Wework's executor config with the forms plugin as a managed server (plus what the plugin declares). */
export function managedConfig(declared: Readonly<Record<string, unknown>> = {}) {
  return (modelUrl: string, forms: { readonly command: string; readonly args: ReadonlyArray<string> }): Readonly<Record<string, unknown>> => {
    const config = scriptedExecutorConfig(modelUrl, [{ name: 'forms', command: forms.command, args: forms.args, declared }]);
    if (E.isLeft(config)) throw new Error(`invalid MCP server config: ${JSON.stringify(config.left)}`);
    return config.right;
  };
}
