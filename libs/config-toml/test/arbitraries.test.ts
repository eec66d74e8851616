import fc from 'fast-check';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { configDocumentArbitrary, stringContentArbitrary, writeTomlString, type TomlStringStyle } from '../src/testing.js';

describe('config arbitraries', () => {
  it('generate documents smol-toml accepts', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, ({ text }) => {
        expect(() => parse(text)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it('write strings that read back as their content (line breaks as the document writes them)', () => {
    const styles: ReadonlyArray<TomlStringStyle> = ['basic', 'literal', 'multiLineBasic', 'multiLineLiteral'];
    fc.assert(
      fc.property(stringContentArbitrary, fc.constantFrom(...styles), fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), (content, style, eol) => {
        const read = parse(`v = ${writeTomlString(content, style, eol)}`)['v'];
        const multiLine = style === 'multiLineBasic' || style === 'multiLineLiteral';
        expect([content, multiLine ? content.split('\n').join(eol) : content]).toContain(read);
      }),
    );
  });
});
