/**
 * The events and cards area of the host protocol: a connection's event stream (subscribe with a cursor,
 * unsubscribe) and the cards still waiting for an answer. These need the connection that asks.
 */
import * as E from 'fp-ts/lib/Either.js';
import { HostErrorCode, type HostFailure, type HostHandlersPart } from '@wework/host-protocol';
import { empty, ok, type HostCall, type HandlerKit } from './HandlerKit.js';

const noConnection: HostFailure = { code: HostErrorCode.InvalidRequest, message: 'the event stream belongs to a host connection', tag: 'NoConnection' };

/** `events/subscribe`, `events/unsubscribe`, `cards/pending`. */
export function eventHandlers(kit: HandlerKit): HostHandlersPart<'events/subscribe' | 'events/unsubscribe' | 'cards/pending', HostCall> {
  const { sessions } = kit.services;
  return {
    'events/subscribe': async (params, { session }) => (session === null ? E.left(noConnection) : ok(sessions.subscribe(session, params.after))),
    'events/unsubscribe': async (_params, { session }) => {
      if (session !== null) sessions.unsubscribe(session);
      return empty();
    },
    'cards/pending': async (_params, { session }) => (session === null ? E.left(noConnection) : ok({ cards: sessions.pendingCards(session) })),
  };
}
