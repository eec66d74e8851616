/**
 * Any value smol-toml reads, written as TOML text that reads back as the same value: strings as
 * {@link tomlString} writes them, arrays and tables inline, every other scalar as smol-toml
 * writes it.
 *
 * Every function here is pure: a value in, text out.
 */
import { stringify, type TomlValue } from 'smol-toml';
import { formatKeyPath } from '../KeyPath.js';
import { tomlString } from './TomlString.js';
import { isTable } from './TomlValues.js';

/** The TOML text of `value` for a document whose line breaks are `lineEnding`. */
export function tomlValueText(value: TomlValue, lineEnding: '\n' | '\r\n'): string {
  if (typeof value === 'string') return tomlString(value, lineEnding);
  if (Array.isArray(value)) return `[${value.map((item) => tomlValueText(item, lineEnding)).join(', ')}]`;
  if (isTable(value)) {
    const entries = Object.keys(value).map((key) => `${formatKeyPath([key])} = ${tomlValueText(value[key] as TomlValue, lineEnding)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return stringify({ v: value }).slice('v = '.length).trimEnd();
}
