/**
 * Task inspection (the host protocol's `supervision/*` methods; not the app-server's process
 * supervision, which is `RuntimeSupervisor`): each inspection is its own ephemeral app-server thread (`thread/start` with
 * `ephemeral: true`, read-only, no approvals), never the task's thread, so the inspection does not enter
 * the task's transcript and nothing of it is written to disk. The model configuration is held in
 * memory (see `InspectionModel.ts`) and passed as per-thread overrides; it is never persisted or logged.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ItemCompleted, ThreadUnsubscribe, type UserInputStrict } from '@wework/codex-protocol';
import type { Log } from '@wework/ports';
import type { InspectionFault } from '@wework/host-errors';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import type { Inspection, SupervisionModelConfig } from '@wework/host-protocol';
import { holdModelConfig, type HeldModelConfig } from './InspectionModel.js';


/** What to inspect. */
export interface InspectionRequest {
  /** The inspection prompt (what to check, with the task's context the host chose to include). */
  readonly prompt: string;
  /** The workspace the inspection may read. */
  readonly workspace: string;
}

/** Inspections of tasks by the supervision model, each in its own ephemeral thread of the executor's app-server. */
export interface TaskInspector {
  /** Holds a new supervision model configuration in memory (replacing the previous one). */
  setModel(config: SupervisionModelConfig): void;
  clearModel(): void;
  /** The held model's id and provider id (never the credentials), or null. */
  model(): { readonly model: string; readonly providerId: string } | null;
  /** Runs one inspection as its own ephemeral thread. */
  inspect(request: InspectionRequest): Promise<E.Either<InspectionFault, Inspection>>;
}

/** Supervision over `runtime`'s app-server. */
export function taskInspector(runtime: RuntimeSupervisor, log: Log): TaskInspector {
  let held: HeldModelConfig | null = null;
  return {
    setModel: (config) => {
      held = holdModelConfig(config);
      log({ event: 'supervision model set', fields: { model: held.model } });
    },
    clearModel: () => void (held = null),
    model: () => (held === null ? null : { model: held.model, providerId: held.providerId }),
    inspect: async (request) => {
      if (held === null) return E.left({ _tag: 'NoSupervisionModel' });
      const current = runtime.current();
      const started = await current.startThread(
        { ...held.threadOverrides(), ephemeral: true, permissions: ':read-only', approvalPolicy: 'never' },
        { cwd: request.workspace, waitForPlugins: false },
      );
      if (E.isLeft(started)) return E.left({ _tag: 'InspectionFailed', error: started.left });
      const threadId = started.right.threadId;
      const messages: string[] = [];
      const listener = current.server.client.on(ItemCompleted, (params) => {
        if (params.threadId === threadId && params.item.type === 'agentMessage') messages.push(params.item.text);
      });
      try {
        const input: UserInputStrict[] = [{ type: 'text', text: request.prompt, text_elements: [] }];
        const turn = await current.runTurn(threadId, input);
        if (E.isLeft(turn)) return E.left({ _tag: 'InspectionFailed', error: turn.left });
        log({ event: 'inspection finished', fields: { threadId, status: turn.right.status } });
        return E.right({ threadId, status: turn.right.status, messages });
      } finally {
        listener.dispose();
        await current.server.client.request(ThreadUnsubscribe, { threadId });
      }
    },
  };
}
