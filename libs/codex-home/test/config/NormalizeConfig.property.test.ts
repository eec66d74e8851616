import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { parse, type TomlTable } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { importNativeConfig, normalizeConfig, type NormalizedConfig } from '../../src/config/index.js';
import { configDocumentArbitrary } from '@wework/config-toml/testing';

const OWNED = ['instructions', 'developer_instructions', 'personality'];

const withoutKeys = (table: TomlTable, keys: ReadonlyArray<string>): TomlTable =>
  Object.fromEntries(Object.entries(table).filter(([key]) => !keys.includes(key)));

const read = (text: string): TomlTable => parse(text.replace(/^\uFEFF/, ''));

const normalized = (text: string): NormalizedConfig => {
  const result = normalizeConfig(text);
  if (E.isLeft(result)) throw new Error(`expected Right, got ${JSON.stringify(result.left)}`);
  return result.right;
};

const linesOf = (text: string, eol: string): string[] => text.replace(/^\uFEFF/, '').split(eol);

describe('normalizeConfig on generated documents', () => {
  it('is idempotent: the second run returns the same text and no changes', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, ({ text }) => {
        const once = normalized(text);
        const twice = normalized(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.changes).toEqual([]);
        expect(once.changes.length === 0).toBe(once.text === text);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps every key it does not own, and every full-line comment', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, ({ text, commentLines, lineEnding }) => {
        const after = normalized(text).text;
        expect(withoutKeys(read(after), OWNED)).toEqual(withoutKeys(read(text), OWNED));
        const lines = linesOf(after, lineEnding);
        for (const comment of commentLines) expect(lines).toContain(comment);
        expect(lines.filter((line) => commentLines.includes(line)).length).toBeGreaterThanOrEqual(commentLines.length);
      }),
      { numRuns: 400 },
    );
  });

  it('moves a string `instructions` into `developer_instructions` and adds personality when absent', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, ({ text }) => {
        const before = read(text);
        const after = read(normalized(text).text);
        const legacy = before['instructions'];
        const developer = before['developer_instructions'];
        if (typeof legacy === 'string' && (developer === undefined || typeof developer === 'string')) {
          expect(after).not.toHaveProperty('instructions');
          // Generated developer_instructions have no routing block, so the merge is a plain append.
          const expected =
            legacy === ''
              ? developer
              : developer === undefined || developer === ''
                ? legacy
                : developer.includes(legacy)
                  ? developer
                  : `${developer}\n\n${legacy}`;
          expect(after['developer_instructions']).toEqual(expected);
        } else {
          expect(after['instructions']).toEqual(legacy);
          expect(after['developer_instructions']).toEqual(developer);
        }
        expect(after['personality']).toEqual(before['personality'] ?? 'pragmatic');
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the line ending style and the byte order mark', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, ({ text, lineEnding }) => {
        const after = normalized(text).text;
        expect(after.startsWith('\uFEFF')).toBe(text.startsWith('\uFEFF'));
        if (!text.includes('\n')) return; // no line break yet: a new line gets `\n`
        if (lineEnding === '\r\n') expect(after.replace(/\r\n/g, '')).not.toContain('\n');
        else expect(after).not.toContain('\r\n');
      }),
      { numRuns: 300 },
    );
  });

  it('import removes only the top-level model, then normalizes', () => {
    fc.assert(
      fc.property(configDocumentArbitrary, ({ text }) => {
        const result = importNativeConfig(text);
        if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
        const before = read(text);
        const after = read(result.right.text);
        expect(after).not.toHaveProperty('model');
        expect(withoutKeys(after, [...OWNED, 'model'])).toEqual(withoutKeys(before, [...OWNED, 'model']));
        expect(normalized(result.right.text).changes).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeConfig on arbitrary text', () => {
  const check = (text: string): void => {
    const result = normalizeConfig(text);
    if (E.isLeft(result)) {
      expect(result.left._tag).toBe('MalformedConfig');
      if (result.left._tag === 'MalformedConfig') {
        expect(result.left.line).toBeGreaterThanOrEqual(1);
        expect(result.left.column).toBeGreaterThanOrEqual(1);
        expect(result.left.message).not.toContain('\n');
      }
    } else {
      expect(normalized(result.right.text).text).toBe(result.right.text);
    }
  };

  it('never throws, and a Right is idempotent', () => {
    fc.assert(fc.property(fc.string(), check), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), check), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '=', '"', "'", '[', ']', '\n', '\r\n', '#', '.', '{', '}', '1', ',') }), check), {
      numRuns: 1000,
    });
  });

  it('reports a corrupted document as MalformedConfig with its position and no excerpt of the file', () => {
    const secret = 'sk-SECRET-0123456789';
    fc.assert(
      fc.property(configDocumentArbitrary, fc.nat(), fc.constantFrom('= = 1', 'key = "unterminated', '[table', 'a = 1 b = 2', 'x = [1,'), ({ text, lineEnding }, at, garbage) => {
        const lines = text.split(lineEnding);
        const index = at % (lines.length + 1);
        const corrupted = [...lines.slice(0, index), `TOKEN_${index} = "${secret}"`, garbage, ...lines.slice(index)].join(lineEnding);
        const result = normalizeConfig(corrupted);
        if (E.isRight(result)) return; // e.g. the garbage closed a string of the document: still valid TOML
        expect(result.left._tag).toBe('MalformedConfig');
        if (result.left._tag !== 'MalformedConfig') return;
        expect(result.left.line).toBeGreaterThanOrEqual(1);
        expect(result.left.column).toBeGreaterThanOrEqual(1);
        expect(result.left.message).not.toContain(secret);
        expect(result.left.message).not.toContain('TOKEN_');
        expect(result.left.message).not.toContain('\n');
      }),
      { numRuns: 300 },
    );
  });
});
