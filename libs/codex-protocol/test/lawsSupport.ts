/**
 * Shared helpers of the codec law tests.
 */
import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { expect } from 'vitest';

/** JSON as it arrives from the wire: parsed text, so no `-0`, `undefined` or prototype tricks. */
export const wireJson: fc.Arbitrary<unknown> = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/** Sends a value through JSON text, as the transport does. */
export const throughJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/**
 * The wire JSON of a valid value with one place replaced by arbitrary JSON: input that gets past
 * the outer checks of a codec and fails (or not) deep inside.
 */
export const corrupted = <A>(codec: t.Type<A, unknown, unknown>, valid: fc.Arbitrary<A>): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      valid.map((a) => throughJson(codec.encode(a))),
      fc.nat(),
      wireJson,
    )
    .map(([value, pick, replacement]) => replaceAt(value, pick, replacement));

const replaceAt = (value: unknown, pick: number, replacement: unknown): unknown => {
  const places: Array<{ readonly parent: Record<string, unknown> | unknown[]; readonly key: string | number }> = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach((item, index) => (places.push({ parent: node, key: index }), visit(item)));
    else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        places.push({ parent: node as Record<string, unknown>, key });
        visit(item);
      }
    }
  };
  visit(value);
  if (places.length === 0) return replacement;
  const place = places[pick % places.length];
  if (place) (place.parent as Record<string | number, unknown>)[place.key] = replacement;
  return value;
};

/** Asserts that a decode succeeded and returns the value. */
export const expectRight = <A>(result: E.Either<t.Errors, A>): A => {
  if (E.isLeft(result)) expect.fail(`decode failed at ${result.left.map((e) => e.context.map((c) => c.key).join('.')).join(', ')}`);
  return result.right;
};
