/**
 * The executor's loopback WebSocket from Node (the `ws` package): the launch token as
 * `Authorization: Bearer <token>` (or, as a browser sends it, as the subprotocol), one text frame per
 * message, frames over the bound refused by `ws` itself.
 */
import { HOST_LIMITS } from '@wework/host-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { WebSocket, type RawData } from 'ws';
import { connectError, type ConnectError, type TransportFactory } from '../Transport.js';

/** How the launch token is presented. */
export interface ExecutorAuth {
  /** As `Authorization: Bearer <token>` (what a native client sends). */
  readonly bearer?: string;
  /** As the WebSocket subprotocol (what a browser sends). */
  readonly protocol?: string;
}

/** Options of {@link nodeWebSocketTransport}. */
export interface NodeWebSocketOptions {
  /** The host to connect to; default `127.0.0.1` (the executor listens on loopback only). */
  readonly host?: string;
  /** The largest frame taken (default 8 MiB more than the executor's message bound); a larger one closes the connection (1009). */
  readonly maxMessageBytes?: number;
  /** Sending fails while this many bytes wait to be sent (default 64 MiB). */
  readonly maxBufferedBytes?: number;
}

/** An open socket to the executor, as {@link openExecutorSocket} gives it: what a test of the upgrade looks at. */
export interface ExecutorSocket {
  /** The subprotocol the executor selected (`''` for none). */
  readonly protocol: string;
  close(): void;
}

const text = (data: RawData): string => (Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)])).toString('utf8');

function socketTo(port: number, auth: ExecutorAuth, options: NodeWebSocketOptions): WebSocket {
  return new WebSocket(`ws://${options.host ?? '127.0.0.1'}:${port}/`, auth.protocol === undefined ? [] : [auth.protocol], {
    headers: auth.bearer === undefined ? {} : { authorization: `Bearer ${auth.bearer}` },
    maxPayload: options.maxMessageBytes ?? 2 * HOST_LIMITS.maxMessageBytes,
    perMessageDeflate: false,
  });
}

/** Waits for `socket` to open; a refused upgrade (401, 403, 503) or a failure is a {@link ConnectError}. */
function opening(socket: WebSocket, signal?: AbortSignal): Promise<E.Either<ConnectError, WebSocket>> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (result: E.Either<ConnectError, WebSocket>): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      socket.off('open', onOpen);
      socket.off('error', onError);
      socket.off('unexpected-response', onRefused);
      if (E.isLeft(result)) socket.terminate();
      resolve(result);
    };
    const onOpen = (): void => finish(E.right(socket));
    const onError = (): void => finish(E.left(connectError('Refused', 'the executor could not be reached')));
    const onRefused = (_request: unknown, response: { statusCode?: number }): void =>
      finish(E.left(connectError('Refused', `the executor refused the connection (HTTP ${response.statusCode ?? 'no status'})`, response.statusCode ?? null)));
    const onAbort = (): void => finish(E.left(connectError('Aborted', 'the connection attempt was given up')));
    socket.once('open', onOpen);
    socket.once('error', onError);
    socket.once('unexpected-response', onRefused);
    socket.on('error', () => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Opens a socket to the executor on `port` with `auth`, for a check of the upgrade itself (a refused
 * token, the subprotocol selected); {@link nodeWebSocketTransport} is what a client speaks through.
 * @example
 * ```ts
 * const refused = await openExecutorSocket(port, { bearer: 'wrong' }); // left({ reason: 'Refused', status: 401, ... })
 * ```
 */
export async function openExecutorSocket(port: number, auth: ExecutorAuth, options: NodeWebSocketOptions = {}): Promise<E.Either<ConnectError, ExecutorSocket>> {
  const opened = await opening(socketTo(port, auth, options));
  return E.map((socket: WebSocket): ExecutorSocket => ({ protocol: socket.protocol, close: () => socket.close() }))(opened);
}

/**
 * The transport to the executor's WebSocket on `port` with the launch `token` (as a bearer header).
 * @example
 * ```ts
 * const client = createHostClient({ connect: nodeWebSocketTransport(43117, token) });
 * ```
 */
export function nodeWebSocketTransport(port: number, token: string, options: NodeWebSocketOptions = {}): TransportFactory {
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  return (handlers, signal) => {
    let socket: WebSocket;
    try {
      socket = socketTo(port, { bearer: token }, options);
    } catch {
      return handlers.onFailed(connectError('Failed', 'the WebSocket could not be created'));
    }
    void opening(socket, signal).then((opened) => {
      if (E.isLeft(opened)) return handlers.onFailed(opened.left);
      let closed = false;
      socket.on('message', (data, isBinary) => {
        if (closed) return;
        if (isBinary) return handlers.onRefused?.('NotText');
        handlers.onMessage(text(data));
      });
      socket.on('close', () => {
        if (closed) return;
        closed = true;
        handlers.onClose('the WebSocket closed');
      });
      socket.on('error', () => undefined);
      handlers.onOpen({
        send: (message) => {
          if (closed || socket.readyState !== WebSocket.OPEN || socket.bufferedAmount > maxBuffered) return false;
          socket.send(message, () => undefined);
          return true;
        },
        close: () => socket.terminate(),
      });
    });
  };
}
