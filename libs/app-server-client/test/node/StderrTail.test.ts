import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../src/node/index.js';

describe('StderrTail', () => {
  it('keeps exactly the last limit bytes of whatever was pushed', () => {
    // Without ESC bytes, so colour stripping does not apply.
    const chunkArb = fc.uint8Array({ maxLength: 50 }).map((bytes) => bytes.filter((byte) => byte !== 0x1b));
    fc.assert(
      fc.property(fc.array(chunkArb, { maxLength: 20 }), fc.integer({ min: 1, max: 120 }), (chunks, limit) => {
        const tail = new StderrTail(limit);
        for (const chunk of chunks) tail.push(Buffer.from(chunk));
        const all = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
        const expected = all.subarray(Math.max(0, all.length - limit));
        expect(tail.byteLength).toBe(expected.length);
        expect(tail.byteLength).toBeLessThanOrEqual(limit);
        expect(tail.text()).toBe(expected.toString('utf8'));
      }),
    );
  });

  it('returns text without colour escapes', () => {
    const tail = new StderrTail(1024);
    tail.push('\u001b[2m2026-01-01T00:00:00Z\u001b[0m \u001b[31mERROR\u001b[0m codex_app_server: boom\n');
    expect(tail.text()).toBe('2026-01-01T00:00:00Z ERROR codex_app_server: boom\n');
  });

  it('keeps the end of a single oversized chunk', () => {
    const tail = new StderrTail(4);
    tail.push('abcdefgh');
    expect(tail.text()).toBe('efgh');
  });
});
