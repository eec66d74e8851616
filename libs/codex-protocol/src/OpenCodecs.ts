/**
 * Forward-compatible codecs: a newer Codex may add an enum literal or a variant of a tagged
 * union, and a message carrying one must still decode. The generated codecs of everything the
 * app-server sends use these two combinators; what only we send keeps strict codecs.
 *
 * - {@link openKeyof}: an enum of string literals that decodes any other string as an
 *   {@link UnknownLiteral}: the string itself, branded in the type.
 * - {@link openUnion}: a union of objects tagged by one property that decodes an object with an
 *   unknown tag as an {@link UnknownVariant} `{ _unknown: true, tag, literal, raw }`, whose tag
 *   property reads `undefined`.
 *
 * An unknown variant is an object whose tag property reads `undefined`, so that comparing the tag
 * with a known literal narrows to exactly the known variant and `switch (x.type)` keeps
 * type-checking; an unknown literal stays a string (code that treats the enum as text keeps
 * working). An exhaustive switch (`const never: never = x`) fails to compile until the unknown
 * case is handled. Both encode back to what was received.
 *
 * Every function here is pure: values in, values or an `Either` out.
 */
import * as t from 'io-ts';

declare const unknownLiteralBrand: unique symbol;

/**
 * An enum literal that this version of the protocol does not know: the string as received,
 * branded so that it is never mistaken for a known literal.
 */
export type UnknownLiteral = string & { readonly [unknownLiteralBrand]: 'UnknownLiteral' };

/**
 * A variant of a tagged union that this version of the protocol does not know: the name of the
 * tag property, its literal, and the object as received (encoded back unchanged). The tag
 * property itself reads `undefined`, so that it never compares equal to a known literal.
 */
export type UnknownVariant<Tag extends string> = {
  readonly _unknown: true;
  readonly tag: Tag;
  readonly literal: string;
  readonly raw: Readonly<Record<string, unknown>>;
} & { readonly [K in Tag]?: undefined };

/**
 * Any unknown variant, whatever its tag property: what {@link isUnknownVariant} narrows to. (An
 * `UnknownVariant<string>` would say that every property reads `undefined`.)
 */
