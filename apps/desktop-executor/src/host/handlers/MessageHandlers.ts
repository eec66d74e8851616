/**
 * The messages area of the host protocol: a message composed and run as a turn of its task (mentions,
 * attachments, the saved model checked against Codex's catalog) — or, while the task's turn runs, steered
 * into it or queued for a turn of its own, as the host chose — the connector login a turn asked for, and
 * its recovery — the blocked step continued in the same conversation.
 */
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type { HostHandlersPart, HostParamsOf, HostResultOf } from '@wework/host-protocol';
import { ItemCompleted, type ThreadItem } from '@wework/codex-protocol';
import { detectAuthRequired } from '@wework/local-auth';
import { unsteerableReason } from '@wework/thread-lifecycle';
import { finalMessageOf } from '../../plugins/finalMessage.js';
import { composeTurn } from '../../turn/composeTurn.js';
import { hostFailure, runtimeFailure, taskFailure } from '@wework/host-errors';
import { empty, ok, type Answer, type HostCall, type HandlerKit } from './HandlerKit.js';

/** Plain JSON compared regardless of key order. */
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
const sortedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedKeys)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]))
      : value;

/** `message/send`, `auth/recover`, `auth/cancel`. */
export function messageHandlers(kit: HandlerKit): HostHandlersPart<'message/send' | 'auth/recover' | 'auth/cancel', HostCall> {
  const { tasks, images, log, sessions } = kit.services;
  /**
   * The login each task's last turn asked for, until it is used by `auth/recover` or made obsolete by the
   * task's next message: a recovery is offered once, for the request that is still current.
   */
  const pendingAuth = new Map<string, string>();
  const authKey = (pluginKey: string, connectorSlug: string): string => JSON.stringify([pluginKey, connectorSlug]);

  const send = kit.withCodex(async (params: HostParamsOf<'message/send'>): Answer<HostResultOf<'message/send'>> => {
    const task = tasks.get(params.taskId);
    if (task === undefined) return E.left(taskFailure({ _tag: 'TaskNotFound', taskId: params.taskId }));
    const base = params.modelSelection ?? task.modelSelection;
    const modelSelection = params.permissionMode === undefined ? base : { ...base, options: { ...base.options, permissionMode: params.permissionMode } };
    const running = await kit.codex();
    if (E.isLeft(running)) return running;
    const routed = (task.executionRequest.modelRouter ?? null) !== null;
    // A routed task's model is the router's, not one of Codex's catalog.
    const savedModel = routed ? null : modelSelection.model;
    const catalog = await kit.catalogCache.forSend(running.right, savedModel);
    if (E.isLeft(catalog)) return E.left(runtimeFailure(catalog.left));
    pendingAuth.delete(task.taskId);
    const attachments = params.attachments ?? [];
    // A message without attachments has no image work: no store is loaded, no turn directory begun or removed.
    const turnImages = attachments.length === 0 ? null : (await images()).beginTurn(randomUUID());
    try {
      const composed = await composeTurn(
        {
          markdown: params.markdown,
          attachments,
          modelCategory: params.modelCategory ?? modelSelection.category ?? 'nonOfficial',
          task: { ...task, modelSelection },
          savedModel,
        },
        catalog.right,
        turnImages,
      );
      if (E.isLeft(composed)) return E.left(hostFailure({ area: 'send', error: composed.left }));
      const warnings = composed.right.warnings.map((warning) => warning.message);
      if (warnings.length > 0) log({ event: 'turn composed with warnings', fields: { taskId: task.taskId, count: warnings.length } });
      // What the thread's turns complete, for connector_auth_required detection on the final message of the turn answered.
      const items: Array<{ readonly turnId: string; readonly item: ThreadItem }> = [];
      // The task's thread may be started again during the send (lost with a crashed app-server before its first turn).
      const threadOf = (): string => tasks.get(task.taskId)?.threadId ?? task.threadId;
      const collecting = running.right.server.client.on(ItemCompleted, (completed) => {
        if (completed.threadId === threadOf()) items.push({ turnId: completed.turnId, item: completed.item });
      });
      const delivery = params.delivery ?? 'steer';
      const unsteerable = unsteerableReason(composed.right.input, !sameJson(modelSelection, task.modelSelection));
      const outcome = await kit.gate
        .work(() => tasks.deliver(task.taskId, { input: composed.right.input, delivery, modelSelection, ...(unsteerable === null ? {} : { unsteerable }) }))
        .finally(() => collecting.dispose());
      switch (outcome._tag) {
        case 'Failed':
          return E.left(taskFailure(outcome.error));
        case 'Refused': {
          const { refusal } = outcome;
          log({ event: 'message refused', fields: { taskId: task.taskId, delivery, reason: refusal._tag } });
          return E.left(hostFailure({ area: 'send', error: refusal }));
        }
        case 'Cancelled':
          return ok({ taskId: task.taskId, threadId: threadOf(), turnId: null, status: 'cancelled', delivery: delivery === 'queue' ? 'queued' : 'steered', error: null, warnings, authRequired: null });
        case 'Ran':
          break;
      }
      const turn = outcome.turn;
      const turnItems = items.flatMap((entry) => (entry.turnId === turn.id ? [entry.item] : []));
      const detected = detectAuthRequired(finalMessageOf(turn, turnItems));
      const authRequired = detected._tag === 'ConnectorAuthRequired' ? { pluginKey: detected.pluginKey, connectorSlug: detected.connectorSlug, toolName: detected.toolName ?? null } : null;
      if (authRequired !== null) {
        pendingAuth.set(task.taskId, authKey(authRequired.pluginKey, authRequired.connectorSlug));
        log({ event: 'connector login required', fields: { taskId: task.taskId, pluginKey: authRequired.pluginKey, connectorSlug: authRequired.connectorSlug } });
      }
      return ok({ taskId: task.taskId, threadId: threadOf(), turnId: turn.id, status: turn.status, delivery: outcome.delivered, error: turn.error?.message ?? null, warnings, authRequired });
    } finally {
      await turnImages?.end();
    }
  });

  return {
    'message/send': (params, { session }) => {
      // The sender of a task's message receives its cards (owners are kept by task, so a replacing thread keeps them).
      if (session !== null && tasks.get(params.taskId) !== undefined) sessions.claimTask(params.taskId, session);
      return send(params);
    },
    'auth/recover': async ({ taskId, pluginKey, connectorSlug, toolName }) => {
      if (tasks.get(taskId) === undefined) return E.left(taskFailure({ _tag: 'TaskNotFound', taskId }));
      if (kit.services.recoverConnector === undefined) return E.left(hostFailure({ area: 'unavailable', error: { _tag: 'NotAvailable', service: 'connectorAuthorization' } }));
      if (pendingAuth.get(taskId) !== authKey(pluginKey, connectorSlug)) {
        return E.left(hostFailure({ area: 'connectorRecovery', error: { _tag: 'RecoveryObsolete' } }));
      }
      pendingAuth.delete(taskId);
      const recovered = await kit.services.recoverConnector({ pluginKey, connectorSlug, ...(toolName === undefined ? {} : { toolName }) });
      if (E.isLeft(recovered)) return E.left(hostFailure({ area: 'connectorRecovery', error: recovered.left }));
      log({ event: 'connector login recovered', fields: { taskId, pluginKey, connectorSlug, loggedIn: recovered.right.loggedIn } });
      // The blocked step continues in the same conversation: an instruction, not the original request again.
      const continued = await send({ taskId, markdown: recovered.right.continuation });
      return E.isLeft(continued) ? continued : ok({ continuation: recovered.right.continuation, turn: continued.right });
    },
    'auth/cancel': async ({ sessionId }) =>
      kit.services.authorizations?.cancel(sessionId) === true
        ? empty()
        : E.left(hostFailure({ area: 'unavailable', error: { _tag: 'AuthSessionNotFound', sessionId } })),
  };
}
