/**
 * The one strict record codec: required and optional keys, and any other key an error with its
 * path — a typo in a hand-written file must not pass unnoticed, as `t.type` would let it.
 *
 * Every function here is pure: plain data in, plain data or an io-ts validation out.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { isRecord } from './Records.js';

/**
 * A record codec that fails on unknown keys (each one an issue at its own path, `unknown key "x"`),
 * checks required and optional properties (a missing required key is `missing required key "x"`),
 * and reports every problem at once. An optional key that is absent or `undefined` is left out of the
 * decoded value and of the encoded one.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * const Say = strictRecord('Say', { text: t.string }, { voice: t.string });
 * Say.decode({ text: 'hi' }); // right({ text: 'hi' })
 * Say.decode({ txt: 'hi' }); // left: unknown key "txt", missing required key "text"
 * ```
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
    Object.entries(required).every(([k, codec]) => k in u && codec.is(u[k])) &&
    Object.entries(optional).every(([k, codec]) => u[k] === undefined || codec.is(u[k]));
  return new t.Type<A, Out, unknown>(
    name,
    is,
    (u, c) => {
      if (!isRecord(u)) return t.failure(u, c, `expected an object with keys ${known.join(', ')}`);
      const errors: t.Errors = [];
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(u)) {
        if (!known.includes(key)) errors.push(failureAt(c, key, u[key], `unknown key "${key}" (expected one of ${known.join(', ')})`));
      }
      const check = (key: string, codec: t.Mixed): void => {
        const value = u[key];
        const decoded = codec.validate(value, t.appendContext(c, key, codec, value));
        if (E.isLeft(decoded)) errors.push(...decoded.left);
        else result[key] = decoded.right;
      };
      for (const [key, codec] of Object.entries(required)) {
        if (key in u) check(key, codec);
        else errors.push(failureAt(c, key, undefined, `missing required key "${key}"`));
      }
      for (const [key, codec] of Object.entries(optional)) if (u[key] !== undefined) check(key, codec);
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

const failureAt = (c: t.Context, key: string, value: unknown, message: string): t.ValidationError => ({
  value,
  context: [...c, { key, type: t.never, actual: value }],
  message,
});