export interface SomeUnknownVariant {
  readonly _unknown: true;
  readonly tag: string;
  readonly literal: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * Whether a decoded value is the unknown variant of an open tagged union. On a decoded union it
 * narrows both ways: to the unknown variant, or to the known ones.
 * @example
 * ```ts
 * import { codecs, isUnknownVariant } from '@wework/codex-protocol';
 * const item = codecs.ThreadItem.decode({ type: 'hologram', id: 'i1' });
 * if (item._tag === 'Right' && isUnknownVariant(item.right)) item.right.literal; // 'hologram'
 * ```
 */
export const isUnknownVariant = (value: unknown): value is SomeUnknownVariant =>
  typeof value === 'object' && value !== null && (value as { _unknown?: unknown })._unknown === true;

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** Static type of {@link openKeyof}. */
export class OpenKeyofType<D extends Record<string, unknown>> extends t.Type<keyof D | UnknownLiteral, string, unknown> {
  /** Identifies the codec kind, like io-ts' own `_tag`s. */
  readonly _tag = 'OpenKeyofType' as const;
  constructor(
    name: string,
    /** The known literals, as keys. */
    readonly keys: D,
  ) {
    super(
      name,
      (u): u is keyof D | UnknownLiteral => typeof u === 'string',
      (u, c) => (typeof u === 'string' ? t.success(u as keyof D | UnknownLiteral) : t.failure(u, c)),
      (a) => a as string,
    );
  }
}

/** Static type of {@link openKeyof}. */
export type OpenKeyofC<D extends Record<string, unknown>> = OpenKeyofType<D>;

/**
 * Whether a decoded enum value is one of the literals this version knows.
 * @example
 * ```ts
 * import { isKnownLiteral, openKeyof } from '@wework/codex-protocol';
 * const Status = openKeyof({ active: null, idle: null });
 * isKnownLiteral(Status, 'hibernating'); // false
 * ```
 */
export const isKnownLiteral = <D extends Record<string, unknown>>(codec: OpenKeyofC<D>, value: string): value is keyof D & string =>
  hasOwn(codec.keys, value);

/**
 * An enum of string literals that decodes an unknown string as an {@link UnknownLiteral}.
 * @example
 * ```ts
 * import { openKeyof } from '@wework/codex-protocol';
 * const Status = openKeyof({ active: null, idle: null });
 * Status.decode('idle'); // right('idle')
 * Status.decode('hibernating'); // right('hibernating'), typed UnknownLiteral
 * Status.decode(1); // left(...)
 * ```
 */
export const openKeyof = <D extends Record<string, unknown>>(keys: D, name?: string): OpenKeyofC<D> =>
  new OpenKeyofType(name ?? `OpenKeyof<${Object.keys(keys).join(' | ')}>`, keys);

/** Static type of {@link openUnion}. */
export class OpenUnionType<Tag extends string, CS extends [t.Mixed, t.Mixed, ...t.Mixed[]]> extends t.Type<
  t.TypeOf<CS[number]> | UnknownVariant<Tag>,
  t.OutputOf<CS[number]> | Readonly<Record<string, unknown>>,
  unknown
> {
  /** Identifies the codec kind, like io-ts' own `_tag`s. */
  readonly _tag = 'OpenUnionType' as const;
  constructor(
    name: string,
    /** The property whose string literal tells the variants apart. */
    readonly tag: Tag,
    /** The tag literals of the known variants. */
    readonly known: readonly string[],
    /** The known variants, as a plain io-ts union. */
    readonly union: t.UnionC<CS>,
  ) {
    super(
      name,
      (u): u is t.TypeOf<CS[number]> | UnknownVariant<Tag> => isUnknownVariant(u) || union.is(u),
      (u, c) => {
        // The known variants are validated as the plain union standing in this codec's place, so
        // that error paths and decode-issue formatting see an io-ts union (which adds no step).
        const last = c[c.length - 1];
        const decoded = union.validate(u, last === undefined ? c : [...c.slice(0, -1), { ...last, type: union }]);
        if (decoded._tag === 'Right' || typeof u !== 'object' || u === null) return decoded;
        const value: unknown = (u as Record<string, unknown>)[tag];
        if (typeof value !== 'string' || known.includes(value)) return decoded;
        const unknownVariant = { _unknown: true, tag, literal: value, raw: u } as UnknownVariant<Tag>;
        return t.success(unknownVariant);
      },
      (a) => (isUnknownVariant(a) ? a.raw : (union.encode(a) as t.OutputOf<CS[number]>)),
    );
  }
}

/** Static type of {@link openUnion}. */
export type OpenUnionC<Tag extends string, CS extends [t.Mixed, t.Mixed, ...t.Mixed[]]> = OpenUnionType<Tag, CS>;

/**
 * A union of objects tagged by `tag` that decodes an object with an unknown tag as an
 * {@link UnknownVariant}. Known variants decode (and fail) exactly as with `t.union`.
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { openUnion } from '@wework/codex-protocol';
 * const Shape = openUnion('type', ['circle', 'square'], [
 *   t.type({ type: t.literal('circle'), r: t.number }),
 *   t.type({ type: t.literal('square'), side: t.number }),
 * ]);
 * Shape.decode({ type: 'hexagon', n: 6 });
 * // right({ _unknown: true, tag: 'type', literal: 'hexagon', raw: { type: 'hexagon', n: 6 } })
 * ```
 */
export const openUnion = <Tag extends string, CS extends [t.Mixed, t.Mixed, ...t.Mixed[]]>(
  tag: Tag,
  known: readonly string[],
  codecs: CS,
  name?: string,
): OpenUnionC<Tag, CS> => {
  const union = t.union(codecs, name);
  return new OpenUnionType(name ?? union.name, tag, known, union);
};
