/**
 * Plain JSON records as the protocol carries them, and the helpers every library edits them with
 * (config edits, approval answers, MCP server settings).
 *
 * Every function here is pure: plain data in, plain data out. Nothing throws on any input, and
 * every key (`__proto__` included) is stored as an ordinary own property.
 */
import { isRecord } from '@wework/decode-issues';
import type { JsonValue } from './generated/serde_json/JsonValue.js';

/** A JSON object as it comes from a parsed file: keys to arbitrary JSON values. */
export type JsonRecord = { readonly [key: string]: JsonValue };

/** The own value of `key`; the prototype chain is never consulted. */
export function own(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Sets an own data property, so that `__proto__` and friends are stored as ordinary keys. */
function define<V>(target: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A shallow copy of `record`. */
export function copyRecord<V>(record: Readonly<Record<string, V>>): Record<string, V> {
  const copy: Record<string, V> = {};
  for (const [k, v] of Object.entries(record)) define(copy, k, v);
  return copy;
}

/** A shallow copy of `record` with `key` set (in place when present, at the end when new). */
export function withKey<V>(record: Readonly<Record<string, V>>, key: string, value: V): Record<string, V> {
  const copy = copyRecord(record);
  define(copy, key, value);
  return copy;
}

/** A shallow copy of `record` without `key`. */
export function withoutKey<V>(record: Readonly<Record<string, V>>, key: string): Record<string, V> {
  const copy: Record<string, V> = {};
  for (const [k, v] of Object.entries(record)) if (k !== key) define(copy, k, v);
  return copy;
}

/** Structural equality of JSON values (object key order does not matter, array order does). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/** Deep merge of plain objects: `override` wins; arrays and scalars are replaced, not merged. */
export function deepMerge(base: JsonRecord, override: JsonRecord): JsonRecord {
  const merged = copyRecord(base);
  for (const [key, value] of Object.entries(override)) {
    const current = own(merged, key);
    define(merged, key, isRecord(current) && isRecord(value) ? deepMerge(current as JsonRecord, value as JsonRecord) : value);
  }
  return merged;
}
