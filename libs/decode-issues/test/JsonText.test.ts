import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJsonSyntaxError, lineAndColumn, locateJsonSyntaxError, parseJsonText } from '../src/JsonText.js';

const accepts = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** JSON-ish text: fragments of JSON's grammar glued at random, so most are almost JSON. */
const nearJson = fc
  .array(
    fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '"a"',
      '\\',
      '\\u00e9',
      '\\x',
      '1',
      '-',
      '0',
      '.5',
      'e',
      '+',
      'true',
      'nul',
      'null',
      ' ',
      '\n',
      '\r\n',
      '\t',
      '\u0001',
      'é',
      '\u2028'
    ),
    { maxLength: 24 }
  )
  .map((parts) => parts.join(''));

describe('locateJsonSyntaxError', () => {
  it('agrees with JSON.parse on which texts are JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          nearJson,
          fc.string(),
          fc.json().map((text) => text)
        ),
        (text) => {
          expect(locateJsonSyntaxError(text) === null).toBe(accepts(text));
        }
      ),
      { numRuns: 5_000 }
    );
  });

  it('accepts every value JSON.stringify writes, pretty or not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        expect(locateJsonSyntaxError(JSON.stringify(value, null, indent))).toBeNull();
      })
    );
  });

  it('places the problem where a person looks for it', () => {
    expect(locateJsonSyntaxError('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      _tag: 'JsonSyntaxError',
      line: 3,
      column: 3,
      expected: "',' or '}'",
    });
    expect(locateJsonSyntaxError('[1, 2,]')).toMatchObject({
      line: 1,
      column: 7,
    });
    expect(locateJsonSyntaxError('{"a": 1}}')).toEqual({
      _tag: 'JsonSyntaxError',
      line: 1,
      column: 9,
      expected: 'the end of the text after the value',
    });
    expect(locateJsonSyntaxError('{"a": "b')).toMatchObject({
      line: 1,
      column: 9,
      expected: 'the closing quote of the string',
    });
    expect(locateJsonSyntaxError('{"a": "\\q"}')).toMatchObject({
      line: 1,
      column: 9,
    });
    expect(locateJsonSyntaxError('{\r\n"a": tru}')).toMatchObject({
      line: 2,
      column: 6,
    });
    expect(locateJsonSyntaxError('')).toMatchObject({
      line: 1,
      column: 1,
      expected: 'a value (the text ended)',
    });
  });

  it('scans deep nesting without growing the call stack', () => {
    expect(locateJsonSyntaxError('['.repeat(200_000) + ']'.repeat(200_000))).toBeNull();
    expect(locateJsonSyntaxError('['.repeat(200_000))).toMatchObject({
      line: 1,
      column: 200_001,
    });
  });

  it('never quotes the text', () => {
    const secret = 'sk-live-SECRET';
    const error = locateJsonSyntaxError(`{"token": ${secret}}`);
    expect(error).not.toBeNull();
    expect(JSON.stringify(error) + formatJsonSyntaxError(error!)).not.toContain('SECRET');
  });
});

describe('parseJsonText', () => {
  it('parses JSON and locates what is not', () => {
    expect(parseJsonText('{"a":[1]}')).toEqual({
      _tag: 'Right',
      right: { a: [1] },
    });
    expect(parseJsonText('{\n "a": [1,]\n}')).toEqual({
      _tag: 'Left',
      left: {
        _tag: 'JsonSyntaxError',
        line: 2,
        column: 10,
        expected: 'a value: an object, array, string, number, true, false or null',
      },
    });
  });

  it('formats one line', () => {
    expect(
      formatJsonSyntaxError({
        _tag: 'JsonSyntaxError',
        line: 3,
        column: 3,
        expected: "',' or '}'",
      })
    ).toBe("line 3, column 3: expected ',' or '}'");
  });
});

describe('lineAndColumn', () => {
  it('counts \\n, \\r\\n and \\r as one line end each', () => {
    expect(lineAndColumn('a\nb\r\nc\rd', 7)).toEqual({ line: 4, column: 1 });
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ' ') })), (lines) => {
        const text = lines.join('\n');
        const last = lines.length === 0 ? '' : lines[lines.length - 1]!;
        expect(lineAndColumn(text, text.length)).toEqual({
          line: Math.max(1, lines.length),
          column: last.length + 1,
        });
      })
    );
  });
});
