/**
 * Descriptors of the host protocol's messages: a request is its method literal with the codec of its
 * params and the codec of its result (vscode-languageserver's `protocol.callHierarchy.ts` groups a
 * method the same way); a notification is its method literal with the codec of its params.
 *
 * Every value here is plain data; the functions are pure.
 */
import type * as t from 'io-ts';

/** A request of the host protocol: its method, and the codecs of its params and its result. */
export interface RequestDescriptor<M extends string = string, P extends t.Mixed = t.Mixed, R extends t.Mixed = t.Mixed> {
  readonly method: M;
  readonly params: P;
  readonly result: R;
  /**
   * Where the params carry credentials, as paths of keys (`['config', 'bearerToken']`; `*` stands for
   * every key of a record): what a transcript, log or report of the message must leave out
   * (`redactHostParams`).
   */
  readonly secrets: ReadonlyArray<ReadonlyArray<string>>;
}

/** A notification of the host protocol: its method, and the codec of its params. */
export interface NotificationDescriptor<M extends string = string, P extends t.Mixed = t.Mixed> {
  readonly method: M;
  readonly params: P;
}

/**
 * Describes a request.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * const Ping = requestDescriptor('ping', t.type({}), t.type({ pong: t.boolean }));
 * const Login = requestDescriptor('login', t.type({ password: t.string }), t.type({}), { secrets: [['password']] });
 * ```
 */
export const requestDescriptor = <M extends string, P extends t.Mixed, R extends t.Mixed>(
  method: M,
  params: P,
  result: R,
  options: { readonly secrets?: ReadonlyArray<ReadonlyArray<string>> } = {},
): RequestDescriptor<M, P, R> => ({
  method,
  params,
  result,
  secrets: options.secrets ?? [],
});

/**
 * Describes a notification.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * const Tick = notificationDescriptor('tick', t.type({ at: t.number }));
 * ```
 */
export const notificationDescriptor = <M extends string, P extends t.Mixed>(method: M, params: P): NotificationDescriptor<M, P> => ({ method, params });
