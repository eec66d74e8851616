/**
 * Plain objects made by `new` of a constructor function instead of by an object literal, for the
 * results the package builds in bulk (parsed segments, turn input items). Pure: no state, no IO.
 *
 * V8 may allocate the objects of an object literal directly in the old generation ("pretenuring"),
 * once it has seen most objects of that literal survive a young-generation collection. A large
 * result is alive while it is built, so a collection that happens to land inside one of the first
 * large calls is enough to take that decision from a few samples; a caller keeping such results
 * alive takes it too. From then on every result is born in the old generation, a dropped result
 * stays there until the next full collection, and every scavenge until then copies and promotes the
 * young strings it points to. Objects made by `new` of a plain function are not pretenured that way,
 * so a constructor made by {@link plain} (whose `prototype` is `Object.prototype`) builds each
 * object with the same own properties, in the same order, as the literal would (`constructor` is
 * `Object`, JSON and equality are unchanged), and its allocations stay in the young generation
 * whatever happened before.
 */

/** The object a constructor fills in: the fields of `T`, writable while it is built. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A constructor function whose instances are plain objects (its `prototype` is `Object.prototype`). */
export interface PlainConstructor<Args extends unknown[], T> {
  new (...args: Args): T;
  prototype: object;
}

/**
 * Turns `init` (which assigns the fields of `T` to `this`, in the order the literal lists them) into
 * a constructor of plain objects.
 */
export function plain<Args extends unknown[], T>(init: (this: Writable<T>, ...args: Args) => void): PlainConstructor<Args, T> {
  const constructor = init as unknown as PlainConstructor<Args, T>;
  constructor.prototype = Object.prototype;
  return constructor;
}
