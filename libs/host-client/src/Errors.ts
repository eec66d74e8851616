/**
 * What a request may end with besides its result: the executor's error reply (its wire code, its
 * message and its `data` decoded with `HostErrorData`), or a local reason the client gives itself.
 * Local messages never carry a value from the executor or the caller.
 *
 * Every function here is pure.
 */
import type { HostErrorData } from '@wework/host-protocol';

/** The executor answered the request with an error. */
export interface ExecutorError {
  readonly _tag: 'ExecutorError';
  /** The wire code (`HostErrorCode` of `@wework/host-protocol`, or JSON-RPC's own). */
  readonly code: number;
  /** The executor's sentence (it never names a value), cut to a bounded length. */
  readonly message: string;
  /** `data` of the reply when it fits `HostErrorData` (`{ tag, retryable? }`), else `null`. */
  readonly data: HostErrorData | null;
}

/** The executor's result does not fit the method's result codec (the places and expected types, never the values). */
export interface InvalidResult {
  readonly _tag: 'InvalidResult';
  readonly method: string;
  readonly message: string;
}

/** There was no connection, it dropped before the answer, or the client was closed. */
export interface Disconnected {
  readonly _tag: 'Disconnected';
  readonly message: string;
}

/** The bounded number of requests in flight is reached and the queue is full (or queueing is off); nothing was sent. */
export interface Busy {
  readonly _tag: 'Busy';
  readonly message: string;
}

/** No answer within the request's timeout (queueing included); a late answer is ignored. */
export interface TimedOut {
  readonly _tag: 'TimedOut';
  readonly method: string;
  readonly timeoutMs: number;
  readonly message: string;
}

/** The caller's `AbortSignal` fired before the answer; a late answer is ignored. */
export interface Aborted {
  readonly _tag: 'Aborted';
  readonly method: string;
  readonly message: string;
}

/** The request could not be written: its method is no request of the protocol, or its params are not JSON. Nothing was sent. */
export interface InvalidRequest {
  readonly _tag: 'InvalidRequest';
  readonly method: string;
  readonly message: string;
}

/** Why a request has no result. */
export type HostClientError = ExecutorError | InvalidResult | InvalidRequest | Disconnected | Busy | TimedOut | Aborted;

/** Why a wait for a notification ended without one. */
export type WaitError = Disconnected | Busy | TimedOut | Aborted;

/** @internal */
export const disconnected = (message: string): Disconnected => ({ _tag: 'Disconnected', message });
/** @internal */
export const busy = (message = 'too many requests in flight; try again'): Busy => ({ _tag: 'Busy', message });
/** @internal */
export const timedOut = (method: string, timeoutMs: number): TimedOut => ({ _tag: 'TimedOut', method, timeoutMs, message: `no answer to ${method} within ${timeoutMs} ms` });
/** @internal */
export const aborted = (method: string): Aborted => ({ _tag: 'Aborted', method, message: `${method} was aborted` });

/**
 * A sentence for a person about `error` (no values of the executor's input, no secrets).
 * @example
 * ```ts
 * describeHostClientError({ _tag: 'Busy', message: 'too many requests in flight; try again' }); // 'too many requests in flight; try again'
 * ```
 */
export function describeHostClientError(error: HostClientError): string {
  switch (error._tag) {
    case 'ExecutorError':
      return `${error.message} (${error.code}${error.data === null ? '' : `, ${error.data.tag}`})`;
    case 'InvalidResult':
      return `the executor's result of ${error.method} does not fit the protocol: ${error.message}`;
    default:
      return error.message;
  }
}
