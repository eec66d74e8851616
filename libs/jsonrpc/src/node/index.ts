/**
 * `@wework/jsonrpc/node`: newline-delimited JSON-RPC over Node streams, as a vscode-jsonrpc
 * `MessageReader` and `MessageWriter` (the framing of `@wework/jsonrpc`, not vscode-jsonrpc's
 * Content-Length headers).
 */
export { NewlineMessageReader, NewlineMessageWriter } from './NewlineMessageTransport.js';
