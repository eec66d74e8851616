import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { createLineDecoder, createLineSplitter, encodeMessageLine } from '../src/index.js';
import { parseMessageLine, DIAGNOSTIC_PREFIX_CHARS } from '../src/LineFraming.js';
import type { Frame } from '../src/LineFraming.js';
import { chunked, cuts, garbageLine, jsonRpcMessage } from './arbitraries.js';

const utf8 = new TextEncoder();

const decodeAll = (chunks: readonly Uint8Array[], maxLineBytes?: number): Frame[] => {
  const decoder = createLineDecoder(maxLineBytes === undefined ? {} : { maxLineBytes });
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
};

describe('createLineDecoder', () => {
  it('round-trips any message sequence cut at any byte boundaries, in order', () => {
    fc.assert(
      fc.property(fc.array(jsonRpcMessage, { maxLength: 8 }), cuts, (messages, at) => {
        const bytes = utf8.encode(messages.map(encodeMessageLine).join(''));
        const frames = decodeAll(chunked(bytes, at));
        expect(frames).toEqual(messages.map((message) => ({ _tag: 'Message', message })));
      }),
    );
  });

  it('reports each garbage line as MalformedMessage and still delivers the messages around it, in order', () => {
    const item = fc.oneof(
      jsonRpcMessage.map((message) => ({ kind: 'message' as const, message })),
      garbageLine.map((line) => ({ kind: 'garbage' as const, line })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 10 }), cuts, (items, at) => {
        const text = items.map((entry) => (entry.kind === 'message' ? encodeMessageLine(entry.message) : `${entry.line}\n`)).join('');
        const frames = decodeAll(chunked(utf8.encode(text), at));
        expect(frames.map((frame) => frame._tag)).toEqual(items.map((entry) => (entry.kind === 'message' ? 'Message' : 'MalformedMessage')));
        const delivered = frames.flatMap((frame) => (frame._tag === 'Message' ? [frame.message] : []));
        expect(delivered).toEqual(items.flatMap((entry) => (entry.kind === 'message' ? [entry.message] : [])));
      }),
    );
  });

  it('never throws on arbitrary bytes and only yields known frames', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 10 }), fc.integer({ min: 1, max: 80 }), (chunks, limit) => {
        const frames = decodeAll(chunks, limit);
        for (const frame of frames) expect(['Message', 'MalformedMessage', 'LineTooLong']).toContain(frame._tag);
      }),
    );
  });

  it('reassembles a multi-byte UTF-8 character split at every byte offset', () => {
    const message = { method: 'item/agentMessage/delta', params: { delta: 'prix: 12 € — 😀 ok, 日本語' } };
    const bytes = utf8.encode(encodeMessageLine(message));
    for (let offset = 0; offset <= bytes.length; offset++) {
      expect(decodeAll([bytes.subarray(0, offset), bytes.subarray(offset)])).toEqual([{ _tag: 'Message', message }]);
    }
  });

  it('accepts CRLF line ends, skips blank lines and decodes an unterminated last line at the end', () => {
    const frames = decodeAll([utf8.encode('\n\r\n{"id":1,"result":null}\r\n   \n{"method":"a"}')]);
    expect(frames).toEqual([
      { _tag: 'Message', message: { id: 1, result: null } },
      { _tag: 'Message', message: { method: 'a' } },
    ]);
  });

  it('skips an over-long line with one LineTooLong, keeps its prefix short, and carries on', () => {
    fc.assert(
      fc.property(fc.integer({ min: 32, max: 200 }), fc.integer({ min: 1, max: 400 }), cuts, (limit, excess, at) => {
        const long = `{"method":"x","params":"${'a'.repeat(limit + excess)}"}`;
        const text = `${long}\n{"method":"after"}\n`;
        const frames = decodeAll(chunked(utf8.encode(text), at), limit);
        expect(frames).toHaveLength(2);
        const [first, second] = frames;
        expect(first).toMatchObject({ _tag: 'LineTooLong', limitBytes: limit });
        if (first?._tag === 'LineTooLong') expect(first.prefix.length).toBeLessThanOrEqual(DIAGNOSTIC_PREFIX_CHARS + 1);
        expect(second).toEqual({ _tag: 'Message', message: { method: 'after' } });
      }),
    );
  });

  it('under any bound and any chunking, each message line over the bound becomes one LineTooLong in its place and every other message arrives as sent', () => {
    fc.assert(
      fc.property(fc.array(jsonRpcMessage, { maxLength: 8 }), cuts, fc.integer({ min: 2, max: 120 }), (messages, at, maxLineBytes) => {
        const lines = messages.map(encodeMessageLine);
        const frames = decodeAll(chunked(utf8.encode(lines.join('')), at), maxLineBytes);
        const expected = messages.map((message, i) =>
          utf8.encode(lines[i] ?? '').length - 1 > maxLineBytes ? { _tag: 'LineTooLong', limitBytes: maxLineBytes } : { _tag: 'Message', message },
        );
        expect(frames).toMatchObject(expected);
        expect(frames).toHaveLength(expected.length);
      }),
    );
  });

  it('accepts a line of exactly the limit, with or without a carriage return', () => {
    const line = '{"method":"exact"}';
    const limit = utf8.encode(line).length;
    expect(decodeAll([utf8.encode(`${line}\n`)], limit)).toEqual([{ _tag: 'Message', message: { method: 'exact' } }]);
    expect(decodeAll([utf8.encode(`${line}\r\n`)], limit)).toEqual([{ _tag: 'Message', message: { method: 'exact' } }]);
    expect(decodeAll([utf8.encode(`${line} \n`)], limit)[0]?._tag).toBe('LineTooLong');
  });

  it('holds at most one line bound of an unterminated over-long line', () => {
    const decoder = createLineDecoder({ maxLineBytes: 20 });
    const frames = [...decoder.push(utf8.encode('x'.repeat(12))), ...decoder.push(utf8.encode('x'.repeat(12)))];
    expect(frames.map((frame) => frame._tag)).toEqual(['LineTooLong']);
    // Everything up to the next newline is dropped without another report.
    expect(decoder.push(utf8.encode('y'.repeat(1000)))).toEqual([]);
    expect(decoder.push(utf8.encode('\n{"method":"next"}\n'))).toEqual([{ _tag: 'Message', message: { method: 'next' } }]);
  });

  it('rejects invalid UTF-8 as a malformed message', () => {
    const frames = decodeAll([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]);
    expect(frames).toEqual([{ _tag: 'MalformedMessage', line: expect.any(String), reason: 'invalid UTF-8' }]);
  });
});

