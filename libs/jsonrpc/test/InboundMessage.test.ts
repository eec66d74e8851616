import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeInboundBytes, decodeInboundText, describeInboundRefusal, inboundErrorReply } from '../src/index.js';
import { exceedsNestingDepth, ReservedNotificationParams } from '../src/InboundMessage.js';
import type { InboundMessage } from '../src/index.js';
import { jsonRpcMessage, jsonValue } from './arbitraries.js';

const limits = { maxBytes: 4096, maxDepth: 16 };
const utf8 = new TextEncoder();

/** Nesting depth of a JSON value (a scalar is 0, `[]` is 1). */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...(Array.isArray(value) ? value : Object.values(value)).map(depthOf)) : 0;

/** The error reply to a text that must be refused. */
const replyTo = (text: string): ReturnType<typeof inboundErrorReply> => {
  const decoded = decodeInboundText(text, limits);
  if (decoded._tag === 'Accepted') throw new Error('accepted');
  return inboundErrorReply(decoded.refusal);
};

const replyText = (decoded: InboundMessage): string => (decoded._tag === 'Refused' ? JSON.stringify(inboundErrorReply(decoded.refusal)) + describeInboundRefusal(decoded.refusal) : '');

describe('decodeInboundText / decodeInboundBytes', () => {
  it('never throws on arbitrary text or bytes, and a refusal never repeats the input', () => {
    const marker = 'sk-zq9-secret';
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ maxLength: 60 }).map((s) => `{"id":"${marker}","method":${JSON.stringify(s)},"params":"${marker}"`),
      jsonValue.map((value) => JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: value, note: marker })),
      jsonValue.map((value) => JSON.stringify({ id: marker, value })),
    );
    fc.assert(
      fc.property(text, (input) => {
        const decoded = decodeInboundText(input, limits);
        expect(['Accepted', 'Refused']).toContain(decoded._tag);
        expect(replyText(decoded)).not.toContain('zq9');
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const decoded = decodeInboundBytes(bytes, limits);
        expect(['Accepted', 'Refused']).toContain(decoded._tag);
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts every well-formed request, notification and correlatable response unchanged', () => {
    const deliverable = jsonRpcMessage.filter(
      (message) => !('method' in message && !('id' in message) && message.method.startsWith('$/')) && !('id' in message && message.id === null && !('method' in message)) && depthOf(message) <= limits.maxDepth,
    );
    fc.assert(
      fc.property(deliverable, (message) => {
        const text = JSON.stringify(message);
        fc.pre(utf8.encode(text).length <= limits.maxBytes);
        expect(decodeInboundText(text, limits)).toEqual({ _tag: 'Accepted', message });
        expect(decodeInboundBytes(utf8.encode(text), limits)).toEqual({ _tag: 'Accepted', message });
      }),
    );
  });

  it('accepts vscode-jsonrpc notifications only with the params its dispatcher reads', () => {
    const methods = Object.keys(ReservedNotificationParams) as Array<keyof typeof ReservedNotificationParams>;
    const params = fc.oneof(
      jsonValue,
      fc.record({ id: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean()) }),
      fc.record({ token: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), value: jsonValue }),
      fc.record({ value: fc.constantFrom('off', 'messages', 'compact', 'verbose', 'loud') }),
      fc.record({ message: fc.oneof(fc.string(), fc.integer()) }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(fc.constantFrom(...methods), params, (method, value) => {
        const decoded = decodeInboundText(JSON.stringify({ jsonrpc: '2.0', method, params: value }), limits);
        expect(decoded._tag === 'Accepted').toBe(ReservedNotificationParams[method].is(value === undefined ? undefined : JSON.parse(JSON.stringify(value))));
        if (decoded._tag === 'Refused') expect(inboundErrorReply(decoded.refusal)).toBeNull();
      }),
    );
    expect(decodeInboundText('{"jsonrpc":"2.0","method":"$/cancelRequest"}', limits)).toEqual({ _tag: 'Refused', refusal: { _tag: 'InvalidReservedNotification', method: '$/cancelRequest' } });
    expect(decodeInboundText('{"method":"$/somethingElse","params":{}}', limits)).toEqual({ _tag: 'Refused', refusal: { _tag: 'InvalidReservedNotification', method: null } });
  });

  it('refuses what is too deep before parsing it, and what is too large, as parse errors without an id', () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"x","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(decodeInboundText(deep, { maxBytes: 1 << 20, maxDepth: 64 })).toEqual({ _tag: 'Refused', refusal: { _tag: 'TooDeep', limitDepth: 64 } });
    expect(inboundErrorReply({ _tag: 'TooDeep', limitDepth: 64 })).toEqual({ id: null, error: { code: -32700, message: 'Parse error: the message nests arrays and objects deeper than 64 levels' } });
    const atLimit = JSON.stringify({ id: 1, method: 'x', params: 'é'.repeat(10) });
    const bytes = utf8.encode(atLimit).length;
    expect(decodeInboundText(atLimit, { maxBytes: bytes, maxDepth: 4 })._tag).toBe('Accepted');
    expect(decodeInboundText(atLimit, { maxBytes: bytes - 1, maxDepth: 4 })).toEqual({ _tag: 'Refused', refusal: { _tag: 'TooLarge', limitBytes: bytes - 1 } });
    expect(decodeInboundBytes(utf8.encode(atLimit), { maxBytes: bytes - 1, maxDepth: 4 })).toEqual({ _tag: 'Refused', refusal: { _tag: 'TooLarge', limitBytes: bytes - 1 } });
    expect(decodeInboundBytes(new Uint8Array([0x7b, 0xff, 0x7d]), limits)).toEqual({ _tag: 'Refused', refusal: { _tag: 'NotText' } });
  });

  it('answers a broken request with its id, and what cannot be a request with a null id', () => {
    expect(replyTo('{"id":4,"method":7}')).toMatchObject({ id: 4, error: { code: -32600 } });
    expect(replyTo('{"id":null,"method":"x"}')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(replyTo('{"id":1e400,"method":"x"}')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(replyTo('[1,2]')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(replyTo('{"id":3')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(decodeInboundText('{"id":null,"result":{}}', limits)).toEqual({ _tag: 'Refused', refusal: { _tag: 'UncorrelatedResponse' } });
  });
});

describe('exceedsNestingDepth', () => {
  it('agrees with the depth of the parsed value, brackets inside strings ignored', () => {
    const bracketty = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', 'x'),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('[', '{"', 'a', '\\'), tie('value'), { maxKeys: 2 }),
      ),
    })).value;
    fc.assert(
      fc.property(bracketty, fc.integer({ min: 0, max: 8 }), (value, max) => {
        expect(exceedsNestingDepth(JSON.stringify(value), max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 1000 },
    );
  });
});
