/**
 * JSON text read from a file or a person: parsed with `JSON.parse`, and when it is not JSON, the
 * place of the first problem as a line and a column and what was expected there — never the text
 * itself (V8's own messages quote the input, which may carry a secret).
 *
 * Every function here is pure: text in, a value or a located error out.
 */
import * as E from 'fp-ts/lib/Either.js';

/** Where and why a text is not JSON. */
export interface JsonSyntaxError {
  readonly _tag: 'JsonSyntaxError';
  /** 1-based line of the first problem. */
  readonly line: number;
  /** 1-based column (in UTF-16 code units) of the first problem. */
  readonly column: number;
  /** What was expected there, e.g. `',' or '}'`; it never quotes the text. */
  readonly expected: string;
}

/** The first problem found by {@link locateJsonSyntaxError}: an offset and what was expected there. */
interface Problem {
  readonly offset: number;
  readonly expected: string;
}

const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isHex = (char: string): boolean => /^[0-9a-fA-F]$/.test(char);

/**
 * A scan of JSON's grammar (RFC 8259, as `JSON.parse` reads it) that stops at the first problem.
 * Iterative — an explicit stack of open containers — so deep nesting cannot overflow the call stack.
 */
function firstProblem(text: string): Problem | null {
  let at = 0;
  const stack: Array<'object' | 'array'> = [];
  const skip = (): void => {
    while (at < text.length && isWhitespace(text.charCodeAt(at))) at += 1;
  };
  const fail = (expected: string): Problem => ({ offset: at, expected });

  const string = (): Problem | null => {
    at += 1; // the opening quote
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (code === 0x22) {
        at += 1;
        return null;
      }
      if (code < 0x20) return fail('no control character inside a string');
      if (code === 0x5c) {
        const escape = text[at + 1];
        if (escape === 'u') {
          for (let i = 2; i < 6; i += 1) {
            if (!isHex(text[at + i] ?? ''))
              return {
                offset: at + i,
                expected: 'four hexadecimal digits after \\u',
              };
          }
          at += 6;
        } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) at += 2;
        else
          return {
            offset: at + 1,
            expected: 'an escape: one of " \\ / b f n r t u',
          };
      } else at += 1;
    }
    return fail('the closing quote of the string');
  };

  const number = (): Problem | null => {
    if (text[at] === '-') at += 1;
    if (text[at] === '0') at += 1;
    else if (isDigit(text.charCodeAt(at))) while (isDigit(text.charCodeAt(at))) at += 1;
    else return fail('a digit');
    if (text[at] === '.') {
      at += 1;
      if (!isDigit(text.charCodeAt(at))) return fail('a digit after the decimal point');
      while (isDigit(text.charCodeAt(at))) at += 1;
    }
    if (text[at] === 'e' || text[at] === 'E') {
      at += 1;
      if (text[at] === '+' || text[at] === '-') at += 1;
      if (!isDigit(text.charCodeAt(at))) return fail('a digit in the exponent');
      while (isDigit(text.charCodeAt(at))) at += 1;
    }
    return null;
  };

  /** A value that is not a container (containers are opened by the loop). */
  const scalar = (): Problem | null => {
    const char = text[at];
    if (char === '"') return string();
    if (char === '-' || isDigit(text.charCodeAt(at))) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return null;
      }
    }
    return fail(at >= text.length ? 'a value (the text ended)' : 'a value: an object, array, string, number, true, false or null');
  };

  /** A property name and its `:` (`expected`: what a missing name is reported as). */
  const propertyName = (expected: string): Problem | null => {
    if (text[at] !== '"') return fail(expected);
    const key = string();
    if (key !== null) return key;
    skip();
    if (text[at] !== ':') return fail("':' after the property name");
    at += 1;
    return null;
  };

  /** Whether a value comes next (else: what closes or continues the innermost container). */
  let expectValue = true;
  for (;;) {
    skip();
    if (expectValue) {
      const char = text[at];
      if (char === '{' || char === '[') {
        stack.push(char === '{' ? 'object' : 'array');
        at += 1;
        skip();
        if (text[at] === (char === '{' ? '}' : ']')) {
          stack.pop();
          at += 1;
          expectValue = false;
          continue;
        }
        if (char === '{') {
          const problem = propertyName("a property name in double quotes or '}'");
          if (problem !== null) return problem;
        }
        continue;
      }
      const problem = scalar();
      if (problem !== null) return problem;
      expectValue = false;
      continue;
    }
    const open = stack[stack.length - 1];
    if (open === undefined) return at < text.length ? fail('the end of the text after the value') : null;
    const close = open === 'object' ? '}' : ']';
    if (text[at] === close) {
      stack.pop();
      at += 1;
      continue;
    }
    if (text[at] !== ',') return fail(`',' or '${close}'`);
    at += 1;
    skip();
    if (open === 'object') {
      const problem = propertyName('a property name in double quotes');
      if (problem !== null) return problem;
    }
    expectValue = true;
  }
}

/** The 1-based line and column of `offset` in `text` (lines end at `\n`, `\r\n` or `\r`). */
export function lineAndColumn(text: string, offset: number): { readonly line: number; readonly column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line += 1;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * Where the first problem of a text that is not JSON is, or `null` when it is JSON.
 *
 * @example
 * ```ts
 * locateJsonSyntaxError('{\n  "a": 1\n  "b": 2\n}');
 * // { _tag: 'JsonSyntaxError', line: 3, column: 3, expected: "',' or '}'" }
 * ```
 */
export function locateJsonSyntaxError(text: string): JsonSyntaxError | null {
  const problem = firstProblem(text);
  return problem === null
    ? null
    : {
        _tag: 'JsonSyntaxError',
        ...lineAndColumn(text, problem.offset),
        expected: problem.expected,
      };
}

/**
 * Parses JSON text; text that is not JSON is a {@link JsonSyntaxError} with its line and column.
 *
 * @example
 * ```ts
 * parseJsonText('[1, 2,]'); // Left({ _tag: 'JsonSyntaxError', line: 1, column: 7, expected: 'a value: …' })
 * ```
 */
export function parseJsonText(text: string): E.Either<JsonSyntaxError, unknown> {
  try {
    return E.right(JSON.parse(text) as unknown);
  } catch {
    return E.left(
      locateJsonSyntaxError(text) ?? {
        _tag: 'JsonSyntaxError',
        line: 1,
        column: 1,
        expected: 'JSON text',
      }
    );
  }
}

/** One line for a person: `line 3, column 3: expected ',' or '}'`. */
export const formatJsonSyntaxError = (error: JsonSyntaxError): string => `line ${error.line}, column ${error.column}: expected ${error.expected}`;
