/**
 * Running a port's `TaskEither` in a test and taking the side the test expects; the other side fails
 * the test with a message naming it.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';

/**
 * Runs `task` and returns its right side; throws (failing the test) with the left side otherwise.
 * @example
 * ```ts
 * const text = await rightOf(fs.readFile('/a'));
 * ```
 */
export const rightOf = async <E, A>(task: TE.TaskEither<E, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw new Error(`expected Right, got Left ${JSON.stringify(result.left)}`);
  return result.right;
};

/**
 * Runs `task` and returns its left side; throws (failing the test) with the right side otherwise.
 * @example
 * ```ts
 * const error = await leftOf(fs.readFile('/missing')); // { _tag: 'FileSystemError', code: 'ENOENT', … }
 * ```
 */
export const leftOf = async <E, A>(task: TE.TaskEither<E, A>): Promise<E> => {
  const result = await task();
  if (E.isRight(result)) throw new Error(`expected Left, got Right ${JSON.stringify(result.right)}`);
  return result.left;
};
