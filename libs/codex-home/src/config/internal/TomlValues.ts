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
