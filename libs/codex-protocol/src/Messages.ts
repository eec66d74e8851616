/**
 * Decoding incoming protocol messages by method, and encoding outgoing ones, through the
 * generated descriptor registries.
 *
 * Every function here is pure: plain data in, plain data or an `Either` out.
 */
import type * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { clientNotifications, clientRequests, serverNotifications, serverRequests } from './codecs/descriptors.js';
import type {
  AnyClientNotification,
  AnyClientRequest,
  AnyServerNotification,
  AnyServerRequest,
  ParamsOf,
  ResultOf,
} from './Descriptor.js';
import {
  invalidParams,
  invalidResult,
  unknownMethod,
  type InvalidParams,
  type InvalidResult,
  type MessageKind,
  type ProtocolDecodeError,
} from './ProtocolDecodeError.js';

/** The client request registry: descriptors keyed by method. */
export type ClientRequests = typeof clientRequests;
/** The client notification registry. */
export type ClientNotifications = typeof clientNotifications;
/** The server request registry. */
export type ServerRequests = typeof serverRequests;
/** The server notification registry. */
export type ServerNotifications = typeof serverNotifications;

/** A client request method with a descriptor. */
export type ClientRequestMethod = keyof ClientRequests;
/** A client notification method with a descriptor. */
export type ClientNotificationMethod = keyof ClientNotifications;
/** A server request method with a descriptor. */
export type ServerRequestMethod = keyof ServerRequests;
/** A server notification method with a descriptor. */
export type ServerNotificationMethod = keyof ServerNotifications;

/** A decoded message of a registry: `{ method, params }`, narrowed by `method`. */
export type MessageOf<Registry> = {
  [M in keyof Registry]: { readonly method: M; readonly params: ParamsOf<Registry[M]> };
}[keyof Registry];

/** A decoded client request (without its JSON-RPC id). */
export type ClientRequestMessage = MessageOf<ClientRequests>;
/** A decoded client notification. */
export type ClientNotificationMessage = MessageOf<ClientNotifications>;
/** A decoded server request (without its JSON-RPC id). */
export type ServerRequestMessage = MessageOf<ServerRequests>;
/** A decoded server notification. */
export type ServerNotificationMessage = MessageOf<ServerNotifications>;

/** The result a client answers a server request with. */
export type ServerRequestResult<M extends ServerRequestMethod> = ResultOf<ServerRequests[M]>;
/** The result the server answers a client request with. */
export type ClientRequestResult<M extends ClientRequestMethod> = ResultOf<ClientRequests[M]>;

/** Any method descriptor. */
export type AnyDescriptor = AnyClientRequest | AnyClientNotification | AnyServerRequest | AnyServerNotification;

/** A descriptor of a method that is answered with a result. */
export type AnyRequestDescriptor = AnyClientRequest | AnyServerRequest;

// Either values built by hand: importing fp-ts' Either at runtime from an ES module costs more
// to load than everything else here.
const left = <L>(value: L): E.Either<L, never> => ({ _tag: 'Left', left: value });
const mapLeft = <L, M, A>(either: E.Either<L, A>, f: (l: L) => M): E.Either<M, A> =>
  either._tag === 'Left' ? left(f(either.left)) : either;

/**
 * Decodes the params of a descriptor's method.
 * @example
 * ```ts
 * import { decodeParams, TurnInterrupt } from '@wework/codex-protocol';
 * decodeParams(TurnInterrupt, { threadId: 't', turnId: 'u' }); // right({ threadId: 't', turnId: 'u' })
 * ```
 */
export const decodeParams = <D extends AnyDescriptor>(descriptor: D, params: unknown): E.Either<InvalidParams, ParamsOf<D>> =>
  mapLeft(descriptor.params.decode(params) as E.Either<t.Errors, ParamsOf<D>>, (errors) => invalidParams(descriptor.method, errors));

/**
 * Decodes the result of a request, as answered by the peer.
 * @example
 * ```ts
 * import { decodeResult, ThreadUnsubscribe } from '@wework/codex-protocol';
 * decodeResult(ThreadUnsubscribe, { status: 'unsubscribed' }); // right({ status: 'unsubscribed' })
 * ```
 */
