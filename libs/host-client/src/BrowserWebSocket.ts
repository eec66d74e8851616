/**
 * The transport of a browser (or any runtime with a global `WebSocket`): one text frame per message,
 * the launch token offered as the WebSocket subprotocol (a browser cannot set an `Authorization`
 * header; the executor selects the protocol when it is the token).
 */
import { HOST_LIMITS } from '@wework/host-protocol';
import { connectError, type TransportFactory } from './Transport.js';

/** What the transport needs of a WebSocket: the standard browser interface. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly bufferedAmount?: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror?: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A WebSocket constructor: `new WebSocket(url, protocols)`. */
export type WebSocketConstructor = new (url: string, protocols: string[]) => WebSocketLike;

/** Options of {@link browserWebSocketTransport}. */
export interface BrowserWebSocketOptions {
  /** The constructor to use; default the global `WebSocket`. */
  readonly WebSocket?: WebSocketConstructor;
  /** The longest message read, in UTF-16 units (default 8 Mi, the executor's message bound); longer ones are dropped unread. */
  readonly maxMessageChars?: number;
  /** Sending fails while this many bytes wait to be sent (default 64 MiB). */
  readonly maxBufferedBytes?: number;
}

const OPEN = 1;

/**
 * The transport to the executor at `url` (`ws://127.0.0.1:<port>/`) with the launch `token` as the subprotocol.
 * @example
 * ```ts
 * const client = createHostClient({ connect: browserWebSocketTransport(`ws://${location.host}/`, token) });
 * ```
 */
export function browserWebSocketTransport(url: string, token: string, options: BrowserWebSocketOptions = {}): TransportFactory {
  const maxChars = options.maxMessageChars ?? HOST_LIMITS.maxMessageBytes;
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  return (handlers, signal) => {
    const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (Ctor === undefined) return handlers.onFailed(connectError('Failed', 'this runtime has no WebSocket'));
    let socket: WebSocketLike;
    try {
      socket = new Ctor(url, [token]);
    } catch {
      return handlers.onFailed(connectError('Failed', 'the WebSocket could not be created'));
    }
    let opened = false;
    let done = false;
    const onAbort = (): void => {
      if (opened || done) return;
      done = true;
      socket.close();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.onopen = () => {
      if (done) return;
      opened = true;
      signal.removeEventListener('abort', onAbort);
      handlers.onOpen({
        send: (text) => {
          if (done || socket.readyState !== OPEN || (socket.bufferedAmount ?? 0) > maxBuffered) return false;
          try {
            socket.send(text);
            return true;
          } catch {
            return false;
          }
        },
        close: () => socket.close(1000, 'closed by the host'),
      });
    };
    socket.onmessage = (event) => {
      if (done) return;
      if (typeof event.data !== 'string') return handlers.onRefused?.('NotText');
      if (event.data.length > maxChars) return handlers.onRefused?.('TooLarge');
      handlers.onMessage(event.data);
    };
    socket.onclose = () => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      if (opened) handlers.onClose('the WebSocket closed');
      else handlers.onFailed(connectError('Refused', 'the WebSocket did not open'));
    };
    socket.onerror = () => undefined;
  };
}
