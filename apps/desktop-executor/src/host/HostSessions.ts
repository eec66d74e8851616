/**
 * The hosts connected to the executor (one over stdio; any number over WebSocket): transcript
 * notifications go to every host, a card goes to the host that sent the task's last message (else the
 * most recent one; the owner is kept by task, so it holds when the task's thread is replaced), and its answer comes back as the response of `card/show`, decoded before use.
 * An answer that does not fit the card is refused: the card is shown again (same `cardId`) with an
 * `error`, at most `CARD_SHOWS` times in all (the refused-answer rule of `cards/ExecutorHost.ts`).
 * Everything sent is wire JSON: decoded protocol values may hold bigints, which `JSON.stringify` cannot write.
 */
import * as E from 'fp-ts/lib/Either.js';
import { CancellationTokenSource, type MessageConnection } from 'vscode-jsonrpc/node';
import { toWireJson } from '@wework/codex-protocol';
import { CardDismissedNotification, CardShow, describeDecodeErrors, type CardAnswerError, type HostCard, type HostReply } from '@wework/host-protocol';
import { answerAfterRefusals, answerMisfit, CARD_SHOWS, type ExecutorHost } from '../cards/ExecutorHost.js';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';

/** One connected host. */
export interface HostSession {
  readonly id: number;
  readonly connection: MessageConnection;
}

/** The connected hosts, and the executor's {@link ExecutorHost} over them. */
export interface HostSessions extends ExecutorHost {
  add(connection: MessageConnection): HostSession;
  remove(session: HostSession): void;
  /** The host that sent a thread's last message receives its cards (those of its task, whatever thread it moves to). */
  claimThread(threadId: string, session: HostSession): void;
  /** The host that sent a task's last message receives its cards. */
  claimTask(taskId: string, session: HostSession): void;
  /** Sends a notification to every host. */
  broadcast(method: string, params: object): void;
  count(): number;
}

/**
 * Cards and notifications over the connected hosts. `taskOf` names the task of a thread (when known),
 * so a card finds the host that sent its task's message even after the task's thread was replaced.
 */
export function hostSessions(log: ExecutorLog, taskOf: (threadId: string) => string | undefined = () => undefined): HostSessions {
  const sessions: HostSession[] = [];
  /** Owners by task id (`task:`), or by thread id (`thread:`) for a thread of no known task. */
  const owners = new Map<string, HostSession>();
  const ownerKey = (threadId: string): string => {
    const taskId = taskOf(threadId);
    return taskId === undefined ? `thread:${threadId}` : `task:${taskId}`;
  };
  let nextId = 1;

  const broadcast = (method: string, params: object): void => {
    const wire = toWireJson(params) as object;
    for (const session of sessions) void session.connection.sendNotification(method, wire).catch(() => undefined);
  };

  const showCard = async (card: HostCard, signal: AbortSignal): Promise<HostReply> => {
    let error: CardAnswerError | null = null;
    for (let show = 1; ; show += 1) {
      const answer = await showOnce({ ...card, error }, signal);
      if (answer._tag === 'Settled') return answer.reply;
      const misfit = answerMisfit(card, answer.raw);
      if (misfit === null) {
        const decoded = CardShow.result.decode(answer.raw);
        if (E.isRight(decoded)) return decoded.right;
        log({ event: 'card answer not understood', fields: { cardId: card.cardId, problem: describeDecodeErrors(decoded.left) } });
        return { action: 'cancel' };
      }
      const attemptsLeft = CARD_SHOWS - show;
      log({ event: 'card answer refused', fields: { cardId: card.cardId, questionId: misfit.questionId, problem: misfit.problem, attemptsLeft } });
      if (attemptsLeft <= 0 || signal.aborted) {
        const fallback = answerAfterRefusals(card);
        log({ event: 'card answer refused too often', fields: { cardId: card.cardId, shows: show, answer: 'action' in fallback ? fallback.action : 'answers' } });
        return fallback;
      }
      error = { ...misfit, attemptsLeft };
    }
  };

  /** Shows the card once: the host's raw result, or the reply that settles the card without it. */
  const showOnce = async (card: HostCard, signal: AbortSignal): Promise<{ readonly _tag: 'Answered'; readonly raw: unknown } | { readonly _tag: 'Settled'; readonly reply: HostReply }> => {
    const owner = owners.get(ownerKey(card.threadId));
    const session = owner !== undefined && sessions.includes(owner) ? owner : sessions[sessions.length - 1];
    if (session === undefined) {
      log({ event: 'card cancelled: no host connected', fields: { cardId: card.cardId } });
      return { _tag: 'Settled', reply: { action: 'cancel' } };
    }
    if (signal.aborted) return { _tag: 'Settled', reply: { action: 'cancel' } };
    const cancel = new CancellationTokenSource();
    const onAbort = (): void => {
      cancel.cancel();
      void session.connection.sendNotification(CardDismissedNotification.method, { cardId: card.cardId }).catch(() => undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const raw: unknown = await session.connection.sendRequest(CardShow.method, toWireJson({ card }), cancel.token);
      return { _tag: 'Answered', raw };
    } catch (error) {
      log({ event: 'card answer failed', fields: { cardId: card.cardId, error: error instanceof Error ? error.message : String(error) } });
      return { _tag: 'Settled', reply: { action: 'cancel' } };
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  };

  return {
    showCard,
    add: (connection) => {
      const session = { id: nextId++, connection };
      sessions.push(session);
      return session;
    },
    remove: (session) => {
      const index = sessions.indexOf(session);
      if (index >= 0) sessions.splice(index, 1);
      for (const [key, owner] of owners) if (owner === session) owners.delete(key);
    },
    claimThread: (threadId, session) => void owners.set(ownerKey(threadId), session),
    claimTask: (taskId, session) => void owners.set(`task:${taskId}`, session),
    broadcast,
    count: () => sessions.length,
  };
}
