/**
 * Small io-ts building blocks shared by the script and request decoders: a strict record
 * (unknown keys are an error, not silently dropped), a bounded integer, and a reporter
 * that turns io-ts errors into `{ path, message }` issues a person can act on.
 *
 * Every function here is pure: plain data in, plain data or an `Either` out.
 */
import * as t from 'io-ts';
import { describeKind, expectedTypeName, isRecord, issuePath } from '@wework/decode-issues';
import * as E from 'fp-ts/lib/Either.js';

/** One problem found while decoding: where (`script[0].steps[1].callTool.tool`) and what. */
export interface DecodeIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * A record codec that fails on unknown keys (a typo in a script must not pass unnoticed),
 * checks required and optional properties, and drops optional properties that are absent.
 */
export function strictRecord<R extends t.Props, O extends t.Props>(
  name: string,
  required: R,
  optional: O,
): t.Type<t.TypeOfProps<R> & Partial<t.TypeOfProps<O>>, t.OutputOfProps<R> & Partial<t.OutputOfProps<O>>, unknown> {
  type A = t.TypeOfProps<R> & Partial<t.TypeOfProps<O>>;
  type Out = t.OutputOfProps<R> & Partial<t.OutputOfProps<O>>;
  const known = [...Object.keys(required), ...Object.keys(optional)];
  const is = (u: unknown): u is A =>
    isRecord(u) &&
    Object.keys(u).every((k) => known.includes(k)) &&
    Object.entries(required).every(([k, codec]) => codec.is(u[k])) &&
    Object.entries(optional).every(([k, codec]) => !(k in u) || codec.is(u[k]));
  return new t.Type<A, Out, unknown>(
    name,
    is,
    (u, c) => {
      if (!isRecord(u)) return t.failure(u, c, `expected an object with keys ${known.join(', ')}`);
      const errors: t.Errors = [];
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(u)) {
        if (!known.includes(key)) {
          errors.push(...failureAt(c, key, u[key], `unknown key "${key}" (expected one of ${known.join(', ')})`));
        }
      }
      const check = (key: string, codec: t.Mixed, present: boolean): void => {
        if (!present) return;
        const value = u[key];
        const decoded = codec.validate(value, t.appendContext(c, key, codec, value));
        if (E.isLeft(decoded)) errors.push(...decoded.left);
        else result[key] = decoded.right;
      };
      for (const [key, codec] of Object.entries(required)) {
        if (!(key in u)) errors.push(...failureAt(c, key, undefined, `missing required key "${key}"`));
        else check(key, codec, true);
      }
      for (const [key, codec] of Object.entries(optional)) check(key, codec, key in u && u[key] !== undefined);
      return errors.length > 0 ? t.failures(errors) : t.success(result as A);
    },
    (a) => {
      const out: Record<string, unknown> = {};
      const source = a as Record<string, unknown>;
      for (const [key, codec] of [...Object.entries(required), ...Object.entries(optional)]) {
        if (source[key] !== undefined) out[key] = codec.encode(source[key]);
      }
      return out as Out;
    },
  );
}

function failureAt(c: t.Context, key: string, value: unknown, message: string): t.Errors {
  return [{ value, context: [...c, { key, type: t.unknown, actual: value }], message }];
}

/** An integer in `[min, max]`. */
export function boundedInt(name: string, min: number, max: number): t.Type<number, number, unknown> {
  return new t.Type<number, number, unknown>(
    name,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max,
    (u, c) =>
      typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max
        ? t.success(u)
        : t.failure(u, c, `expected an integer from ${min} to ${max}, got ${describe(u)}`),
    t.identity,
  );
}

/** A JSON object value (used for tool arguments). */
export const JsonObject = new t.Type<Readonly<Record<string, unknown>>, Readonly<Record<string, unknown>>, unknown>(
  'JsonObject',
  isRecord,
  (u, c) => (isRecord(u) ? t.success(u) : t.failure(u, c, `expected a JSON object, got ${describe(u)}`)),
  t.identity,
);

/** Names the kind of a value for an error message (`a number`, `an object`), never the value itself. */
export function describe(u: unknown): string {
  return describeKind(u);
}

/** Renders an io-ts context as a path: `root[0].steps[1].callTool.tool`. */
export function contextPath(root: string, context: t.Context): string {
  return issuePath(context, { root, indices: 'brackets' });
}

/** Turns io-ts errors into issues, keeping the first message per path. */
export function toIssues(root: string, errors: t.Errors): ReadonlyArray<DecodeIssue> {
  const seen = new Set<string>();
  const issues: DecodeIssue[] = [];
  for (const error of errors) {
    const path = contextPath(root, error.context);
    const message = error.message ?? `expected ${expectedTypeName(error) ?? 'a valid value'}, got ${describe(error.value)}`;
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path, message });
  }
  return issues;
}
