/**
 * Runs lazy `TaskEither`s with bounded concurrency. Pure: it only sequences the tasks it is given.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';

/**
 * Maps `items` through `f`, at most `limit` at a time; results keep the order of `items`. Stops
 * starting new work after the first failure and returns that failure once running work has settled.
 */
export const traverseLimited =
  <A, Err, B>(items: ReadonlyArray<A>, limit: number, f: (a: A) => TE.TaskEither<Err, B>): TE.TaskEither<Err, ReadonlyArray<B>> =>
  async () => {
    const results: B[] = new Array<B>(items.length);
    let next = 0;
    let failure: E.Left<Err> | null = null;
    const worker = async (): Promise<void> => {
      while (failure === null && next < items.length) {
        const index = next++;
        const result = await f(items[index] as A)();
        if (E.isLeft(result)) failure ??= result;
        else results[index] = result.right;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    return failure ?? E.right(results);
  };
