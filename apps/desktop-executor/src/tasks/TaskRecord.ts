/**
 * Task records are plain data: the host protocol's `TaskRecord` (`@wework/host-protocol`), copied
 * before the executor keeps or hands one out.
 */

/** A deep copy of plain JSON data (what `structuredClone` gives, typed). */
export function copyJson<A>(value: A): A {
  return structuredClone(value);
}
