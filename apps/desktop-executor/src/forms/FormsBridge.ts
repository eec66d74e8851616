/**
 * Routes the app-server's card-shaped server requests to the host: `mcpServer/elicitation/request`
 * through the elicitation mapper (unsupported → decline at once, with the reason in the log), and
 * `item/tool/requestUserInput` as it is. A stopped task, or a request Codex settled elsewhere, cancels
 * the card.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ItemToolRequestUserInput, McpServerElicitationRequest, ServerRequestResolved, type ParamsOf, type ResultOf } from '@wework/codex-protocol';
import type { AppServerClient, Disposable, ServerRequestContext } from '@wework/app-server-client';
import { cancelResult, handleElicitationRequest, responseForCard, userInputQuestions, type HostReply } from '@wework/elicitation-mapper';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import type { ExecutorHost, HostCard } from './ExecutorHost.js';

/** The bridge's handle: stop a thread's cards, or detach. */
export interface FormsBridge extends Disposable {
  /** Cancels every card of the thread still waiting for the user (the task was stopped). */
  cancelThread(threadId: string): void;
}

interface Pending {
  readonly threadId: string;
  readonly controller: AbortController;
}

const cardIdOf = (context: ServerRequestContext): string => `${context.method}#${String(context.id)}`;

/** Waits for the host's reply, or for the card to be aborted (then the reply is `cancel`). */
function ask(host: ExecutorHost, card: HostCard, controller: AbortController): Promise<HostReply> {
  const aborted = new Promise<HostReply>((resolve) => {
    if (controller.signal.aborted) resolve({ action: 'cancel' });
    controller.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
  });
  const answered = host.showCard(card, controller.signal).catch((): HostReply => ({ action: 'cancel' }));
  return Promise.race([answered, aborted]);
}

/** Attaches the bridge to a client: from now on the host answers the cards. */
export function attachFormsBridge(client: AppServerClient, host: ExecutorHost, log: ExecutorLog): FormsBridge {
  const pending = new Map<string, Pending>();

  const track = (cardId: string, threadId: string): AbortController => {
    const controller = new AbortController();
    pending.set(cardId, { threadId, controller });
    return controller;
  };

  const elicitation = client.onServerRequest(
    McpServerElicitationRequest,
    async (params: ParamsOf<typeof McpServerElicitationRequest>, context): Promise<E.Either<never, ResultOf<typeof McpServerElicitationRequest>>> => {
      const cardId = cardIdOf(context);
      log({ event: 'codex mcp elicitation request', fields: { cardId, serverName: params.serverName, mode: params.mode, threadId: params.threadId, turnId: params.turnId } });
      const decision = handleElicitationRequest(params);
      if (decision._tag === 'Respond') {
        log({ event: 'elicitation declined', fields: { cardId, serverName: params.serverName, reason: decision.reason.message } });
        return E.right(decision.response);
      }
      const card = decision.card;
      const controller = track(cardId, params.threadId);
      try {
        const reply = await ask(
          host,
          {
            cardId,
            origin: 'mcpElicitation',
            threadId: params.threadId,
            turnId: params.turnId,
            serverName: params.serverName,
            message: card.message,
            questions: userInputQuestions(card),
            submitOnSelect: card.submitOnSelect,
            card,
          },
          controller,
        );
        const response = controller.signal.aborted ? cancelResult() : responseForCard(card, reply);
        log({ event: 'elicitation answered', fields: { cardId, serverName: params.serverName, action: response.action } });
        return E.right(response);
      } finally {
        pending.delete(cardId);
      }
    },
  );

  const userInput = client.onServerRequest(
    ItemToolRequestUserInput,
    async (params: ParamsOf<typeof ItemToolRequestUserInput>, context): Promise<E.Either<never, ResultOf<typeof ItemToolRequestUserInput>>> => {
      const cardId = cardIdOf(context);
      log({ event: 'codex request user input', fields: { cardId, threadId: params.threadId, turnId: params.turnId, questions: params.questions.map((q) => q.id) } });
      const controller = track(cardId, params.threadId);
      try {
        const reply = await ask(
          host,
          {
            cardId,
            origin: 'requestUserInput',
            threadId: params.threadId,
            turnId: params.turnId,
            serverName: null,
            message: null,
            questions: params.questions,
            submitOnSelect: params.questions.length === 1 && (params.questions[0]?.options?.length ?? 0) > 0,
            card: null,
          },
          controller,
        );
        // request_user_input has no cancel: "no usable answer" is an empty answer set.
        const answers = controller.signal.aborted || 'action' in reply ? {} : reply.answers;
        log({ event: 'user input answered', fields: { cardId, answered: Object.keys(answers) } });
        return E.right({ answers });
      } finally {
        pending.delete(cardId);
      }
    },
  );

  const resolved = client.on(ServerRequestResolved, (params) => {
    for (const [cardId, entry] of pending) {
      if (cardId.endsWith(`#${String(params.requestId)}`) && entry.threadId === params.threadId) {
        log({ event: 'card settled elsewhere', fields: { cardId } });
        entry.controller.abort();
      }
    }
  });

  return {
    cancelThread: (threadId) => {
      for (const [cardId, entry] of pending) {
        if (entry.threadId !== threadId) continue;
        log({ event: 'card cancelled by stop', fields: { cardId } });
        entry.controller.abort();
      }
    },
    dispose: () => {
      for (const entry of pending.values()) entry.controller.abort();
      elicitation.dispose();
      userInput.dispose();
      resolved.dispose();
    },
  };
}
