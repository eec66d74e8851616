/**
 * Routes card-shaped server requests of the app-server to the host: each kind of request has an adapter
 * that turns its params into a card (or an immediate response), and the host's reply into the protocol's
 * response. The router owns what every card shares: ids, waiting, cancellation when the task stops or
 * Codex settles the request elsewhere, and the log.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ServerRequestResolved, type AnyServerRequest, type ParamsOf, type ResultOf } from '@wework/codex-protocol';
import type { AppServerClient, Disposable, ServerRequestContext } from '@wework/app-server-client';
import type { HostReply } from '@wework/elicitation-mapper';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import type { HostCard } from '@wework/host-protocol';
import type { ExecutorHost } from './ExecutorHost.js';

/** What an adapter decides for one request. */
export type CardDecision<R> =
  | {
      readonly _tag: 'Show';
      /** The card, without the id and origin the router assigns. */
      readonly card: Omit<HostCard, 'cardId' | 'origin'>;
      /** The response for the host's reply (`aborted`: the task stopped or the request was settled elsewhere). */
      readonly respond: (reply: HostReply, aborted: boolean) => { readonly response: R; readonly note?: string };
    }
  | { readonly _tag: 'Respond'; readonly response: R; readonly reason: string };

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

/** Waits for the host's reply, or for the card to be aborted (then the reply is `cancel`). */
function ask(host: ExecutorHost, card: HostCard, controller: AbortController): Promise<HostReply> {
  const aborted = new Promise<HostReply>((resolve) => {
    if (controller.signal.aborted) resolve({ action: 'cancel' });
    controller.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
  });
  const answered = host.showCard(card, controller.signal).catch((): HostReply => ({ action: 'cancel' }));
  return Promise.race([answered, aborted]);
}

/** Attaches the adapters to a client: from now on the host answers these requests. */
export function attachCardRouter(client: AppServerClient, host: ExecutorHost, log: ExecutorLog, adapters: ReadonlyArray<CardAdapter<AnyServerRequest>>): CardRouter {
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
      const reply = await ask(host, { ...decision.card, cardId, origin: adapter.origin }, controller);
      const { response, note } = decision.respond(reply, controller.signal.aborted);
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
