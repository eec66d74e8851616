/**
 * The host protocol over a pair of byte streams (the executor's stdin and stdout): one JSON object per
 * line, like the app-server's own protocol. A line that is not JSON-RPC gets a `-32700` reply with a
 * null id, and reading carries on.
 */
import type { Readable, Writable } from 'node:stream';
import { createMessageConnection, type Message, type MessageConnection } from 'vscode-jsonrpc/node';
import { NewlineMessageReader, NewlineMessageWriter } from '@wework/app-server-client';
import { HostErrorCode } from './HostProtocol.js';

/** A JSON-RPC connection over newline-delimited JSON. */
export function stdioConnection(input: Readable, output: Writable): MessageConnection {
  const reader = new NewlineMessageReader(input);
  const writer = new NewlineMessageWriter(output);
  reader.onFramingError((error) => {
    const message = error._tag === 'LineTooLong' ? 'the line is too long' : 'the line is not a JSON-RPC 2.0 message';
    void writer.write({ jsonrpc: '2.0', id: null, error: { code: HostErrorCode.ParseError, message } } as Message).catch(() => undefined);
  });
  return createMessageConnection(reader, writer);
}
