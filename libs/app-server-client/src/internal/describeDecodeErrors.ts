/**
 * Describes io-ts decode errors by path and expected type only. Unlike io-ts' PathReporter it never
 * prints the offending value, which may carry secrets (tokens, e-mail addresses).
 *
 * Every function here is pure.
 */
import type * as t from 'io-ts';

const MAX_REPORTED = 3;
const MAX_TYPE_NAME = 120;

/** Combinators whose context keys are branch indexes rather than data keys. */
const structural = new Set(['UnionType', 'IntersectionType', 'RefinementType', 'ExactType', 'ReadonlyType', 'StrictType']);

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function pathOf(context: t.Context): string {
  let path = '';
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1];
    const entry = context[i];
    if (entry === undefined || parent === undefined) continue;
    const tag = (parent.type as { readonly _tag?: string })._tag;
    if (tag !== undefined && structural.has(tag)) continue;
    path += /^\d+$/.test(entry.key) ? `[${entry.key}]` : `.${entry.key}`;
  }
  return path === '' ? '(root)' : path;
}

/** One line per error (at most three, then a count), each with the path, expected type and actual kind. */
export function describeDecodeErrors(errors: t.Errors): string {
  const lines = errors.slice(0, MAX_REPORTED).map((error) => {
    if (error.message !== undefined) return `${pathOf(error.context)}: ${error.message}`;
    const name = error.context[error.context.length - 1]?.type.name ?? 'unknown';
    const expected = name.length > MAX_TYPE_NAME ? `${name.slice(0, MAX_TYPE_NAME)}…` : name;
    return `${pathOf(error.context)}: expected ${expected}, got ${kindOf(error.value)}`;
  });
  const more = errors.length > MAX_REPORTED ? ` (+${errors.length - MAX_REPORTED} more)` : '';
  return `${lines.join('; ')}${more}`;
}
