/**
 * `@wework/jsonrpc`: JSON-RPC 2.0 as both sides of this workspace speak it — the app-server client
 * towards Codex and the executor towards its hosts. Every module of this entry is pure.
 *
 * - {@link JsonRpcMessage}: the message shapes and their decoder; {@link WireErrorCode}: the wire's error codes.
 * - {@link createLineDecoder} and {@link createLineSplitter}: newline framing with a line bound, for a
 *   byte stream cut anywhere; {@link encodeMessageLine} writes one line.
 * - {@link decodeInboundBytes} and {@link admitInbound}: the strict decoder and the gate of a connection
 *   served to an untrusted peer (sizes, depth, requests in flight, duplicate ids, unknown responses).
 *
 * A newline transport over Node streams for vscode-jsonrpc lives in `@wework/jsonrpc/node`.
 */
export { WireErrorCode } from './WireErrorCode.js';
export {
  JsonRpcMessage,
  JsonRpcId,
  JsonRpcErrorObject,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
} from './JsonRpcMessage.js';
export type {
  JsonRpcErrorResponse,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcSuccessResponse,
} from './JsonRpcMessage.js';
export { createLineDecoder, createLineSplitter, encodeMessageLine } from './LineFraming.js';
export type {
  FramingError,
  LineDecoder,
  LineDecoderOptions,
  LineFrame,
  LineSplitter,
  LineTooLong,
  MalformedMessage,
} from './LineFraming.js';
export { decodeInboundBytes, decodeInboundText, describeInboundRefusal, inboundErrorReply } from './InboundMessage.js';
export type { InboundMessage, InboundRefusal } from './InboundMessage.js';
export {
  admitInbound,
  initialGateState,
  longRunningRequestsInFlight,
  recordOutbound,
  refusalReplyId,
  shortRequestsInFlight,
} from './InboundGate.js';
export type { GateState } from './InboundGate.js';
