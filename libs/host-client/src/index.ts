/**
 * `@wework/host-client`: the one client every host of the desktop executor uses. JSON-RPC 2.0 over a
 * small transport port ({@link TransportFactory}; a browser `WebSocket` one here, stdio and Node
 * WebSocket ones in `@wework/host-client/node`), requests typed by the wire method and decoded with
 * the method's result codec of `@wework/host-protocol`, errors as `_tag`ged values, bounded requests in
 * flight, cards, and the replayable event stream across reconnects.
 *
 * This entry runs in a browser: it uses no Node built-in.
 */
export {
  createHostClient,
  type CardContext,
  type CardHandler,
  type ConnectionState,
  type HostClient,
  type HostClientOptions,
  type HostEvent,
  type MessageDirection,
  type ProtocolViolation,
  type ReconnectOptions,
  type RequestOptions,
  type Resumed,
  type StreamNotice,
} from './Client.js';
export { describeHostClientError, type Aborted, type Busy, type Disconnected, type ExecutorError, type HostClientError, type InvalidRequest, type InvalidResult, type TimedOut, type WaitError } from './Errors.js';
export { type ConnectError, type HostTransport, type TransportFactory, type TransportHandlers } from './Transport.js';
export { browserWebSocketTransport, type BrowserWebSocketOptions, type WebSocketConstructor, type WebSocketLike } from './BrowserWebSocket.js';
export { reconnectDelay, type BackoffBounds } from './Backoff.js';
export { initialStream, subscribed, subscribeFailed, subscribing, takeEvent, type StreamState, type StreamStep } from './Stream.js';
export { HOST_CLIENT_DEFAULTS } from './ClientDefaults.js';
