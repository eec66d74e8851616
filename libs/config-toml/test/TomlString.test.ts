import fc from 'fast-check';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { basicString, tomlString } from '../src/internal/TomlString.js';

const readBack = (literal: string): unknown => parse(`v = ${literal}`)['v'];

describe('tomlString', () => {
  it('reads back as exactly the same string, in LF and CRLF documents', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('a', '\n', '\r', '\r\n', '"', '"""', '\\', '\t', '\u0000', '\u007f', "'''", ' ') }),
    );
    fc.assert(
      fc.property(text, fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), (value, eol) => {
        const literal = tomlString(value, eol);
        expect(readBack(literal)).toBe(value);
        const lone = eol === '\n' ? literal.includes('\r') : literal.replace(/\r\n/g, '').includes('\n');
        expect(lone).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('is a multi-line string when the text has the document line breaks, a single-line one otherwise', () => {
    expect(tomlString('a\nb "c"', '\n')).toBe('"""\na\nb \\"c\\""""');
    expect(tomlString('a\nb', '\r\n')).toBe('"a\\nb"');
    expect(tomlString('a\r\nb', '\r\n')).toBe('"""\r\na\r\nb"""');
    expect(basicString('tab\there \u0001')).toBe('"tab\\there \\u0001"');
  });
});
