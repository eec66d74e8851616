import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { JsonRpcMessage, isJsonRpcNotification, isJsonRpcRequest, isJsonRpcResponse } from '../src/index.js';
import { jsonRpcMessage, jsonValue } from './arbitraries.js';

describe('JsonRpcMessage', () => {
  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(jsonRpcMessage, (message) => {
        expect(JsonRpcMessage.decode(JsonRpcMessage.encode(message))).toEqual(E.right(message));
      }),
    );
  });

  it('never throws on arbitrary JSON, and what it accepts it also recognises with is()', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const decoded = JsonRpcMessage.decode(value);
        expect(JsonRpcMessage.is(value)).toBe(E.isRight(decoded));
      }),
    );
  });

  it('classifies each message as exactly one of request, notification, response', () => {
    fc.assert(
      fc.property(jsonRpcMessage, (message) => {
        const kinds = [isJsonRpcRequest(message), isJsonRpcNotification(message), isJsonRpcResponse(message)].filter(Boolean);
        expect(kinds).toHaveLength(1);
      }),
    );
  });

  it('accepts app-server replies without "jsonrpc" and keeps only JSON-RPC members', () => {
    expect(JsonRpcMessage.decode({ id: 0, result: { userAgent: 'x' }, extra: 1 })).toEqual(E.right({ id: 0, result: { userAgent: 'x' } }));
    expect(JsonRpcMessage.decode({ method: 'configWarning', params: {}, emittedAtMs: 1 })).toEqual(E.right({ method: 'configWarning', params: {} }));
    expect(JsonRpcMessage.decode({ error: { code: -32600, message: 'Not initialized' }, id: 3 })).toEqual(
      E.right({ id: 3, error: { code: -32600, message: 'Not initialized' } }),
    );
  });
});
