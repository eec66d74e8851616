import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { parse, type TomlValue } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { findStatement, readDocument, removeKey, removeTable, setKey } from '../src/index.js';
import { tomlValuesEqual, withValueAt } from '../src/internal/TomlValues.js';
import { configDocumentArbitrary } from '../src/testing.js';

const bodyOf = (text: string): string => text.replace(/^\uFEFF/, '');
const linesOf = (text: string): string[] => bodyOf(text).split(/\r?\n/);
const isSubsequence = (small: ReadonlyArray<string>, big: ReadonlyArray<string>): boolean => {
  let j = 0;
  for (const line of big) if (line === small[j]) j += 1;
  return j === small.length;
};

/** Key paths worth editing in the generated documents: existing and new, top-level, in tables, dotted and quoted. */
const pathArbitrary = fc.constantFrom<ReadonlyArray<string>>(
  ['personality'],
  ['model'],
  ['instructions'],
  ['dotted', 'quoted key'],
  ['plugins', 'p@m', 'enabled'],
  ['features', 'apps'],
  ['mcp_servers', 'forms', 'command'],
  ['mcp_servers', 'forms', 'env', 'TOKEN'],
  ['quoted table', 'new key'],
);
const valueArbitrary: fc.Arbitrary<TomlValue> = fc.oneof(fc.boolean(), fc.integer(), fc.string({ maxLength: 12 }), fc.array(fc.integer(), { maxLength: 3 }));

describe('editor laws', () => {
  it('edit then parse = parse then apply; the lines of other keys and every comment stay byte for byte', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, pathArbitrary, fc.option(valueArbitrary, { nil: undefined }), ({ text, commentLines }, path, value) => {
        const result = value === undefined ? removeKey(text, path) : setKey(text, path, value);
        if (E.isLeft(result)) {
          // Only layouts the editor does not rewrite are refused: never a key it could edit.
          expect(result.left._tag).toBe('UnsupportedLayout');
          return;
        }
        const before = parse(bodyOf(text));
        // A removal may leave an implicit table empty, which TOML cannot tell from none.
        const after = parse(bodyOf(result.right));
        expect(tomlValuesEqual(after, withValueAt(before, path, value)) || tomlValuesEqual(after, withValueAt(before, path, value, true))).toBe(true);
        const read = readDocument(text);
        if (E.isLeft(read)) throw new Error(read.left._tag);
        const statement = findStatement(read.right, path);
        const untouched = statement === undefined ? read.right.body : read.right.body.slice(0, statement.lineStart) + read.right.body.slice(statement.lineEnd);
        expect(isSubsequence(linesOf(untouched).filter((line) => line.trim() !== ''), linesOf(result.right))).toBe(true);
        expect(isSubsequence(commentLines, linesOf(result.right))).toBe(true);
        expect(result.right.startsWith('\uFEFF')).toBe(text.startsWith('\uFEFF'));
      }),
      { numRuns: 400 },
    );
  });

  it('is idempotent, and a new table added then removed gives the text back', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, valueArbitrary, ({ text }, value) => {
        const path = ['plugins', 'p@m', 'enabled'];
        const once = setKey(text, path, value);
        if (E.isLeft(once)) throw new Error(once.left._tag);
        expect(setKey(once.right, path, value)).toEqual(once);
        const withFinalBreak = text === '' || text.endsWith('\n') ? text : undefined;
        if (withFinalBreak !== undefined && !/(^|\n)\s*\r?\n$/.test(bodyOf(text))) expect(removeTable(once.right, ['plugins', 'p@m'])).toEqual(E.right(text));
      }),
      { numRuns: 300 },
    );
  });
});
