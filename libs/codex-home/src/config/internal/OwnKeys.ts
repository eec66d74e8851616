/**
 * Own keys of a table read by smol-toml (never an inherited property such as `constructor`).
 *
 * Every function here is pure.
 */
import type { TomlTable, TomlValue } from 'smol-toml';

/** The own value of `key` in a table, `undefined` when absent. */
export function ownValue(table: TomlTable, key: string): TomlValue | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** Whether the table has `key` as its own property, whatever its value. */
export function hasOwnKey(table: TomlTable, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}
