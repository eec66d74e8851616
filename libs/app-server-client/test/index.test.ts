import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as client from '../src/index.js';
import * as node from '../src/node/index.js';

describe('public API', () => {
  it('pins the runtime exports of the main entry', () => {
    expect(Object.keys(client).sort()).toEqual(
      [
        'ClientError',
        'DEFAULT_CAPABILITIES',
        'DEFAULT_CLIENT_INFO',
        'DEFAULT_MAX_LINE_BYTES',
        'DIAGNOSTIC_PREFIX_CHARS',
        'JsonRpcErrorObject',
        'JsonRpcId',
        'JsonRpcMessage',
        'NewlineMessageReader',
        'NewlineMessageWriter',
        'WireErrorCode',
        'createAppServerClient',
        'createLineDecoder',
        'createLineSplitter',
        'decodeInboundBytes',
        'decodeInboundText',
        'describeInboundRefusal',
        'exceedsNestingDepth',
        'inboundErrorReply',
        'ReservedNotificationParams',
        'admitInbound',
        'initialGateState',
        'recordOutbound',
        'describeClientError',
        'describeMcpStartupError',
        'encodeMessageLine',
        'isIdleActivity',
        'isJsonRpcNotification',
        'isJsonRpcRequest',
        'isJsonRpcResponse',
        'parseMessageLine',
        'trackActivity',
        'trackMcpStartup',
        'truncateForDiagnostics',
      ].sort(),
    );
  });

  it('pins the runtime exports of the ./node entry', () => {
    expect(Object.keys(node).sort()).toEqual(
      [
        'DEFAULT_STDERR_LIMIT_BYTES',
        'StderrTail',
        'isRunning',
        'listProcesses',
        'nativeBinaryLocation',
        'parseProcStat',
        'resolveCodexCommand',
        'spawnAppServer',
        'terminateProcessTree',
        'treeOf',
      ].sort(),
    );
  });

  it('announces the package version in the default clientInfo', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(client.DEFAULT_CLIENT_INFO.version).toBe(manifest.version);
  });

  it('keeps JSON-RPC wire codes apart from local errors', () => {
    expect(client.WireErrorCode).toEqual({ ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601, InvalidParams: -32602, InternalError: -32603 });
  });
});
