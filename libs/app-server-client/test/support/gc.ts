/** Garbage collection on demand for retention tests (this library's tests cannot use the shared test support: it depends on this library). */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Which of `refs` the garbage collector freed, after the callbacks already due have run (one macrotask)
 * and one full collection: for tests that an operation keeps nothing reachable once it is over. Run the
 * operation in a function of its own so that only the weak reference leaves it.
 */
export async function collectedAfterGc(refs: ReadonlyArray<WeakRef<object>>): Promise<boolean[]> {
  // `--expose-gc` set at run time, then `gc` taken from a fresh context (the current one was made without it).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  return refs.map((ref) => ref.deref() === undefined);
}
