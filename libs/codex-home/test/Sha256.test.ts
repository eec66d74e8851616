import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@wework/ports/testing';
import { decodeBase64Url, encodeBase64Url } from '../src/internal/Bytes.js';

describe('the pure SHA-256 of the in-memory file system', () => {
  it('matches node:crypto', () => {
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => sha256Hex(bytes) === createHash('sha256').update(bytes).digest('hex')));
  });
});

describe('base64url', () => {
  it('decodes what it encodes, as Node does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = encodeBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect(decodeBase64Url(text)).toEqual(bytes);
      }),
    );
  });
});
