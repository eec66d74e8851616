/**
 * Structural equality of values read by smol-toml, used to prove that an edit changed only the
 * keys it meant to change.
 *
 * Every function here is pure.
 */
import type { TomlTable, TomlValue } from 'smol-toml';

/** The own value of `key` in a table, `undefined` when absent (never an inherited property). */
export function ownValue(table: TomlTable, key: string): TomlValue | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** Whether the table has `key` as its own property, whatever its value. */
export function hasOwnKey(table: TomlTable, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/** Deep equality of two TOML values: dates by their TOML text, floats with `NaN` equal to itself. */
export function tomlValuesEqual(a: TomlValue | undefined, b: TomlValue | undefined): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.toISOString() === b.toISOString();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => tomlValuesEqual(item, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    return tablesEqualExcept(a as TomlTable, b as TomlTable, []);
  }
  return Object.is(a, b);
}

/** Whether two tables have the same keys with equal values, ignoring the keys in `ignored`. */
export function tablesEqualExcept(a: TomlTable, b: TomlTable, ignored: ReadonlyArray<string>): boolean {
  const keysOf = (table: TomlTable): string[] => Object.keys(table).filter((key) => !ignored.includes(key)).sort();
  const keysA = keysOf(a);
  const keysB = keysOf(b);
  return keysA.length === keysB.length && keysA.every((key, i) => key === keysB[i] && tomlValuesEqual(ownValue(a, key), ownValue(b, key)));
}

/** Whether `u` is a table read by smol-toml (not an array, not a date). */
export function isTable(u: unknown): u is TomlTable {
  return typeof u === 'object' && u !== null && !Array.isArray(u) && !(u instanceof Date);
}

/** The value at a key path, `undefined` when any segment is absent or goes through a non-table. */
export function valueAt(table: TomlTable, path: ReadonlyArray<string>): TomlValue | undefined {
  let current: TomlValue | undefined = table;
  for (const segment of path) {
    if (!isTable(current)) return undefined;
    current = ownValue(current, segment);
  }
  return current;
}

function define(target: TomlTable, key: string, value: TomlValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A copy of `table` with the value at `path` set (`undefined`: removed). Missing tables on the
 * way are created; a removal through a missing table changes nothing. With `pruneEmpty`, tables
 * left empty by a removal are removed too (TOML cannot tell an implicit empty table from none).
 */
export function withValueAt(table: TomlTable, path: ReadonlyArray<string>, value: TomlValue | undefined, pruneEmpty = false): TomlTable {
  const [head, ...rest] = path;
  if (head === undefined) return table;
  const copy: TomlTable = {};
  for (const key of Object.keys(table)) if (key !== head) define(copy, key, table[key] as TomlValue);
  const current = ownValue(table, head);
  let next: TomlValue | undefined;
  if (rest.length === 0) next = value;
  else if (current === undefined && value === undefined) next = undefined;
  else {
    const inner = withValueAt(isTable(current) ? current : {}, rest, value, pruneEmpty);
    next = pruneEmpty && value === undefined && Object.keys(inner).length === 0 ? undefined : inner;
  }
  if (next !== undefined) define(copy, head, next);
  return copy;
}
