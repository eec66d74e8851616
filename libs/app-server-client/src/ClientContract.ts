/**
 * The shapes shared by the client and the connection behind it: the options of a client, of one
 * request and of a notification stream, what a server request handler receives and answers, and what
 * a wire tap sees. Types only.
 */
import type { Readable, Writable } from 'node:stream';
import type * as E from 'fp-ts/lib/Either.js';
import type { AnyServerRequest, ParamsOf, ResultOf } from '@wework/codex-protocol';
import type { JsonRpcId } from '@wework/jsonrpc';
import type { Timers } from '@wework/ports';
import type { ClientError, ProcessExited, RequestAborted } from './ClientError.js';

/** Which way a message travelled: `incoming` from the app-server, `outgoing` to it. */
export type MessageDirection = 'incoming' | 'outgoing';

/** A notification as it arrived, before any decoding. */
export interface RawNotification {
  readonly method: string;
  readonly params: unknown;
}

/** What a server request handler learns about the request besides its params. */
export interface ServerRequestContext {
  /** The request id; the app-server's `serverRequest/resolved` notification refers to it. */
  readonly id: JsonRpcId | null;
  readonly method: string;
}

/** The error a server request handler answers with. `code` defaults to `-32603` (internal error). */
export interface ReplyError {
  readonly code?: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * Answers one kind of server request: `Right(result)` becomes the reply's result (encoded with the
 * descriptor's result codec), `Left(error)` an error reply. A handler that throws or rejects gets an
 * internal-error reply, never an unhandled rejection.
 */
export type ServerRequestHandler<D extends AnyServerRequest> = (
  params: ParamsOf<D>,
  context: ServerRequestContext,
) => E.Either<ReplyError, ResultOf<D>> | Promise<E.Either<ReplyError, ResultOf<D>>>;

/** Options of {@link createAppServerClient}. */
export interface AppServerClientOptions {
  /** Bytes from the app-server (a child process' stdout). */
  readonly input: Readable;
  /** Bytes to the app-server (a child process' stdin). */
  readonly output: Writable;
  /** Longest accepted line in bytes; longer lines are skipped with a `LineTooLong` event. Default 32 MiB. */
  readonly maxLineBytes?: number;
  /**
   * Resolves when the app-server process has exited. When given, pending requests resolve with this
   * `ProcessExited` rather than `ConnectionClosed` (the client waits up to `closeGraceMs` for it once the
   * input ends, and for the input to end once the process exited).
   */
  readonly peerExit?: Promise<ProcessExited>;
  /** How long to wait for the second of "input ended" and "process exited". Default 1000 ms. */
  readonly closeGraceMs?: number;
  /**
   * How long a request may wait for its reply before it resolves `Left(RequestTimedOut)` (and a
   * `RequestAbandoned` event is raised). Default `DEFAULT_REQUEST_TIMEOUT_MS` (60 s).
   */
  readonly requestTimeoutMs?: number;
  /** Per-method timeouts that override `requestTimeoutMs`, e.g. `{ 'thread/resume': 120_000 }`. */
  readonly requestTimeouts?: Readonly<Record<string, number>>;
  /**
   * The clock and sleeps of every wait of the client: request timeouts, the close grace, and the waits of
   * `runTurn` and `trackMcpStartup` on it. Default `nodeTimers` of `@wework/ports/node`; a test passes
   * `manualTimers()` of `@wework/ports/testing` to move time itself.
   */
  readonly timers?: Timers;
}

/** Options of one request. */
export interface RequestOptions {
  /**
   * Aborting it sends `$/cancelRequest` for the request and resolves it at once with `Left(RequestAborted)`
   * (a reply that still comes is ignored). An already aborted signal sends nothing.
   */
  readonly signal?: AbortSignal;
}

/**
 * The error side of a request with these options: {@link ClientError}, and {@link RequestAborted} when
 * a signal is given.
 */
export type RequestErrorOf<O extends RequestOptions> = O extends { readonly signal?: undefined } ? ClientError : ClientError | RequestAborted;

/** Options of a notification stream (`AppServerClient.notifications`). */
export interface NotificationStreamOptions {
  /**
   * How many notifications may wait for a slow consumer; default 1024.
   * When the buffer is full the oldest waiting notification is dropped (and a `NotificationsDropped`
   * event raised), so a stalled consumer never holds more than this many.
   */
  readonly bufferSize?: number;
  /** Aborting it ends the stream (after nothing more: waiting notifications are discarded). */
  readonly signal?: AbortSignal;
}
