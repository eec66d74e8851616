/**
 * Small io-ts building blocks shared by the script and request decoders: a bounded integer, a JSON
 * object, and the issues of a failure as paths a person can act on (the strict record codec and the
 * issue shape are `@wework/decode-issues`'s).
 *
 * Every function here is pure: plain data in, plain data or an `Either` out.
 */
import * as t from 'io-ts';
import { describeKind, isRecord, listIssues, type DecodeIssue } from '@wework/decode-issues';

/** An integer in `[min, max]`. */
export function boundedInt(name: string, min: number, max: number): t.Type<number, number, unknown> {
  return new t.Type<number, number, unknown>(
    name,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
    (u, c) =>
      typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max
        ? t.success(u)
        : t.failure(u, c, `expected an integer from ${min} to ${max}, got ${describeKind(u)}`),
    t.identity,
  );
}

/** A JSON object value (used for tool arguments). */
export const JsonObject = new t.Type<Readonly<Record<string, unknown>>, Readonly<Record<string, unknown>>, unknown>(
  'JsonObject',
  isRecord,
  (u, c) => (isRecord(u) ? t.success(u) : t.failure(u, c, `expected a JSON object, got ${describeKind(u)}`)),
  t.identity,
);

/** Turns io-ts errors into issues under `root`, with bracketed indices: `script[0].steps[1].callTool.tool`. */
export function toIssues(root: string, errors: t.Errors): ReadonlyArray<DecodeIssue> {
  return listIssues(errors, { root, indices: 'brackets' });
}