export const decodeResult = <D extends AnyRequestDescriptor>(descriptor: D, result: unknown): E.Either<InvalidResult, ResultOf<D>> =>
  mapLeft(descriptor.result.decode(result) as E.Either<t.Errors, ResultOf<D>>, (errors) => invalidResult(descriptor.method, errors));

const hasOwn = (registry: object, method: string): boolean => Object.prototype.hasOwnProperty.call(registry, method);

const decodeBy =
  <Registry extends Readonly<Record<string, AnyDescriptor>>>(kind: MessageKind, registry: Registry) =>
  (method: string, params: unknown): E.Either<ProtocolDecodeError, MessageOf<Registry>> => {
    if (!hasOwn(registry, method)) return left(unknownMethod(kind, method));
    const decoded = decodeParams(registry[method] as AnyDescriptor, params);
    return decoded._tag === 'Left' ? decoded : { _tag: 'Right', right: { method, params: decoded.right } as MessageOf<Registry> };
  };

/**
 * Decodes a request from the app-server by its method: `UnknownMethod` for a method without a
 * descriptor, `InvalidParams` (with path-based issues) for params that do not match.
 * @example
 * ```ts
 * import { decodeServerRequest, Methods } from '@wework/codex-protocol';
 * const decoded = decodeServerRequest('item/tool/requestUserInput', incoming.params);
 * if (decoded._tag === 'Right' && decoded.right.method === Methods.ItemToolRequestUserInput) {
 *   decoded.right.params.questions; // typed
 * }
 * ```
 */
export const decodeServerRequest: (method: string, params: unknown) => E.Either<ProtocolDecodeError, ServerRequestMessage> = decodeBy(
  'serverRequest',
  serverRequests,
);

/** Decodes a notification from the app-server by its method; see {@link decodeServerRequest}. */
export const decodeServerNotification: (method: string, params: unknown) => E.Either<ProtocolDecodeError, ServerNotificationMessage> =
  decodeBy('serverNotification', serverNotifications);

/** Decodes a request from a client by its method (what a fake app-server receives). */
export const decodeClientRequest: (method: string, params: unknown) => E.Either<ProtocolDecodeError, ClientRequestMessage> = decodeBy(
  'clientRequest',
  clientRequests,
);

/** Decodes a notification from a client by its method. */
export const decodeClientNotification: (method: string, params: unknown) => E.Either<ProtocolDecodeError, ClientNotificationMessage> =
  decodeBy('clientNotification', clientNotifications);

/** The body of an outgoing message: the method and its encoded params (absent when there are none). */
export interface OutgoingMessage<M extends string = string> {
  readonly method: M;
  readonly params?: unknown;
}

/**
 * Encodes a message for the wire with its descriptor: the params go through the codec's
 * `encode` (so `bigint` fields become JSON numbers), and params of `undefined` are left out.
 * The JSON-RPC framing (`id`, `jsonrpc`) is the transport's business.
 * @example
 * ```ts
 * import { encodeMessage, ThreadStart } from '@wework/codex-protocol';
 * encodeMessage(ThreadStart, { cwd: '/repo', permissions: ':workspace' });
 * // { method: 'thread/start', params: { cwd: '/repo', permissions: ':workspace' } }
 * ```
 */
export const encodeMessage = <D extends AnyDescriptor>(descriptor: D, params: ParamsOf<D>): OutgoingMessage<D['method']> => {
  const encoded: unknown = descriptor.params.encode(params);
  return encoded === undefined ? { method: descriptor.method } : { method: descriptor.method, params: encoded };
};

/**
 * Encodes the result of a request for the wire (what a client answers a server request with).
 * @example
 * ```ts
 * import { encodeResult, McpServerElicitationRequest } from '@wework/codex-protocol';
 * encodeResult(McpServerElicitationRequest, { action: 'decline', content: null, _meta: null });
 * ```
 */
export const encodeResult = <D extends AnyRequestDescriptor>(descriptor: D, result: ResultOf<D>): unknown =>
  descriptor.result.encode(result);
