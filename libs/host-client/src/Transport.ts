/**
 * The port a {@link HostClient} speaks through: one connection that sends and receives whole JSON-RPC
 * messages as text (a WebSocket frame, a stdio line), and tells when it closed. A
 * {@link TransportFactory} opens such a connection; the client calls it again to reconnect.
 *
 * This module declares the port only.
 */
/** What a transport tells the client. Each is called synchronously, as it happens. */
export interface TransportHandlers {
  /** The connection is open: send through `transport`. Called at most once, and never after `onFailed`. */
  readonly onOpen: (transport: HostTransport) => void;
  /** The connection could not be opened. Called at most once, and never after `onOpen`. */
  readonly onFailed: (error: ConnectError) => void;
  /** One whole message, as text (not parsed yet). */
  readonly onMessage: (text: string) => void;
  /** The open connection closed (by either side, or it broke); nothing more arrives. Called at most once, after `onOpen`. */
  readonly onClose: (reason: string) => void;
  /** Something arrived that is no message: a frame over the bound, a binary frame, invalid text. */
  readonly onRefused?: (what: 'TooLarge' | 'NotText') => void;
}

/** One open connection to the executor. */
export interface HostTransport {
  /** Sends one message; `false` when the connection can take no more (closed, or its buffer is over its bound). */
  send(text: string): boolean;
  /** Closes the connection; `onClose` follows. */
  close(): void;
}

/** Why a connection could not be opened. */
export interface ConnectError {
  readonly _tag: 'ConnectError';
  /** `Refused` (no listener, or an HTTP answer such as 401 / 403 / 503), `TimedOut`, `Aborted`, `NotReconnectable` (stdio), `Failed`. */
  readonly reason: 'Refused' | 'TimedOut' | 'Aborted' | 'NotReconnectable' | 'Failed';
  /** The HTTP status of a refused WebSocket upgrade, when there was one. */
  readonly status: number | null;
  readonly message: string;
}

/** @internal */
export const connectError = (reason: ConnectError['reason'], message: string, status: number | null = null): ConnectError => ({ _tag: 'ConnectError', reason, status, message });

/**
 * Opens a connection and reports through `handlers` (`onOpen` or `onFailed`, then messages and
 * `onClose`). `signal` fires when the client gives up on an attempt (its connect timeout, or it was
 * closed): the factory then closes what it opened and reports nothing more.
 */
export type TransportFactory = (handlers: TransportHandlers, signal: AbortSignal) => void;
