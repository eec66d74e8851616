/**
 * Small helpers shared by the tests: run a TaskEither and unwrap its side, build a home layout.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { layoutOf, type CodexHomeLayout } from '../src/index.js';
import type { Platform } from '@wework/ports';

/** Runs `task` and returns its right side, failing the test with the left side otherwise. */
export const rightOf = async <E, A>(task: TE.TaskEither<E, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw new Error(`expected Right, got Left ${JSON.stringify(result.left)}`);
  return result.right;
};

/** Runs `task` and returns its left side, failing the test with the right side otherwise. */
export const leftOf = async <E, A>(task: TE.TaskEither<E, A>): Promise<E> => {
  const result = await task();
  if (E.isRight(result)) throw new Error(`expected Left, got Right ${JSON.stringify(result.right)}`);
  return result.left;
};

/** The layout every in-memory test uses: Wework home `/wework/codex`, native home `/home/ada/.codex`. */
export const testLayout = (platform: Platform = 'unix'): CodexHomeLayout =>
  platform === 'unix' ? layoutOf('unix', '/wework/codex', '/home/ada/.codex') : layoutOf('windows', 'C:\\wework\\codex', 'C:\\Users\\ada\\.codex');

/** A string that must never appear in any value or error of the library: used as a token. */
export const CANARY = 'CANARY-TOKEN-7f3a9c-do-not-leak';
