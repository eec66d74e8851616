/**
 * The example at the top of README.md, kept compiling and passing.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { expect, test } from 'vitest';
import { describeErrors, formatDecodeIssues, formatJsonSyntaxError, issuePath, parseJsonText } from '../src/index.js';

test('README example', () => {
  const result = t.type({ taskId: t.string, steps: t.array(t.number) }).decode({ taskId: 7, steps: ['x'] });
  if (E.isRight(result)) throw new Error('expected a decode failure');
  expect(formatDecodeIssues(describeErrors(result.left, 'params'))).toBe(
    'params.taskId: expected string, got a number; params.steps[0]: expected number, got a string (1 characters)',
  );
  expect(issuePath(result.left[1]!.context, { root: 'params', indices: 'brackets' })).toBe('params.steps[0]');
});

test('README example: JSON text', () => {
  const parsed = parseJsonText('{\n  "a": 1\n  "b": 2\n}');
  if (E.isRight(parsed)) throw new Error('expected a syntax error');
  expect(formatJsonSyntaxError(parsed.left)).toBe("line 3, column 3: expected ',' or '}'");
});
