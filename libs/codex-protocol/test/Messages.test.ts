import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, test } from 'vitest';
import {
  AccountLogout,
  decodeClientNotification,
  decodeClientRequest,
  decodeParams,
  decodeResult,
  decodeServerNotification,
  decodeServerRequest,
  encodeMessage,
  encodeResult,
  Initialized,
  ItemToolRequestUserInput,
  McpServerElicitationRequest,
  Methods,
  serverNotifications,
  serverRequests,
  ThreadStart,
  ThreadUnsubscribe,
  type ServerNotificationMethod,
  type ServerRequestMethod,
} from '../src/index.js';
import { serverNotificationMessageArbitrary, serverRequestMessageArbitrary } from '../src/testing.js';
import { throughJson, wireJson } from './lawsSupport.js';

describe('decodeServerRequest', () => {
  test('decodes known methods into a message narrowed by method', () => {
    const params = { threadId: 't', turnId: 'u', itemId: 'i', questions: [], isBlocking: true, autoResolutionMs: null };
    const decoded = decodeServerRequest(Methods.ItemToolRequestUserInput, params);
    expect(decoded).toEqual(E.right({ method: 'item/tool/requestUserInput', params }));
    if (E.isRight(decoded) && decoded.right.method === Methods.ItemToolRequestUserInput) {
      expect(decoded.right.params.isBlocking).toBe(true);
    }
  });

  test('reports an unknown method, including names of Object.prototype', () => {
    for (const method of ['item/unknown', 'constructor', 'toString', '__proto__', '']) {
      expect(decodeServerRequest(method, {})).toEqual(
        E.left({ _tag: 'UnknownMethod', kind: 'serverRequest', method, message: `Unknown serverRequest method ${JSON.stringify(method)}` }),
      );
    }
  });

  test('reports invalid params with their path', () => {
    const decoded = decodeServerRequest(Methods.McpServerElicitationRequest, { threadId: 1 });
    expect(E.isLeft(decoded) && decoded.left._tag).toBe('InvalidParams');
    expect(E.isLeft(decoded) && decoded.left.message).toContain('params.threadId: expected string, got a number');
  });

  test('never throws, whatever the method and params', () => {
    const methods = fc.oneof(fc.constantFrom(...Object.keys(serverRequests), ...Object.keys(serverNotifications)), fc.string());
    fc.assert(
      fc.property(methods, wireJson, (method, params) => {
        decodeServerRequest(method, params);
        decodeServerNotification(method, params);
        decodeClientRequest(method, params);
        decodeClientNotification(method, params);
      }),
      { numRuns: 300 },
    );
  });
});

describe('encodeMessage and decoding by method', () => {
  test('every server request survives encode, JSON and decode, in order', () => {
    fc.assert(
      fc.property(serverRequestMessageArbitrary, (message) => {
        const descriptor = serverRequests[message.method as ServerRequestMethod];
        const wire = throughJson(encodeMessage(descriptor, message.params as never)) as { method: string; params?: unknown };
        expect(decodeServerRequest(wire.method, wire.params)).toEqual(E.right(message));
      }),
      { numRuns: 200 },
    );
  });

  test('every server notification survives encode, JSON and decode', () => {
    fc.assert(
      fc.property(serverNotificationMessageArbitrary, (message) => {
        const descriptor = serverNotifications[message.method as ServerNotificationMethod];
        const wire = throughJson(encodeMessage(descriptor, message.params as never)) as { method: string; params?: unknown };
        expect(decodeServerNotification(wire.method, wire.params)).toEqual(E.right(message));
      }),
      { numRuns: 200 },
    );
  });

  test('leaves params out when a method has none', () => {
    expect(encodeMessage(Initialized, undefined)).toEqual({ method: 'initialized' });
    expect(encodeMessage(AccountLogout, undefined)).toEqual({ method: 'account/logout' });
    expect(decodeClientNotification('initialized', undefined)).toEqual(E.right({ method: 'initialized', params: undefined }));
  });

  test('builds a typed request', () => {
    expect(encodeMessage(ThreadStart, { cwd: '/repo', permissions: ':workspace' })).toEqual({
      method: 'thread/start',
      params: { cwd: '/repo', permissions: ':workspace' },
    });
  });
});

describe('decodeParams and decodeResult', () => {
  test('decode with a descriptor and tag failures by side', () => {
    expect(decodeResult(ThreadUnsubscribe, { status: 'unsubscribed' })).toEqual(E.right({ status: 'unsubscribed' }));
    // A status of a newer Codex is forward compatible (it decodes); a status that is no string fails.
    expect(decodeResult(ThreadUnsubscribe, { status: 'gone' })).toEqual(E.right({ status: 'gone' }));
    const badResult = decodeResult(ThreadUnsubscribe, { status: 7 });
    expect(E.isLeft(badResult) && badResult.left._tag).toBe('InvalidResult');
    const badParams = decodeParams(ItemToolRequestUserInput, null);
    expect(E.isLeft(badParams) && badParams.left).toMatchObject({ _tag: 'InvalidParams', method: 'item/tool/requestUserInput' });
  });

  test('encodeResult produces the wire form of an answer', () => {
    expect(encodeResult(McpServerElicitationRequest, { action: 'accept', content: { strategy: 'safe' }, _meta: null })).toEqual({
      action: 'accept',
      content: { strategy: 'safe' },
      _meta: null,
    });
  });
});
