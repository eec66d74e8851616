/**
 * The examples of README.md, run as written (the blocks between the markers are the README's, line for
 * line); what each commented expression gives is recorded and checked below them.
 */
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
import * as decodeIssues from '../src/index.js';

/** `fn`, with every answer it gives kept in `results`. */
const recording =
  <A extends unknown[], R>(results: unknown[], fn: (...args: A) => R) =>
  (...args: A): R => {
    const result = fn(...args);
    results.push(result);
    return result;
  };

test('README example', () => {
  const results: unknown[] = [];
  const { describeErrors } = decodeIssues;
  const formatDecodeIssues = recording(results, decodeIssues.formatDecodeIssues);
  const issuePath = recording(results, decodeIssues.issuePath);

  // --- README example begins ---
  const result = t.type({ taskId: t.string, steps: t.array(t.number) }).decode({ taskId: 7, steps: ['x'] });
  if (isLeft(result)) {
    formatDecodeIssues(describeErrors(result.left, 'params'));
    // 'params.taskId: expected string, got a number; params.steps[0]: expected number, got a string (1 characters)'
    issuePath(result.left[1]!.context, { root: 'params', indices: 'brackets' }); // 'params.steps[0]'
  }
  // --- README example ends ---

  expect(results).toEqual(['params.taskId: expected string, got a number; params.steps[0]: expected number, got a string (1 characters)', 'params.steps[0]']);
});

test('README example: JSON text', () => {
  const results: unknown[] = [];
  const { parseJsonText } = decodeIssues;
  const formatJsonSyntaxError = recording(results, decodeIssues.formatJsonSyntaxError);

  // --- README example begins ---
  const parsed = parseJsonText('{\n  "a": 1\n  "b": 2\n}');
  if (parsed._tag === 'Left') formatJsonSyntaxError(parsed.left); // "line 3, column 3: expected ',' or '}'"
  // --- README example ends ---

  expect(results).toEqual(["line 3, column 3: expected ',' or '}'"]);
});
