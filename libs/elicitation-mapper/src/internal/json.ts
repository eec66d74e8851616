/**
 * Small guards and describers for untrusted JSON, written by hand because they sit on the hot
 * path of every elicitation (an io-ts decode of the same shapes costs several times more).
 *
 * Every function here is pure: values in, values out.
 */
import { exactNumberOf } from '@wework/codex-protocol';

/** A JSON object (not `null`, not an array). */
export type JsonRecord = { readonly [key: string]: unknown };

/** The own property `key` of `record`, or `undefined` (never reads the prototype chain). */
export const own = (record: JsonRecord, key: string): unknown =>
  Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;

/** True when `record` has no own enumerable keys. */
export const isEmptyRecord = (record: JsonRecord): boolean => {
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) return false;
  return true;
};

/** True for an array whose items are all strings. */
export const isStringArray = (value: unknown): value is ReadonlyArray<string> => {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string') return false;
  return true;
};

/**
 * A JSON number as a `number`: numbers as they are, and the `bigint`s the protocol codecs decode
 * Codex's `i64`/`u64` fields to (`minItems`, `maxItems`, ...) as the number they stand for. A bigint
 * beyond the safe integer range is not turned into a nearby number: it reads as no number.
 */
const numberOf = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  if (typeof value !== 'bigint') return undefined;
  const exact = exactNumberOf(value);
  return exact !== null && Number.isSafeInteger(exact) ? exact : undefined;
};

/** A finite number (or a safe-range bigint), or `null`. */
export const finiteOrNull = (value: unknown): number | null => {
  const number = numberOf(value);
  return number !== undefined && Number.isFinite(number) ? number : null;
};

/** A non-negative integer (a number or a safe-range bigint), or `null`. */
export const countOrNull = (value: unknown): number | null => {
  const number = numberOf(value);
  return number !== undefined && Number.isSafeInteger(number) && number >= 0 ? number : null;
};

/** A string, or `null`. */
export const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const identifier = /^[A-Za-z_$][\w$]*$/;

/** `path.key` for identifier keys, `path["key"]` otherwise. */
export const pathTo = (path: string, key: string): string =>
  identifier.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** `path[index]`. */
export const pathAt = (path: string, index: number): string => `${path}[${index}]`;

/** Longest string a message quotes, and only where an enumeration or a name was expected. */
const quotedLength = 40;

/** A short quoted string, or its length when long (it may be free-form text). */
export const quoteShort = (value: string): string =>
  value.length <= quotedLength ? JSON.stringify(value) : `a string (${value.length} characters)`;

/**
 * Describes a value for an error message without quoting free-form text (it may carry secrets);
 * short strings are quoted only when `quoteStrings` says an enumeration was expected.
 */
export const describeValue = (value: unknown, quoteStrings = false): string => {
  if (value === undefined) return 'nothing (missing)';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return String(value);
    case 'number':
      return `number ${String(value)}`;
    case 'string':
      return quoteStrings ? quoteShort(value) : `a string (${value.length} characters)`;
    case 'object':
      return Array.isArray(value) ? `an array (${value.length} items)` : 'an object';
    default:
      return `a ${typeof value}`;
  }
};

/** The JSON type name of a value: `string`, `number`, `boolean`, `null`, `array`, `object`. */
export const jsonTypeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
};
