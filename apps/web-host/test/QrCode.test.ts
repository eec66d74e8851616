/**
 * The QR code component's encoder: a payload becomes a square grid of a real QR version (side
 * 17 + 4·version plus the quiet zone) with the three finder patterns in their corners, the same
 * payload always gives the same code, different payloads different codes, and the SVG path has one
 * square per dark module and nothing in the quiet zone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_QR_PAYLOAD, QR_BORDER, qrModules } from '../src/QrCode.js';

/** Whether the 7×7 finder pattern sits with its top-left corner at (x, y): a dark ring, a light ring, a dark 3×3 centre. */
function finderAt(dark: ReadonlyArray<ReadonlyArray<boolean>>, x: number, y: number): boolean {
  for (let dy = 0; dy < 7; dy++)
    for (let dx = 0; dx < 7; dx++) {
      const ring = Math.max(Math.abs(dx - 3), Math.abs(dy - 3));
      if ((dark[y + dy]?.[x + dx] ?? false) !== (ring !== 2)) return false;
    }
  return true;
}

describe('qrModules', () => {
  it('draws any payload as a real QR code with its finder patterns, quiet zone and one square per dark module', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300 }), (payload) => {
        const code = qrModules(payload);
        expect(code).not.toBeNull();
        if (code === null) return;
        const inner = code.size - 2 * QR_BORDER;
        expect((inner - 17) % 4).toBe(0);
        expect(inner).toBeGreaterThanOrEqual(21);
        expect(code.dark.length).toBe(code.size);
        expect(code.dark.every((row) => row.length === code.size)).toBe(true);
        const b = QR_BORDER;
        expect(finderAt(code.dark, b, b)).toBe(true);
        expect(finderAt(code.dark, b + inner - 7, b)).toBe(true);
        expect(finderAt(code.dark, b, b + inner - 7)).toBe(true);
        // The fourth corner has no finder pattern (that is how a scanner knows the orientation).
        expect(finderAt(code.dark, b + inner - 7, b + inner - 7)).toBe(false);
        // The quiet zone is light.
        code.dark.forEach((row, y) => row.forEach((on, x) => {
          if (x < b || y < b || x >= b + inner || y >= b + inner) expect(on).toBe(false);
        }));
        const darkCount = code.dark.flat().filter(Boolean).length;
        expect(code.path.match(/M/g)?.length ?? 0).toBe(darkCount);
        expect(qrModules(payload)).toEqual(code);
      }),
      { numRuns: 60 },
    );
  });

  it('gives different payloads different codes', () => {
    expect(qrModules('https://example.com/device?code=ABCD-1234')?.path).not.toBe(qrModules('https://example.com/device?code=ABCD-1235')?.path);
  });

  it('refuses an empty or too long payload (the component then shows the text only)', () => {
    expect(qrModules('')).toBeNull();
    expect(qrModules('x'.repeat(MAX_QR_PAYLOAD + 1))).toBeNull();
    expect(qrModules('x'.repeat(MAX_QR_PAYLOAD))).not.toBeNull();
  });
});
