/**
 * Every error the client hands out, as one `_tag`ged union. Requests resolve `Left` with one of these;
 * the transport-level ones also appear on the client's event stream. Wire error codes live apart, in
 * `@wework/jsonrpc` (`WireErrorCode`).
 *
 * The two framing errors, `MalformedMessage` and `LineTooLong`, are `@wework/jsonrpc`'s.
 *
 * Every function here is pure: plain data in, plain data out.
 */
import type { LineTooLong, MalformedMessage } from '@wework/jsonrpc';

/** The peer answered with a JSON-RPC error reply. */
export interface RequestFailed {
  readonly _tag: 'RequestFailed';
  readonly method: string;
  /** The wire error code (see `WireErrorCode` of `@wework/jsonrpc`). */
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A reply, or params from the peer, did not match the method's codec. */
export interface DecodeFailed {
  readonly _tag: 'DecodeFailed';
  readonly method: string;
  /** Where and what did not match; never contains the offending values. */
  readonly message: string;
}

/** Outgoing params could not be encoded as JSON-RPC params (an object, an array or nothing). */
export interface EncodeFailed {
  readonly _tag: 'EncodeFailed';
  readonly method: string;
  readonly message: string;
}

/** The peer's output ended. */
export interface ConnectionClosed {
  readonly _tag: 'ConnectionClosed';
}

/** The peer did not answer within the request's timeout; the request is abandoned (a late reply is ignored). */
export interface RequestTimedOut {
  readonly _tag: 'RequestTimedOut';
  readonly method: string;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;
}

/**
 * The peer refused the request because it is overloaded (Codex answers `-32001` when its incoming
 * queue is full). Nothing was done; the request may be sent again later.
 */
export interface Overloaded {
  readonly _tag: 'Overloaded';
  readonly method: string;
  readonly message: string;
  /** Always true: an overloaded peer did nothing with the request. */
  readonly retryable: true;
}

/** The peer process exited (or was killed). */
export interface ProcessExited {
  readonly _tag: 'ProcessExited';
  /** Exit code, or null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it, or null. */
  readonly signal: string | null;
  /** The last bytes the process wrote to stderr, for diagnostics. */
  readonly stderrTail: string;
}

/** The client was disposed. */
export interface Disposed {
  readonly _tag: 'Disposed';
}

/** The underlying stream failed (for example EPIPE on write). */
export interface TransportError {
  readonly _tag: 'TransportError';
  readonly message: string;
}

/**
 * A request whose `signal` was aborted: `$/cancelRequest` was sent (unless the signal was aborted
 * before the request was written) and the request resolved without waiting for the reply. Only a request
 * given a signal resolves with it, so it is not one of {@link ClientError}.
 */
export interface RequestAborted {
  readonly _tag: 'RequestAborted';
  readonly method: string;
}

/** Any error of the client. */
export type ClientError =
  | RequestFailed
  | RequestTimedOut
  | Overloaded
  | DecodeFailed
  | EncodeFailed
  | ConnectionClosed
  | ProcessExited
  | Disposed
  | MalformedMessage
  | LineTooLong
  | TransportError;

/** The errors that end the client: after one of them every request resolves `Left` with it. */
export type TerminalError = ConnectionClosed | ProcessExited | Disposed;

/**
 * Constructors of {@link ClientError} values.
 *
 * @example
 * ```ts
 * import { ClientError } from '@wework/app-server-client';
 * const error = ClientError.requestFailed('thread/start', -32600, 'Not initialized');
 * ```
 */
export const ClientError = {
  requestFailed: (method: string, code: number, message: string, data?: unknown): RequestFailed =>
    data === undefined ? { _tag: 'RequestFailed', method, code, message } : { _tag: 'RequestFailed', method, code, message, data },
  requestTimedOut: (method: string, timeoutMs: number): RequestTimedOut => ({ _tag: 'RequestTimedOut', method, timeoutMs }),
  overloaded: (method: string, message: string): Overloaded => ({ _tag: 'Overloaded', method, message, retryable: true }),
  decodeFailed: (method: string, message: string): DecodeFailed => ({ _tag: 'DecodeFailed', method, message }),
  encodeFailed: (method: string, message: string): EncodeFailed => ({ _tag: 'EncodeFailed', method, message }),
  connectionClosed: (): ConnectionClosed => ({ _tag: 'ConnectionClosed' }),
  processExited: (code: number | null, signal: string | null, stderrTail: string): ProcessExited => ({
    _tag: 'ProcessExited',
    code,
    signal,
    stderrTail,
  }),
  disposed: (): Disposed => ({ _tag: 'Disposed' }),
  malformedMessage: (line: string, reason: string): MalformedMessage => ({ _tag: 'MalformedMessage', line, reason }),
  lineTooLong: (limitBytes: number, prefix: string): LineTooLong => ({ _tag: 'LineTooLong', limitBytes, prefix }),
  transportError: (message: string): TransportError => ({ _tag: 'TransportError', message }),
  requestAborted: (method: string): RequestAborted => ({ _tag: 'RequestAborted', method }),
} as const;

/**
 * A one-line description of an error for logs. It leaves out `data` of error replies and the stderr
 * tail, which may carry more than a log should.
 *
 * @example
 * ```ts
 * import { ClientError, describeClientError } from '@wework/app-server-client';
 * describeClientError(ClientError.connectionClosed()); // 'connection closed'
 * ```
 */
export function describeClientError(error: ClientError | RequestAborted): string {
  switch (error._tag) {
    case 'RequestFailed':
      return `${error.method} failed with ${error.code}: ${error.message}`;
    case 'RequestTimedOut':
      return `${error.method} got no answer within ${error.timeoutMs} ms`;
    case 'Overloaded':
      return `${error.method} refused: the app-server is overloaded (retry later)`;
    case 'DecodeFailed':
      return `${error.method}: unexpected shape: ${error.message}`;
    case 'EncodeFailed':
      return `${error.method}: cannot encode params: ${error.message}`;
    case 'ConnectionClosed':
      return 'connection closed';
    case 'ProcessExited':
      return `app-server exited (code ${String(error.code)}, signal ${String(error.signal)})`;
    case 'Disposed':
      return 'client disposed';
    case 'MalformedMessage':
      return `malformed message: ${error.reason}`;
    case 'LineTooLong':
      return `line longer than ${error.limitBytes} bytes skipped`;
    case 'TransportError':
      return `transport error: ${error.message}`;
    case 'RequestAborted':
      return `${error.method} aborted`;
  }
}

/**
 * Describes a {@link ClientError} by its category only, for a message that leaves the process (a host's
 * error reply): the method, the wire code, the kind of failure and, for a decode failure, the place — never
 * the peer's or the OS's own text, which may carry paths or values (`config.toml`'s absolute path in a
 * Codex refusal, a file in an `EPIPE`). {@link describeClientError} keeps that text, for logs.
 * @example
 * ```ts
 * describeClientErrorCategory({ _tag: 'RequestFailed', method: 'config/read', code: -32603, message: 'failed to load /home/ada/.codex/config.toml' });
 * // 'config/read failed with -32603'
 * ```
 */
export function describeClientErrorCategory(error: ClientError | RequestAborted): string {
  switch (error._tag) {
    case 'RequestFailed':
      return `${error.method} failed with ${error.code}`;
    case 'EncodeFailed':
      return `${error.method}: cannot encode params`;
    case 'MalformedMessage':
      return 'malformed message from the app-server';
    case 'TransportError':
      return 'transport error';
    default:
      // The others carry no foreign text: a method, a bound, an exit code, or places without values.
      return describeClientError(error);
  }
}