describe('parseMessageLine', () => {
  it('truncates the offending line in the error', () => {
    const result = parseMessageLine(`not json ${'z'.repeat(1000)}`);
    expect(E.isLeft(result) && result.left.line.length).toBe(DIAGNOSTIC_PREFIX_CHARS + 1);
  });

  it('rejects JSON that is not a JSON-RPC message, with a reason', () => {
    for (const line of ['42', '[]', 'null', '{}', '{"id":{}}', '{"method":1}', '{"id":1}', '{"jsonrpc":"1.0","method":"a"}', '{"id":1,"error":{"code":"x"}}']) {
      const result = parseMessageLine(line);
      expect(E.isLeft(result), line).toBe(true);
      if (E.isLeft(result)) expect(result.left.reason).not.toBe('');
    }
  });
});

describe('encodeMessageLine', () => {
  it('always yields exactly one line', () => {
    fc.assert(
      fc.property(jsonRpcMessage, (message) => {
        const line = encodeMessageLine(message);
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toContain('\n');
      }),
    );
  });

  it('throws on values that have no JSON form', () => {
    expect(() => encodeMessageLine(undefined)).toThrow(TypeError);
  });
});

describe('createLineSplitter', () => {
  it('gives the same non-blank lines, in order, however the stream is chunked (multi-byte text included), the unterminated last one at the end', () => {
    const decoder = new TextDecoder();
    const line = fc.string({ unit: 'grapheme' }).map((text) => text.replace(/[\r\n]/g, ''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), line, fc.boolean(), cuts, (lines, tail, crlf, at) => {
        const bytes = utf8.encode(lines.map((text) => `${text}${crlf ? '\r\n' : '\n'}`).join('') + tail);
        const splitter = createLineSplitter();
        const frames = [...chunked(bytes, at).flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
        const isBlank = (text: string): boolean => /^[ \t]*$/.test(text);
        expect(frames.map((frame) => (frame._tag === 'Line' ? decoder.decode(frame.bytes) : frame._tag))).toEqual([...lines, tail].filter((text) => !isBlank(text)));
      }),
    );
  });

  it('cuts the same lines as the decoder, whatever the chunking, and reports an over-long line once', () => {
    const item = fc.oneof(jsonRpcMessage.map((message) => encodeMessageLine(message)), garbageLine.map((line) => `${line}\r\n`), fc.constant('\n'));
    fc.assert(
      fc.property(fc.array(item, { maxLength: 10 }), cuts, fc.integer({ min: 8, max: 200 }), (items, at, maxLineBytes) => {
        const bytes = utf8.encode(items.join(''));
        const splitter = createLineSplitter({ maxLineBytes });
        const lines = [...chunked(bytes, at).flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
        const frames = decodeAll(chunked(bytes, at), maxLineBytes);
        expect(lines.map((line) => line._tag)).toEqual(frames.map((frame) => (frame._tag === 'LineTooLong' ? 'LineTooLong' : 'Line')));
        for (const line of lines) if (line._tag === 'Line') expect(line.bytes.length).toBeLessThanOrEqual(maxLineBytes);
      }),
    );
  });
});
