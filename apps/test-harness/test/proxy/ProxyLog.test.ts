import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { classifyMessage, decodeProxyLog, formatLogEntry, logEntry, type ProxyLogEntry } from '../../src/proxy/index.js';

const at = '2026-01-01T00:00:00.000Z';

describe('proxy log', () => {
  it('logs JSON lines as messages and other lines raw', () => {
    expect(logEntry(0, at, 'client-to-server', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).toEqual({
      seq: 0,
      at,
      direction: 'client-to-server',
      message: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const raw = logEntry(1, at, 'server-to-client', 'Content-Length: 12');
    expect(raw).toMatchObject({ seq: 1, raw: 'Content-Length: 12' });
    expect('error' in raw && raw.error.length > 0).toBe(true);
    const [decoded] = E.getOrElseW(() => [])(decodeProxyLog(formatLogEntry(raw)));
    expect(decoded).toStrictEqual(raw);
    expect(decoded !== undefined && 'message' in decoded).toBe(false);
  });

  it('round trips: decode(format(entries)) = entries', () => {
    const entry: fc.Arbitrary<ProxyLogEntry> = fc
      .record({ seq: fc.nat(), direction: fc.constantFrom('client-to-server' as const, 'server-to-client' as const), line: fc.oneof(fc.json(), fc.string()) })
      .map(({ seq, direction, line }) => logEntry(seq, at, direction, line));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 10 }), (entries) => {
        expect(decodeProxyLog(entries.map(formatLogEntry).join(''))).toStrictEqual(E.right(JSON.parse(JSON.stringify(entries))));
      }),
    );
  });

  it('reports the first bad line and never throws on arbitrary text', () => {
    expect(decodeProxyLog(`${formatLogEntry(logEntry(0, at, 'client-to-server', '{}'))}\n{"seq":1}\n`)).toEqual(
      E.left({ _tag: 'ProxyLogDecodeError', line: 3, message: 'not a proxy log entry (needs seq, at, direction and message or raw+error)' }),
    );
    expect(E.isLeft(decodeProxyLog('{'))).toBe(true);
    fc.assert(fc.property(fc.string(), (text) => void decodeProxyLog(text)));
  });

  it('classifies JSON-RPC messages', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} })).toEqual({ kind: 'request', id: 0, method: 'initialize' });
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ kind: 'notification', method: 'notifications/initialized' });
    expect(classifyMessage({ jsonrpc: '2.0', id: 'a', result: {} })).toEqual({ kind: 'response', id: 'a', ok: true });
    expect(classifyMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } })).toEqual({ kind: 'response', id: null, ok: false });
    expect(classifyMessage({ id: 1 })).toEqual({ kind: 'other' });
    expect(classifyMessage([1])).toEqual({ kind: 'other' });
    fc.assert(fc.property(fc.jsonValue(), (value) => void classifyMessage(value)));
  });
});
