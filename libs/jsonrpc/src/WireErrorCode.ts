/**
 * JSON-RPC 2.0 error codes as they travel on the wire, kept apart from any side's local errors (the
 * app-server client's `ClientError`, a host's own codes): these numbers are what a peer puts in, or
 * reads from, an error reply.
 *
 * Every value here is plain data.
 */

/**
 * The error codes defined by JSON-RPC 2.0 (and Codex's `Overloaded`) that either side sends or expects.
 *
 * @example
 * ```ts
 * import { WireErrorCode } from '@wework/jsonrpc';
 * const notInitialized = (code: number) => code === WireErrorCode.InvalidRequest;
 * ```
 */
export const WireErrorCode = {
  /** The peer could not parse the JSON text. */
  ParseError: -32700,
  /** The message is not a valid request (Codex also uses it for "Not initialized" and unknown methods). */
  InvalidRequest: -32600,
  /** No handler exists for the method. */
  MethodNotFound: -32601,
  /** The params do not match what the method expects. */
  InvalidParams: -32602,
  /** The handler failed. */
  InternalError: -32603,
  /**
   * Codex's own: its incoming queue is full and the request was refused unprocessed
   * (`"Server overloaded; retry later."`); the app-server client maps it to its `Overloaded` error.
   */
  Overloaded: -32001,
} as const;

/** One of the values of {@link WireErrorCode}. */
export type WireErrorCode = (typeof WireErrorCode)[keyof typeof WireErrorCode];
