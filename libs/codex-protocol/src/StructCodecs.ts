/**
 * io-ts codecs of JSON objects as Rust structs serialize them: declared properties that are
 * required or optional, and (for a `#[serde(flatten)]` map) any number of other properties.
 *
 * Unknown properties are kept, so that a newer peer stays readable. An optional property that
 * arrives as `null` although its type has no `null` is read as absent, as serde reads an
 * `Option` field.
 *
 * Every function here is pure: values in, values or an `Either` out.
 */
import * as t from 'io-ts';

/** The decoded type of a struct: required properties and optional ones. */
export type StructOf<R extends t.Props, O extends t.Props> = { [K in keyof R]: t.TypeOf<R[K]> } & { [K in keyof O]?: t.TypeOf<O[K]> };
/** The encoded (wire) type of a struct. */
export type StructOutputOf<R extends t.Props, O extends t.Props> = { [K in keyof R]: t.OutputOf<R[K]> } & {
  [K in keyof O]?: t.OutputOf<O[K]>;
};

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Codec of a JSON object with required and optional properties.
 *
 * It is an io-ts `InterfaceType` over its required properties, so io-ts still recognises the
 * literal tags of a union of structs (and picks the member by tag, with precise errors).
 */
export class StructType<R extends t.Props, O extends t.Props> extends t.InterfaceType<R, StructOf<R, O>, StructOutputOf<R, O>, unknown> {
  constructor(
    name: string,
    required: R,
    /** Codecs of the optional properties. */
    readonly optional: O,
  ) {
    const requiredKeys = Object.keys(required);
    const optionalKeys = Object.keys(optional);
    const allIdentity = [...Object.values(required), ...Object.values(optional)].every((codec) => codec.encode === t.identity);
    super(
      name,
      (u): u is StructOf<R, O> =>
        t.UnknownRecord.is(u) &&
        requiredKeys.every((k) => (u[k] !== undefined || hasOwn(u, k)) && (required[k] as t.Mixed).is(u[k])) &&
        optionalKeys.every((k) => u[k] === undefined || (optional[k] as t.Mixed).is(u[k])),
      (u, c) => {
        const record = t.UnknownRecord.validate(u, c);
        if (record._tag === 'Left') return record;
        const input = record.right;
        let output = input;
        const set = (k: string, value: unknown): void => {
          if (output === input) output = { ...input };
          output[k] = value;
        };
        const errors: t.ValidationError[] = [];
        for (const k of requiredKeys) {
          const codec = required[k] as t.Mixed;
          const value = input[k];
          const result = codec.validate(value, t.appendContext(c, k, codec, value));
          if (result._tag === 'Left') errors.push(...result.left);
          else if (result.right !== value || (result.right === undefined && !hasOwn(output, k))) set(k, result.right);
        }
        for (const k of optionalKeys) {
          const codec = optional[k] as t.Mixed;
          const value = input[k];
          if (value === undefined) continue;
          if (value === null && !codec.is(null)) {
            if (output === input) output = { ...input };
            delete output[k];
            continue;
          }
          const result = codec.validate(value, t.appendContext(c, k, codec, value));
          if (result._tag === 'Left') errors.push(...result.left);
          else if (result.right !== value) set(k, result.right);
        }
        return errors.length > 0 ? t.failures(errors) : t.success(output as StructOf<R, O>);
      },
      allIdentity
        ? (t.identity as (a: StructOf<R, O>) => StructOutputOf<R, O>)
        : (a) => {
            const encoded: Record<string, unknown> = { ...a };
            for (const k of requiredKeys) encoded[k] = (required[k] as t.Mixed).encode(a[k]);
            for (const k of optionalKeys) {
              const value = (a as Record<string, unknown>)[k];
              if (value !== undefined) encoded[k] = (optional[k] as t.Mixed).encode(value);
            }
            return encoded as StructOutputOf<R, O>;
          },
      required,
    );
  }
}

/** Static type of {@link struct}. */
export type StructC<R extends t.Props, O extends t.Props> = StructType<R, O>;

/**
 * Codec of a JSON object with required properties `R` and optional properties `O`.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { struct } from '@wework/codex-protocol';
 * const Option = struct({ label: t.string }, { description: t.string });
 * Option.decode({ label: 'Fast', description: null }); // right({ label: 'Fast' })
 * ```
 */
export const struct = <R extends t.Props, O extends t.Props>(required: R, optional: O, name?: string): StructC<R, O> =>
  new StructType(name ?? `{ ${[...Object.keys(required), ...Object.keys(optional).map((k) => `${k}?`)].join(', ')} }`, required, optional);

/**
 * Merges the results of the parts of an intersection. Like io-ts, a part's changed values win;
 * unlike io-ts, a property that a part removed (a `struct` reading a `null` optional property
 * as absent) stays removed.
 */
const mergeParts = (input: unknown, parts: ReadonlyArray<unknown>): unknown => {
  if (parts.every((part) => part === input)) return input;
  if (!t.UnknownRecord.is(input)) return parts.find((part) => part !== input) ?? input;
  const merged: Record<string, unknown> = { ...input };
  const removed = new Set<string>();
  for (const part of parts) {
    if (!t.UnknownRecord.is(part)) continue;
    for (const k of Object.keys(part)) if (part[k] !== input[k]) merged[k] = part[k];
    for (const k of Object.keys(input)) if (!hasOwn(part, k)) removed.add(k);
  }
  for (const k of removed) delete merged[k];
  return merged;
};

