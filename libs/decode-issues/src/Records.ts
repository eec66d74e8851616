/**
 * The one guard for "a JSON object" that every boundary reading untrusted values uses before it
 * looks at a field.
 *
 * Every function here is pure: a value in, a boolean out. Nothing throws on any input.
 */

/**
 * Whether `u` is a plain object: not `null`, not an array. Any other object (a `Date`, a `Map`)
 * counts; callers that must refuse those check for them themselves.
 * @example
 * ```ts
 * import { isRecord } from '@wework/decode-issues';
 * isRecord({ a: 1 }); // true
 * isRecord([1]); // false
 * isRecord(null); // false
 * ```
 */
export function isRecord(u: unknown): u is Record<string, unknown> {
  return typeof u === 'object' && u !== null && !Array.isArray(u);
}
