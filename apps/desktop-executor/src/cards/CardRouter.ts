/**
 * Routes card-shaped server requests of the app-server to the host, in one direction: each kind of request
 * has an adapter that turns its params (as Codex's codec decoded them) into a card or an immediate response,
 * and the host's decoded answer into the protocol's response through its library's checked answer. The
 * router owns what every card shares: ids, waiting, the refused-answer rule (`nextCardShow`: a misfit
 * answer shows the card again with the refusal, at most `CARD_SHOWS` times), cancellation when the task
 * stops or Codex settles the request elsewhere, and the log.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ServerRequestResolved, type AnyServerRequest, type ParamsOf, type ResultOf } from '@wework/codex-protocol';
import type { AppServerClient, Disposable, ServerRequestContext } from '@wework/app-server-client';
import { nextCardShow, type CardRefusal } from '@wework/elicitation-mapper';
import type { Log } from '@wework/ports';
import { HostReply, type CardAnswerError, type HostCard } from '@wework/host-protocol';
import type { ExecutorHost } from './ExecutorHost.js';

/** A response to send, with a note for the log. */
export interface Answered<R> {
  readonly response: R;
  readonly note?: string;
}

/** What an adapter decides for one request. */
export type CardDecision<R> =
  | {
      readonly _tag: 'Show';
      /** The card, without the id, origin and error the router assigns. */
      readonly card: Omit<HostCard, 'cardId' | 'origin' | 'error'>;
      /** The checked answer: the response for a reply that fits the card, or why it does not. */
      readonly answer: (reply: HostReply) => E.Either<CardRefusal, Answered<R>>;
      /** The response when the card was settled without the host (the task stopped, or Codex settled it elsewhere). */
      readonly cancelled: () => Answered<R>;
      /** The response once the host's answers were refused too often. */
      readonly refusedTooOften: () => Answered<R>;
    }
  | { readonly _tag: 'Respond'; readonly response: R; readonly reason: string };

/** An answer that is not a reply at all (neither answers nor an action). */
const notAnAnswer: CardRefusal = { questionId: null, problem: 'NotAnAnswer', message: 'the answer is neither answers by question nor cancel or decline' };

/** Turns one kind of server request into cards. */
export interface CardAdapter<D extends AnyServerRequest> {
  readonly descriptor: D;
  readonly origin: HostCard['origin'];
  /** The log event when such a request arrives. */
  readonly event: string;
  decide(params: ParamsOf<D>): CardDecision<ResultOf<D>>;
  /** Log fields describing the request (never secrets or form contents). */
  describe(params: ParamsOf<D>): Readonly<Record<string, unknown>>;
  /** Log fields describing the response. */
  describeResponse(response: ResultOf<D>): Readonly<Record<string, unknown>>;
}

/** The router's handle: stop a thread's cards, or detach. */
export interface CardRouter extends Disposable {
  /** Cancels every card of the thread still waiting for the user (the task was stopped). */
  cancelThread(threadId: string): void;
}

interface Pending {
  readonly threadId: string;
  readonly requestId: string;
  readonly controller: AbortController;
}

/** Waits for the host's answer as it came, or for the card to be aborted (then the answer is `cancel`). */
function ask(host: ExecutorHost, card: HostCard, controller: AbortController): Promise<unknown> {
  const aborted = new Promise<HostReply>((resolve) => {
    if (controller.signal.aborted) resolve({ action: 'cancel' });
    controller.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
  });
  const answered = host.showCard(card, controller.signal).catch((): HostReply => ({ action: 'cancel' }));
  return Promise.race([answered, aborted]);
}

/**
 * Shows `card` until the host's answer fits it (the adapter's checked answer) or the refused-answer rule
 * gives up; resolves with the response to send.
 */
export async function answerCard<R>(
  host: ExecutorHost,
  card: HostCard,
  decision: Extract<CardDecision<R>, { readonly _tag: 'Show' }>,
  controller: AbortController,
  log: Log,
): Promise<Answered<R>> {
  let error: CardAnswerError | null = null;
  for (let show = 1; ; show += 1) {
    const raw = await ask(host, { ...card, error }, controller);
    if (controller.signal.aborted) return decision.cancelled();
    const reply = HostReply.decode(raw);
    const checked = E.isLeft(reply) ? E.left(notAnAnswer) : decision.answer(reply.right);
    const step = nextCardShow(show, checked, null, controller.signal.aborted);
    if (step._tag === 'ShowAgain') {
      log({ event: 'card answer refused', fields: { cardId: card.cardId, questionId: step.error.questionId, problem: step.error.problem, attemptsLeft: step.error.attemptsLeft } });
      error = step.error;
      continue;
    }
    if (step.response !== null) return step.response;
    const fallback = decision.refusedTooOften();
    log({ event: 'card answer refused too often', fields: { cardId: card.cardId, shows: show } });
    return fallback;
  }
}

/** Attaches the adapters to a client: from now on the host answers these requests. */
export function attachCardRouter(client: AppServerClient, host: ExecutorHost, log: Log, adapters: ReadonlyArray<CardAdapter<AnyServerRequest>>): CardRouter {
  const pending = new Map<string, Pending>();

  const handle = async <D extends AnyServerRequest>(adapter: CardAdapter<D>, params: ParamsOf<D>, context: ServerRequestContext): Promise<E.Either<never, ResultOf<D>>> => {
    const cardId = `${context.method}#${String(context.id)}`;
    log({ event: adapter.event, fields: { cardId, ...adapter.describe(params) } });
    const decision = adapter.decide(params);
    if (decision._tag === 'Respond') {
      log({ event: 'request answered without a card', fields: { cardId, reason: decision.reason, ...adapter.describeResponse(decision.response) } });
      return E.right(decision.response);
    }
    const controller = new AbortController();
    pending.set(cardId, { threadId: decision.card.threadId, requestId: String(context.id), controller });
    try {
      const { response, note } = await answerCard(host, { ...decision.card, cardId, origin: adapter.origin }, decision, controller, log);
      log({ event: 'card answered', fields: { cardId, ...adapter.describeResponse(response), ...(note === undefined ? {} : { note }) } });
      return E.right(response);
    } finally {
      pending.delete(cardId);
    }
  };

  const subscriptions = adapters.map((adapter) => client.onServerRequest(adapter.descriptor, (params, context) => handle(adapter, params, context)));
  subscriptions.push(
    client.on(ServerRequestResolved, (params) => {
      for (const [cardId, entry] of pending) {
        if (entry.requestId === String(params.requestId) && entry.threadId === params.threadId) {
          log({ event: 'card settled elsewhere', fields: { cardId } });
          entry.controller.abort();
        }
      }
    }),
  );

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
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
