/**
 * Method descriptors: one value per JSON-RPC method of the Codex app-server protocol,
 * carrying the method literal and the io-ts codecs of what travels with it.
 *
 * Every function here is pure: plain data in, plain data or an `Either` out.
 */
import type * as t from 'io-ts';

/** A request the client sends to the app-server, answered with a result. */
export interface ClientRequestDescriptor<M extends string, P, R> {
  readonly kind: 'clientRequest';
  readonly method: M;
  readonly params: t.Type<P, unknown, unknown>;
  readonly result: t.Type<R, unknown, unknown>;
}

/** A notification the client sends to the app-server (no answer). */
export interface ClientNotificationDescriptor<M extends string, P> {
  readonly kind: 'clientNotification';
  readonly method: M;
  readonly params: t.Type<P, unknown, unknown>;
}

/** A request the app-server sends to the client, which the client must answer. */
export interface ServerRequestDescriptor<M extends string, P, R> {
  readonly kind: 'serverRequest';
  readonly method: M;
  readonly params: t.Type<P, unknown, unknown>;
  readonly result: t.Type<R, unknown, unknown>;
}

/** A notification the app-server sends to the client. */
export interface ServerNotificationDescriptor<M extends string, P> {
  readonly kind: 'serverNotification';
  readonly method: M;
  readonly params: t.Type<P, unknown, unknown>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- existential descriptor types */
/** Any client request descriptor. */
export type AnyClientRequest = ClientRequestDescriptor<string, any, any>;
/** Any client notification descriptor. */
export type AnyClientNotification = ClientNotificationDescriptor<string, any>;
/** Any server request descriptor. */
export type AnyServerRequest = ServerRequestDescriptor<string, any, any>;
/** Any server notification descriptor. */
export type AnyServerNotification = ServerNotificationDescriptor<string, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The params type of a descriptor. */
export type ParamsOf<D> = D extends { readonly params: t.Type<infer P, unknown, unknown> } ? P : never;
/** The result type of a request descriptor. */
export type ResultOf<D> = D extends { readonly result: t.Type<infer R, unknown, unknown> } ? R : never;

/** Declares a client request descriptor. */
export const clientRequest = <M extends string, P, R>(
  method: M,
  params: t.Type<P, unknown, unknown>,
  result: t.Type<R, unknown, unknown>,
): ClientRequestDescriptor<M, P, R> => ({ kind: 'clientRequest', method, params, result });

/** Declares a client notification descriptor. */
export const clientNotification = <M extends string, P>(
  method: M,
  params: t.Type<P, unknown, unknown>,
): ClientNotificationDescriptor<M, P> => ({ kind: 'clientNotification', method, params });

/** Declares a server request descriptor. */
export const serverRequest = <M extends string, P, R>(
  method: M,
  params: t.Type<P, unknown, unknown>,
  result: t.Type<R, unknown, unknown>,
): ServerRequestDescriptor<M, P, R> => ({ kind: 'serverRequest', method, params, result });

/** Declares a server notification descriptor. */
export const serverNotification = <M extends string, P>(
  method: M,
  params: t.Type<P, unknown, unknown>,
): ServerNotificationDescriptor<M, P> => ({ kind: 'serverNotification', method, params });
