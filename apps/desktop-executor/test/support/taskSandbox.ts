/**
 * The task runtime over a real app-server for end-to-end tests: isolated CODEX_HOME/HOME, the scripted
 * model, the sample forms plugin, a fake clock, and a wire tap recording every message.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { JsonRpcMessage } from '@wework/jsonrpc';
import type { Script } from '@wework/scripted-model';
import type { ScriptedModel } from '@wework/scripted-model/node';
import type { LifecycleConfig } from '@wework/thread-lifecycle';
import { attachExecutorCards } from '../../src/cards/index.js';
import type { ExecutorHost } from '../../src/cards/ExecutorHost.js';
import type { LogEntry } from '@wework/ports';
import { describeRuntimeError } from '../../src/runtime/LocalRuntime.js';
import { startRuntimeSupervisor, type RuntimeSupervisor } from '../../src/runtime/RuntimeSupervisor.js';
import { inMemoryModelRouterRegistry, type ModelRouterRegistry } from '../../src/tasks/ModelRouterRegistry.js';
import { taskRuntime, type TaskRuntime } from '../../src/tasks/TaskRuntime.js';
import { fakeClock, type FakeClock } from './fakeClock.js';
import { managedConfig, startFormsSandbox } from './executorSandbox.js';

export interface WireEntry {
  readonly direction: 'incoming' | 'outgoing';
  readonly message: JsonRpcMessage;
}

export interface TaskSandbox {
  readonly root: string;
  readonly workspace: string;
  readonly codexHome: string;
  readonly supervisor: RuntimeSupervisor;
  readonly tasks: TaskRuntime;
  readonly clock: FakeClock;
  readonly model: ScriptedModel;
  readonly registry: ModelRouterRegistry;
  readonly log: LogEntry[];
  readonly wire: WireEntry[];
  /** The requests of `method` sent to the app-server, and their replies. */
  exchanges(method: string): Array<{ readonly params: unknown; readonly result: unknown }>;
}

export interface TaskSandboxOptions {
  readonly script: Script;
  readonly host?: ExecutorHost;
  readonly lifecycle?: LifecycleConfig;
  /** Extra config.toml content (merged at top level). */
  readonly extraConfig?: (modelUrl: string) => Readonly<Record<string, unknown>>;
}

const cancelHost: ExecutorHost = { showCard: () => Promise.resolve({ action: 'cancel' }) };

export async function startTaskSandbox(options: TaskSandboxOptions, cleanups: Array<() => Promise<void>>): Promise<TaskSandbox> {
  const box = await startFormsSandbox(options.script, 'executor-tasks-', (modelUrl, forms) => ({ ...managedConfig()(modelUrl, forms), ...(options.extraConfig?.(modelUrl) ?? {}) }), cleanups);
  const { root, model } = box;
  const dirs = { codexHome: box.codexHome, home: box.home, workspace: box.workspace };

  const log: LogEntry[] = [];
  const wire: WireEntry[] = [];
  const started = await startRuntimeSupervisor({
    ...dirs,
    env: process.env,
    pluginNames: ['forms'],
    log: (entry) => log.push(entry),
    attach: (client) => {
      client.onMessage((direction, message) => wire.push({ direction, message }));
      return attachExecutorCards(client, options.host ?? cancelHost, (entry) => log.push(entry));
    },
  });
  if (E.isLeft(started)) throw new Error(describeRuntimeError(started.left));
  const supervisor = started.right;
  cleanups.push(() => supervisor.dispose());
  const clock = fakeClock();
  const registry = inMemoryModelRouterRegistry();
  const tasks = taskRuntime({ runtime: supervisor, clock, timer: clock, registry, log: (entry) => log.push(entry), ...(options.lifecycle === undefined ? {} : { lifecycle: options.lifecycle }) });
  cleanups.push(async () => tasks.dispose());

  const exchanges = (method: string) =>
    wire.flatMap((entry) => {
      const message = entry.message;
      if (entry.direction !== 'outgoing' || !('method' in message) || message.method !== method || !('id' in message)) return [];
      const reply = wire.find((other) => other.direction === 'incoming' && !('method' in other.message) && 'id' in other.message && other.message.id === message.id);
      const result = reply === undefined ? undefined : 'result' in reply.message ? reply.message.result : 'error' in reply.message ? { error: reply.message.error } : undefined;
      return [{ params: 'params' in message ? message.params : undefined, result }];
    });
  return { root, ...dirs, supervisor, tasks, clock, model, registry, log, wire, exchanges };
}
