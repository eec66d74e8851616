/**
 * The server side of the host protocol as a type: one handler per wire method, keyed by the method a
 * reader greps for (vscode-languageserver's `connection.onRequest(Method.type, handler)`), and the
 * error an answer may be. An executor implements {@link HostHandlers} in parts (one per area) and
 * serves their union; a method added to {@link HostRequests} fails to compile until it is served.
 *
 * Every value here is plain data; the codecs are pure.
 */
import type * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { HostErrorCode } from './ErrorCodes.js';
import type { HostMethod, HostParamsOf, HostResultOf } from './Requests.js';

/**
 * The `data` of every error reply of the executor: the typed error's `_tag`, and whether the same
 * request may succeed later (`retryable`), when that is known.
 */
export const HostErrorData = t.intersection([t.type({ tag: t.string }), t.partial({ retryable: t.boolean })], 'HostErrorData');
/** See the codec {@link HostErrorData}. */
export type HostErrorData = t.TypeOf<typeof HostErrorData>;

/** An error reply before it is written: its code, a sentence for a person (no paths, no secrets), and its `data`. */
export interface HostFailure {
  readonly code: HostErrorCode;
  readonly message: string;
  /** The typed error's `_tag` (`data.tag` of the reply). */
  readonly tag: string;
  /** Whether sending the same request again later may succeed (`data.retryable` of the reply). */
  readonly retryable?: boolean;
}

/** The `data` of the error reply of `failure`. */
export const hostErrorData = (failure: HostFailure): HostErrorData => (failure.retryable === undefined ? { tag: failure.tag } : { tag: failure.tag, retryable: failure.retryable });

/** What a handler answers: the method's result, or a failure. */
export type HostAnswer<M extends HostMethod> = Promise<E.Either<HostFailure, HostResultOf<M>>>;

/** The handler of one wire method: its decoded params (and the server's per-connection context) in, its answer out. */
export type HostHandler<M extends HostMethod, Context = void> = (params: HostParamsOf<M>, context: Context) => HostAnswer<M>;

/** A handler for every method of the host protocol, keyed by wire method. */
export type HostHandlers<Context = void> = { readonly [M in HostMethod]: HostHandler<M, Context> };

/** Handlers for some of the methods (one area of a server); a server serves the union of its parts. */
export type HostHandlersPart<M extends HostMethod, Context = void> = { readonly [K in M]: HostHandler<K, Context> };
