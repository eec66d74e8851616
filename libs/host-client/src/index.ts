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
  type CardHandler,
  type HostClient,
  type HostClientOptions,
  type HostEvent,
  type StreamNotice,
} from './Client.js';
export { describeHostClientError, type HostClientError } from './Errors.js';
export { type HostTransport, type TransportFactory } from './Transport.js';
export { browserWebSocketTransport } from './BrowserWebSocket.js';
export { HOST_CLIENT_DEFAULTS } from './ClientDefaults.js';
