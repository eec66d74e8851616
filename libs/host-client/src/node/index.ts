/**
 * `@wework/host-client/node`: the desktop executor from Node — started with its serve entry and
 * connected over stdio or its loopback WebSocket ({@link spawnExecutor}), or an executor already
 * running with `--ws` connected with its launch token ({@link connectExecutorWebSocket}); and the Node
 * transports themselves.
 */
export {
  connectExecutorWebSocket,
  defaultServePath,
  serveArguments,
  spawnExecutor,
  type ExecutorExit,
  type ExecutorProcess,
  type SpawnError,
  type SpawnExecutorOptions,
} from './spawnExecutor.js';
export { stdioTransport, type StdioTransportOptions } from './stdio.js';
export { nodeWebSocketTransport, openExecutorSocket, type ExecutorAuth, type ExecutorSocket, type NodeWebSocketOptions } from './webSocket.js';
