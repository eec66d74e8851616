/**
 * What the client reports on its event stream: transport errors (the same values as in `ClientError`)
 * and events about messages it rejected or could not deliver. None of these stop the connection except
 * `ConnectionClosed`, `ProcessExited` and `Disposed`, which are reported once, when the client ends.
 *
 * Every value here is plain data.
 */
import type { JsonRpcId, LineTooLong, MalformedMessage } from '@wework/jsonrpc';
import type { ConnectionClosed, Disposed, ProcessExited, TransportError } from './ClientError.js';

/** Why a server request was answered with an error reply. */
export type ServerRequestRejection =
  /** No handler is registered for the method (answered `-32601`). */
  | 'NoHandler'
  /** The params did not decode with the method's codec (answered `-32602`). */
  | 'InvalidParams'
  /** The handler threw or rejected (answered `-32603`). */
  | 'HandlerThrew'
  /** The handler returned `Left` (answered with its error). */
  | 'HandlerFailed'
  /** The handler's result did not encode with the method's codec (answered `-32603`). */
  | 'InvalidResult';

/** A request from the app-server was answered with an error reply. */
export interface ServerRequestRejected {
  readonly _tag: 'ServerRequestRejected';
  readonly method: string;
  /** The request id, or null when vscode-jsonrpc did not expose it. */
  readonly id: JsonRpcId | null;
  readonly reason: ServerRequestRejection;
  /** The code sent in the error reply. */
  readonly code: number;
  /** A description for diagnostics (decode errors never include the offending values). */
  readonly message: string;
}

/** A notification's params did not decode with a subscribed descriptor; its typed listeners were skipped. */
export interface InvalidNotification {
  readonly _tag: 'InvalidNotification';
  readonly method: string;
  readonly message: string;
}

/** A notification listener threw; other listeners still ran. */
export interface ListenerFailed {
  readonly _tag: 'ListenerFailed';
  readonly method: string;
  readonly message: string;
}

/** vscode-jsonrpc reported a protocol problem (for example a response to an unknown id). */
export interface ProtocolWarning {
  readonly _tag: 'ProtocolWarning';
  readonly message: string;
}

/**
 * A request was given up locally (its timeout elapsed) while its reply may never come: whoever tracks
 * requests in flight by id (see `trackActivity`) must stop counting it.
 */
export interface RequestAbandoned {
  readonly _tag: 'RequestAbandoned';
  readonly method: string;
  /** The request's wire id. */
  readonly id: JsonRpcId;
  readonly timeoutMs: number;
}

/**
 * A notification stream's consumer fell behind by its whole buffer: the oldest waiting notification
 * was dropped from that stream (listeners registered with `on` still saw it).
 */
export interface NotificationsDropped {
  readonly _tag: 'NotificationsDropped';
  /** The method of the dropped notification. */
  readonly method: string;
  /** The stream's buffer bound. */
  readonly bufferSize: number;
}

/**
 * A message decoded, but carries enum literals or union variants of a newer Codex (see
 * `unknownParts` of `@wework/codex-protocol`): it was delivered with them as typed unknown cases.
 * Reported for every such message; `parts` name kind, path and codec, and the literal only in
 * its loggable form (never a value of the message).
 */
export interface UnknownProtocolValues {
  readonly _tag: 'UnknownProtocolValues';
  readonly method: string;
  /** `params` of a server request or notification, `result` of a client request. */
  readonly side: 'params' | 'result';
  readonly parts: ReadonlyArray<{ readonly kind: 'literal' | 'variant'; readonly path: string; readonly codec: string; readonly literal: string }>;
}

/** Anything on the client's event stream. */
export type ClientEvent =
  | MalformedMessage
  | LineTooLong
  | TransportError
  | ConnectionClosed
  | ProcessExited
  | Disposed
  | ServerRequestRejected
  | InvalidNotification
  | ListenerFailed
  | ProtocolWarning
  | RequestAbandoned
  | NotificationsDropped
  | UnknownProtocolValues;
