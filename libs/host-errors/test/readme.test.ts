/**
 * The example of README.md, run as written (the block between the markers is the README's, line for
 * line); what each commented expression gives is recorded and checked below it.
 */
import { expect, test } from 'vitest';
import * as hostErrors from '../src/index.js';

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
  const hostFailure = recording(results, hostErrors.hostFailure);
  const runtimeFailure = recording(results, hostErrors.runtimeFailure);

  // --- README example begins ---
  runtimeFailure({ _tag: 'RequestFailed', method: 'config/read', reason: 'failed to load /home/ada/.codex/config.toml' });
  // { code: -32004, tag: 'RequestFailed', message: 'Codex could not complete config/read' }
  hostFailure({ area: 'marketplace', error: { _tag: 'PreferencesUnwritable', reason: 'ENOSPC' } });
  // { code: -32603, tag: 'PreferencesUnwritable', retryable: true, message: 'the marketplace order could not be saved (the disk is full); nothing was changed' }
  hostFailure({ area: 'task', error: { _tag: 'TaskNotFound', taskId: '../../etc/passwd' } });
  // { code: -32001, tag: 'TaskNotFound', message: 'no task with that taskId is open in the executor' }
  // --- README example ends ---

  expect(results).toEqual([
    { code: -32004, tag: 'RequestFailed', message: 'Codex could not complete config/read' },
    { code: -32603, tag: 'PreferencesUnwritable', retryable: true, message: 'the marketplace order could not be saved (the disk is full); nothing was changed' },
    { code: -32001, tag: 'TaskNotFound', message: 'no task with that taskId is open in the executor' },
  ]);
});
