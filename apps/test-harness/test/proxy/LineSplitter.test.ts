import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitLines } from '../../src/proxy/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `bytes` in the given chunk sizes and returns the decoded lines and the final pending text. */
function feed(bytes: Uint8Array, cuts: ReadonlyArray<number>): { lines: string[]; pending: string } {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let pending: Uint8Array = new Uint8Array();
  const lines: string[] = [];
  let start = 0;
  for (const end of [...points, bytes.length]) {
    const split = splitLines(pending, bytes.subarray(start, end));
    lines.push(...split.lines.map((line) => decoder.decode(line)));
    pending = split.pending;
    start = end;
  }
  return { lines, pending: decoder.decode(pending) };
}

describe('splitLines', () => {
  it('cuts at newlines and keeps the unfinished tail', () => {
    const first = splitLines(new Uint8Array(), encoder.encode('{"a":1}\r\n{"b"'));
    expect(first.lines.map((l) => decoder.decode(l))).toEqual(['{"a":1}']);
    expect(decoder.decode(first.pending)).toBe('{"b"');
    const second = splitLines(first.pending, encoder.encode(':2}\n\n'));
    expect(second.lines.map((l) => decoder.decode(l))).toEqual(['{"b":2}', '']);
    expect(second.pending.length).toBe(0);
  });

  it('gives the same lines, in order, however the stream is chunked (multi-byte text included)', () => {
    const line = fc.string({ unit: 'grapheme' }).map((s) => s.replace(/[\r\n]/g, ''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.string({ unit: 'grapheme' }).map((s) => s.replace(/\n/g, '')), fc.array(fc.nat(), { maxLength: 10 }), (lines, tail, cuts) => {
        const text = lines.map((l) => `${l}\n`).join('') + tail;
        const result = feed(encoder.encode(text), cuts);
        expect(result.lines).toEqual(lines);
        expect(result.pending).toBe(tail);
      }),
    );
  });
});
