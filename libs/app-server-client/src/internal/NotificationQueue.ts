/**
 * A bounded queue read as an `AsyncIterable`: `push` never blocks (when full, the oldest item is
 * dropped and `onDrop` told), `end` lets the reader finish what is buffered and then stop, `abort`
 * stops it at once. One reader; a second iteration of the same queue sees what the first left.
 */

/** The writing side of a {@link createNotificationQueue} queue. */
export interface NotificationQueue<A> extends AsyncIterable<A> {
  push(item: A): void;
  /** No more items: the reader drains the buffer, then its iteration ends. */
  end(): void;
  /** Ends the reader now; buffered items are discarded. */
  abort(): void;
}

/** A queue bounded to `bound` items (at least 1); `onDrop` is told each item dropped for room, and `onEnd` once the queue ended. */
export function createNotificationQueue<A>(bound: number, onDrop: (dropped: A) => void, onEnd: () => void): NotificationQueue<A> {
  const limit = Number.isFinite(bound) && bound >= 1 ? Math.floor(bound) : 1;
  const buffer: A[] = [];
  let ended = false;
  let waiting: ((result: IteratorResult<A, undefined>) => void) | undefined;
  const finish = (): void => {
    if (ended) return;
    ended = true;
    onEnd();
    const reader = waiting;
    waiting = undefined;
    reader?.({ done: true, value: undefined });
  };
  const next = (): Promise<IteratorResult<A, undefined>> => {
    if (buffer.length > 0) return Promise.resolve({ done: false, value: buffer.shift() as A });
    if (ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => (waiting = resolve));
  };
  const iterator: AsyncIterator<A, undefined> = {
    next,
    return: () => {
      buffer.length = 0;
      finish();
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return {
    push: (item) => {
      if (ended) return;
      if (waiting !== undefined) {
        const reader = waiting;
        waiting = undefined;
        reader({ done: false, value: item });
        return;
      }
      buffer.push(item);
      if (buffer.length > limit) onDrop(buffer.shift() as A);
    },
    end: finish,
    abort: () => {
      buffer.length = 0;
      finish();
    },
    [Symbol.asyncIterator]: () => iterator,
  };
}
