/**
 * How Codex's turn and item notifications reach the hosts: each handled Codex notification of a task's
 * thread becomes one `transcript/*` notification of the host protocol, carrying the task, the thread and
 * only the parts a host shows (a started turn is told by its id; an item, a delta or a completed turn is
 * passed as Codex sent it). The params' other fields stay with the executor.
 *
 * Every function is pure: a Codex notification and its task in, a host notification or nothing out.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  ItemAgentMessageDelta,
  ItemCompleted,
  ItemStarted,
  TurnCompleted,
  TurnStarted,
  type AgentMessageDeltaNotification as CodexAgentMessageDelta,
  type ItemCompletedNotification,
  type ItemStartedNotification,
  type ParamsOf,
  type ServerNotificationDescriptor,
  type TurnCompletedNotification as CodexTurnCompleted,
  type TurnStartedNotification as CodexTurnStarted,
} from '@wework/codex-protocol';
import { AgentMessageDeltaNotification, ItemNotification, TurnCompletedNotification, TurnStartedNotification, type HostNotificationParamsOf } from './Notifications.js';

/** The Codex notifications that become `transcript/*` notifications, in the order a turn sends them. */
type Handled =
  | ServerNotificationDescriptor<'turn/started', CodexTurnStarted>
  | ServerNotificationDescriptor<'item/started', ItemStartedNotification>
  | ServerNotificationDescriptor<'item/agentMessage/delta', CodexAgentMessageDelta>
  | ServerNotificationDescriptor<'item/completed', ItemCompletedNotification>
  | ServerNotificationDescriptor<'turn/completed', CodexTurnCompleted>;

const CodexTranscriptNotifications: ReadonlyArray<Handled> = [TurnStarted, ItemStarted, ItemAgentMessageDelta, ItemCompleted, TurnCompleted];

/** A decoded Codex notification that becomes a `transcript/*` notification. */
export type CodexTranscriptNotification = {
  [D in Handled as D['method']]: {
    readonly method: D['method'];
    readonly params: ParamsOf<D>;
  };
}[Handled['method']];

/** The host methods a transcript notification is sent as. */
export type TranscriptMethod =
  | typeof TurnStartedNotification.method
  | typeof ItemNotification.method
  | typeof AgentMessageDeltaNotification.method
  | typeof TurnCompletedNotification.method;

/** A host notification of a task's transcript: its method and params. */
export type TranscriptNotification = {
  [M in TranscriptMethod]: {
    readonly method: M;
    readonly params: HostNotificationParamsOf<M>;
  };
}[TranscriptMethod];

/**
 * The host notification of a decoded Codex notification of the thread of task `taskId`.
 *
 * @example
 * transcriptNotification({ method: 'item/agentMessage/delta', params: { threadId: 't', turnId: 'u', itemId: 'i', delta: 'Hi' } }, 'task-1');
 * // { method: 'transcript/agentMessageDelta', params: { taskId: 'task-1', threadId: 't', turnId: 'u', itemId: 'i', delta: 'Hi' } }
 */
export const transcriptNotification = (notification: CodexTranscriptNotification, taskId: string): TranscriptNotification => {
  switch (notification.method) {
    case 'turn/started': {
      const p = notification.params;
      return {
        method: TurnStartedNotification.method,
        params: { taskId, threadId: p.threadId, turnId: p.turn.id },
      };
    }
    case 'item/started':
    case 'item/completed': {
      const p = notification.params;
      const phase = notification.method === 'item/started' ? 'started' : 'completed';
      return {
        method: ItemNotification.method,
        params: {
          taskId,
          threadId: p.threadId,
          turnId: p.turnId,
          phase,
          item: p.item,
        },
      };
    }
    case 'item/agentMessage/delta': {
      const p = notification.params;
      return {
        method: AgentMessageDeltaNotification.method,
        params: {
          taskId,
          threadId: p.threadId,
          turnId: p.turnId,
          itemId: p.itemId,
          delta: p.delta,
        },
      };
    }
    case 'turn/completed': {
      const p = notification.params;
      return {
        method: TurnCompletedNotification.method,
        params: { taskId, threadId: p.threadId, turn: p.turn },
      };
    }
  }
};

/**
 * Subscribes `deliver` to every handled Codex notification through `on` (an app-server client's `on`,
 * which decodes the params): the executor's one place that lists them.
 */
export const onCodexTranscript = (
  on: <D extends Handled>(descriptor: D, listener: (params: ParamsOf<D>) => void) => unknown,
  deliver: (notification: CodexTranscriptNotification) => void
): void => {
  on(TurnStarted, (params) => deliver({ method: TurnStarted.method, params }));
  on(ItemStarted, (params) => deliver({ method: ItemStarted.method, params }));
  on(ItemAgentMessageDelta, (params) => deliver({ method: ItemAgentMessageDelta.method, params }));
  on(ItemCompleted, (params) => deliver({ method: ItemCompleted.method, params }));
  on(TurnCompleted, (params) => deliver({ method: TurnCompleted.method, params }));
};

/**
 * The host notification of a raw Codex notification (`method` and undecoded `params`), when Codex's codec
 * accepts it, it is a handled kind and `taskOf` knows its thread's task; otherwise nothing. Never throws.
 *
 * @example
 * hostTranscriptNotification('turn/started', { threadId: 't', turn: { id: 'u' } }, () => 'task-1'); // undefined: not a whole turn
 * hostTranscriptNotification('thread/started', {}, () => 'task-1'); // undefined: not a transcript notification
 */
export const hostTranscriptNotification = (method: string, params: unknown, taskOf: (threadId: string) => string | undefined): TranscriptNotification | undefined => {
  const descriptor = CodexTranscriptNotifications.find((d) => d.method === method);
  if (descriptor === undefined) return undefined;
  let decoded: E.Either<unknown, { readonly threadId: string }>;
  try {
    decoded = descriptor.params.decode(params) as E.Either<unknown, { readonly threadId: string }>;
  } catch {
    return undefined;
  }
  if (E.isLeft(decoded)) return undefined;
  const taskId = taskOf(decoded.right.threadId);
  return taskId === undefined
    ? undefined
    : transcriptNotification(
        {
          method: descriptor.method,
          params: decoded.right,
        } as CodexTranscriptNotification,
        taskId
      );
};