/**
 * `t.intersection` with {@link mergeParts}: still an io-ts `IntersectionType`, so unions of
 * intersections keep their tags.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { intersection, struct } from '@wework/codex-protocol';
 * intersection([t.type({ id: t.string }), struct({}, { note: t.string })]).decode({ id: 'a', note: null });
 * // right({ id: 'a' })
 * ```
 */
export function intersection<A extends t.Mixed, B extends t.Mixed>(codecs: [A, B], name?: string): t.IntersectionC<[A, B]>;
export function intersection<A extends t.Mixed, B extends t.Mixed, C extends t.Mixed>(
  codecs: [A, B, C],
  name?: string,
): t.IntersectionC<[A, B, C]>;
export function intersection<A extends t.Mixed, B extends t.Mixed, C extends t.Mixed, D extends t.Mixed>(
  codecs: [A, B, C, D],
  name?: string,
): t.IntersectionC<[A, B, C, D]>;
export function intersection<A extends t.Mixed, B extends t.Mixed, C extends t.Mixed, D extends t.Mixed, E extends t.Mixed>(
  codecs: [A, B, C, D, E],
  name?: string,
): t.IntersectionC<[A, B, C, D, E]>;
export function intersection(codecs: ReadonlyArray<t.Mixed>, name?: string): t.Mixed {
  return new t.IntersectionType(
    name ?? `(${codecs.map((codec) => codec.name).join(' & ')})`,
    (u): u is unknown => codecs.every((codec) => codec.is(u)),
    (u, c) => {
      const parts: unknown[] = [];
      const errors: t.ValidationError[] = [];
      codecs.forEach((codec, i) => {
        const result = codec.validate(u, t.appendContext(c, String(i), codec, u));
        if (result._tag === 'Left') errors.push(...result.left);
        else parts.push(result.right);
      });
      return errors.length > 0 ? t.failures(errors) : t.success(mergeParts(u, parts));
    },
    (a) => mergeParts(a, codecs.map((codec) => codec.encode(a))),
    [...codecs],
  );
}

/** The property names an object codec (`t.type`, `t.partial`, `struct`, intersections) declares. */
const declaredKeys = (codec: t.Mixed): ReadonlyArray<string> => {
  const shape = codec as t.Mixed & {
    readonly props?: Readonly<Record<string, unknown>>;
    readonly optional?: Readonly<Record<string, unknown>>;
    readonly types?: ReadonlyArray<t.Mixed>;
  };
  if (shape.props) return [...Object.keys(shape.props), ...Object.keys(shape.optional ?? {})];
  if (shape.types) return shape.types.flatMap(declaredKeys);
  return [];
};

/**
 * A JSON object with declared properties plus any number of other properties of one type: what
 * a Rust struct with a `#[serde(flatten)]` map looks like. The generated type spells it
 * `{ declared } & ({ [key in string]?: V })`; this codec gives the declared properties their own
 * codecs and checks only the *other* properties against `V`.
 */
export class WithRestType<N extends t.Mixed, R extends t.Mixed> extends t.Type<
  t.TypeOf<N> & { [key: string]: t.TypeOf<R> },
  t.OutputOf<N> & { [key: string]: t.OutputOf<R> },
  unknown
> {
  /** Identifies the codec kind, like io-ts' own `_tag`s. */
  readonly _tag = 'WithRestType' as const;
  /** The property names the declared part has. */
  readonly declared: ReadonlySet<string>;
  constructor(
    name: string,
    /** Codec of the declared properties. */
    readonly named: N,
    /** Codec of each other property's value. */
    readonly rest: R,
  ) {
    const declared = new Set(declaredKeys(named));
    const restKeys = (o: Readonly<Record<string, unknown>>): string[] => Object.keys(o).filter((k) => !declared.has(k));
    super(
      name,
      (u): u is t.TypeOf<N> & { [key: string]: t.TypeOf<R> } =>
        named.is(u) && t.UnknownRecord.is(u) && restKeys(u).every((k) => rest.is(u[k])),
      (u, c) => {
        const namedResult = named.validate(u, c);
        if (namedResult._tag === 'Left' || !t.UnknownRecord.is(u)) return namedResult;
        const errors: t.ValidationError[] = [];
        const decoded: Record<string, unknown> = { ...(namedResult.right as Record<string, unknown>) };
        for (const k of restKeys(u)) {
          const result = rest.validate(u[k], t.appendContext(c, k, rest, u[k]));
          if (result._tag === 'Left') errors.push(...result.left);
          else decoded[k] = result.right;
        }
        return errors.length > 0 ? t.failures(errors) : t.success(decoded as t.TypeOf<N> & { [key: string]: t.TypeOf<R> });
      },
      (a) => {
        const encoded: Record<string, unknown> = { ...(named.encode(a) as Record<string, unknown>) };
        for (const k of restKeys(a)) encoded[k] = rest.encode(a[k]);
        return encoded as t.OutputOf<N> & { [key: string]: t.OutputOf<R> };
      },
    );
    this.declared = declared;
  }
}

/** Static type of {@link withRest}. */
export type WithRestC<N extends t.Mixed, R extends t.Mixed> = WithRestType<N, R>;

/**
 * Codec of `{ declared } & ({ [key in string]?: V })`: `named` decodes the declared
 * properties, `rest` every other property.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { withRest } from '@wework/codex-protocol';
 * const Config = withRest(t.type({ model: t.string }), t.union([t.undefined, t.number]));
 * Config.decode({ model: 'm', depth: 2 }); // right({ model: 'm', depth: 2 })
 * ```
 */
export const withRest = <N extends t.Mixed, R extends t.Mixed>(named: N, rest: R, name?: string): WithRestC<N, R> =>
  new WithRestType(name ?? `(${named.name} & { [key: string]: ${rest.name} })`, named, rest);
