/**
 * io-ts codecs for the few wire shapes of the Codex app-server protocol that io-ts has no
 * ready combinator for. The generated codecs in `codecs/codecs.ts` use them.
 *
 * Every function here is pure: values in, values or an `Either` out.
 */
import * as t from 'io-ts';

/**
 * Codec of a Rust `i64`/`u64` field, typed `bigint` by the generated types but carried in JSON
 * as a plain number.
 *
 * Decoding accepts any integer-valued JSON number (and a `bigint`, should a transport parse
 * big integers itself) and yields a `bigint`; encoding yields a `number`. A JSON parser has
 * already rounded integers beyond ±(2^53 − 1) to the nearest double; decoding keeps exactly
 * that value, so `encode(decode(x)) === x` for every integer number `x`. Encoding a bigint
 * beyond the safe range rounds it the same way `JSON` would.
 */
export class JsonBigIntType extends t.Type<bigint, number, unknown> {
  /** Identifies the codec kind, like io-ts' own `_tag`s. */
  readonly _tag = 'JsonBigIntType' as const;
  constructor() {
    super(
      'JsonBigInt',
      (u): u is bigint => typeof u === 'bigint',
      (u, c) => {
        if (typeof u === 'bigint') return t.success(u);
        return typeof u === 'number' && Number.isInteger(u) ? t.success(BigInt(u)) : t.failure(u, c);
      },
      (a) => Number(a),
    );
  }
}

/** Static type of {@link jsonBigInt}. */
export type JsonBigIntC = JsonBigIntType;

/**
 * Codec of a `bigint` field carried as a JSON integer.
 * @example
 * ```ts
 * import { jsonBigInt } from '@wework/codex-protocol';
 * jsonBigInt.decode(42); // right(42n)
 * jsonBigInt.encode(42n); // 42
 * ```
 */
export const jsonBigInt: JsonBigIntC = new JsonBigIntType();

/**
 * Codec of a generated `T | null` (a Rust `Option<T>`). Like serde, it reads a missing value
 * (`undefined`, as an absent property reads) as `null`; anything else goes to the inner codec.
 */
export class NullableType<C extends t.Mixed> extends t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null, unknown> {
  /** Identifies the codec kind, like io-ts' own `_tag`s. */
  readonly _tag = 'NullableType' as const;
  constructor(
    name: string,
    /** The codec of the non-null values. */
    readonly type: C,
  ) {
    super(
      name,
      (u): u is t.TypeOf<C> | null => u === null || type.is(u),
      (u, c) => (u === null || u === undefined ? t.success(null) : type.validate(u, c)),
      (a) => (a === null ? null : (type.encode(a) as t.OutputOf<C>)),
    );
  }
}

/** Static type of {@link nullable}. */
export type NullableC<C extends t.Mixed> = NullableType<C>;

/**
 * Codec of `T | null` that also reads a missing value as `null`.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { nullable } from '@wework/codex-protocol';
 * t.type({ turnId: nullable(t.string) }).decode({}); // right({ turnId: null })
 * ```
 */
export const nullable = <C extends t.Mixed>(type: C, name?: string): NullableC<C> => new NullableType(name ?? `${type.name} | null`, type);

/** Static type of {@link optionalRecord}: a string-keyed record whose values may be absent. */
export type OptionalRecordC<C extends t.Mixed> = t.RecordC<t.StringC, t.UnionC<[t.UndefinedC, C]>>;

/**
 * Codec of a generated `{ [key in string]?: A }` map (a Rust `HashMap`). Under
 * `exactOptionalPropertyTypes` that type reads `{ [key: string]: A | undefined }`, which is what
 * this codec decodes to. (`undefined` is tried first, so that an inner `nullable` keeps it.)
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { optionalRecord } from '@wework/codex-protocol';
 * optionalRecord(t.number).decode({ a: 1 }); // right({ a: 1 })
 * ```
 */
export const optionalRecord = <C extends t.Mixed>(codomain: C, name?: string): OptionalRecordC<C> =>
  t.record(t.string, t.union([t.undefined, codomain]), name);

/** Static type of {@link emptyObject}. */
export type EmptyObjectC = t.TypeC<Record<never, never>>;

/**
 * Codec of a generated `Record<string, never>` (a response without fields). Any object
 * decodes, so a newer server that adds fields stays readable.
 */
export const emptyObject: EmptyObjectC = t.type({}, 'EmptyObject');


/**
 * The exact number a `bigint` stands for, or `null` when no double holds it exactly.
 * Every bigint decoded by {@link jsonBigInt} from a JSON number is such a double.
 * @example
 * ```ts
 * import { exactNumberOf } from '@wework/codex-protocol';
 * exactNumberOf(3n); // 3
 * exactNumberOf(2n ** 64n + 1n); // null
 * ```
 */
export const exactNumberOf = (value: bigint): number | null => {
  const number = Number(value);
  return Number.isFinite(number) && BigInt(number) === value ? number : null;
};

const holdsBigInt = (value: unknown, depth: number): boolean => {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null || depth > 256) return false;
  if (Array.isArray(value)) return value.some((item) => holdsBigInt(item, depth + 1));
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key) && holdsBigInt((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
};

const rewrite = (value: unknown, depth: number): unknown => {
  if (typeof value === 'bigint') return exactNumberOf(value) ?? value.toString();
  if (typeof value !== 'object' || value === null || depth > 256) return value;
  if (Array.isArray(value)) return value.map((item) => rewrite(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key in value) {
    // defineProperty, not assignment: a `__proto__` key of parsed JSON is an own property and stays one.
    if (Object.prototype.hasOwnProperty.call(value, key)) Object.defineProperty(out, key, { value: rewrite((value as Record<string, unknown>)[key], depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
};

/**
 * Decoded protocol values (which hold `bigint`s where Codex's types say `i64`/`u64`) as wire JSON,
 * ready for `JSON.stringify`: each `bigint` becomes the number it stands for; one that no double
 * holds exactly (never the case for a value decoded from JSON) becomes its decimal string, never
 * a wrong number. A value without bigints is returned as it is (no copy).
 * @example
 * ```ts
 * import { toWireJson } from '@wework/codex-protocol';
 * JSON.stringify(toWireJson({ minItems: 1n, maxItems: 3n })); // '{"minItems":1,"maxItems":3}'
 * ```
 */
export function toWireJson(value: unknown): unknown {
  return holdsBigInt(value, 0) ? rewrite(value, 0) : value;
}
