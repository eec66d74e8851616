import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';

describe('public API of @wework/jsonrpc', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'JsonRpcErrorObject',
      'JsonRpcId',
      'JsonRpcMessage',
      'WireErrorCode',
      'admitInbound',
      'createLineDecoder',
      'createLineSplitter',
      'decodeInboundBytes',
      'decodeInboundText',
      'describeInboundRefusal',
      'encodeMessageLine',
      'inboundErrorReply',
      'initialGateState',
      'isJsonRpcNotification',
      'isJsonRpcRequest',
      'isJsonRpcResponse',
      'longRunningRequestsInFlight',
      'recordOutbound',
      'refusalReplyId',
      'shortRequestsInFlight',
    ]);
  });

  it('pins the runtime exports of "./node"', () => {
    expect(Object.keys(node).sort()).toEqual(['NewlineMessageReader', 'NewlineMessageWriter']);
  });

  it('keeps JSON-RPC wire codes apart from local errors', () => {
    expect(api.WireErrorCode).toEqual({ Overloaded: -32001, ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601, InvalidParams: -32602, InternalError: -32603 });
  });
});
