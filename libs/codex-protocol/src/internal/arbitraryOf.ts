/**
 * Derives fast-check arbitraries from io-ts codecs, for the codec kinds the generated codecs
 * use. The values are valid for the codec and faithful to JSON: finite numbers without `-0`,
 * bigints in the safe integer range, no `undefined` entries in records, objects with the
 * ordinary prototype, no `__proto__` keys.
 *
 * Every function here is pure: arbitraries are descriptions; fast-check supplies randomness.
 */
import * as fc from 'fast-check';
import type * as t from 'io-ts';

/** Bounds of the derived values. */
export interface ArbitraryOptions {
  /** How many levels of a recursive codec (such as `JsonValue`) to unfold; default 2. */
  readonly maxDepth?: number;
  /** Most items of an array and most keys of a record; default 3. */
  readonly maxItems?: number;
}

/** The runtime shape of the io-ts codecs the deriver understands, by `_tag`. */
type Node = t.Decoder<unknown, unknown> & {
  readonly _tag?: string;
  readonly value?: unknown;
  readonly keys?: Readonly<Record<string, unknown>>;
  readonly types?: ReadonlyArray<Node>;
  readonly props?: Readonly<Record<string, Node>>;
  readonly type?: Node;
  readonly domain?: Node;
  readonly codomain?: Node;
  readonly optional?: Readonly<Record<string, Node>>;
  readonly named?: Node;
  readonly rest?: Node;
  readonly union?: Node;
  readonly declared?: ReadonlySet<string>;
};

interface Context {
  readonly maxDepth: number;
  readonly maxItems: number;
  /** How deep inside recursive codecs we are. */
  readonly depth: number;
  /** Past maxDepth: containers are generated empty so that recursion stops. */
  readonly exhausted: boolean;
}

const maxSafe = 2n ** 53n - 1n;

const json: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const finiteNumber: fc.Arbitrary<number> = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
const recordKey: fc.Arbitrary<string> = fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__');

/**
 * Derives an arbitrary of valid values of a codec.
 * @throws Error for a codec kind the deriver does not know (a programming error, found at once)
 * @example
 * ```ts
 * import * as fc from 'fast-check';
 * import { codecs } from '@wework/codex-protocol';
 * import { arbitraryOf } from '@wework/codex-protocol/testing';
 * fc.assert(fc.property(arbitraryOf(codecs.ToolRequestUserInputParams), (p) => p.questions.length >= 0));
 * ```
 */
export const arbitraryOf = <C extends t.Mixed>(codec: C, options: ArbitraryOptions = {}): fc.Arbitrary<t.TypeOf<C>> =>
  derive(codec as unknown as Node, {
    maxDepth: options.maxDepth ?? 2,
    maxItems: options.maxItems ?? 3,
    depth: 0,
    exhausted: false,
  }) as fc.Arbitrary<t.TypeOf<C>>;

const derive = (codec: Node, ctx: Context): fc.Arbitrary<unknown> => {
  switch (codec._tag) {
    case 'StringType':
      return fc.string();
    case 'NumberType':
      return finiteNumber;
    case 'BooleanType':
      return fc.boolean();
    case 'NullType':
      return fc.constant(null);
    case 'UndefinedType':
      return fc.constant(undefined);
    case 'UnknownType':
      return json;
    case 'JsonBigIntType':
      return fc.bigInt({ min: -maxSafe, max: maxSafe });
    case 'LiteralType':
      return fc.constant(codec.value);
    case 'OpenUnionType':
      return derive(inner(codec, 'union'), ctx);
    case 'OpenKeyofType':
    case 'KeyofType':
      return fc.constantFrom(...Object.keys(codec.keys ?? {}));
    case 'AnyDictionaryType':
      return ctx.exhausted ? fc.constant({}) : fc.dictionary(recordKey, json, { maxKeys: ctx.maxItems, noNullPrototype: true });
    case 'UnionType':
      return fc.oneof(...members(codec).map((member) => derive(member, ctx)));
    case 'IntersectionType':
      return fc.tuple(...members(codec).map((member) => derive(member, ctx))).map(mergeParts);
    case 'NullableType':
      return fc.oneof(fc.constant(null), derive(inner(codec, 'type'), ctx));
    case 'InterfaceType': {
      // Also a `struct`: required `props` plus `optional` ones.
      const required = deriveProps(codec.props, ctx);
      if (!codec.optional) return fc.record(required, { noNullPrototype: true });
      const optional = ctx.exhausted ? {} : deriveProps(codec.optional, ctx);
      return fc.record({ ...optional, ...required }, { requiredKeys: Object.keys(required), noNullPrototype: true });
    }
    case 'PartialType':
      return ctx.exhausted ? fc.constant({}) : fc.record(deriveProps(codec.props, ctx), { requiredKeys: [], noNullPrototype: true });
    case 'ArrayType':
      return ctx.exhausted ? fc.constant([]) : fc.array(derive(inner(codec, 'type'), ctx), { maxLength: ctx.maxItems });
    case 'DictionaryType': {
      if (ctx.exhausted) return fc.constant({});
      const domain = inner(codec, 'domain');
      const keys = domain._tag === 'StringType' ? recordKey : (derive(domain, ctx) as fc.Arbitrary<string>);
      return fc.dictionary(keys, derive(withoutUndefined(inner(codec, 'codomain')), ctx), {
        maxKeys: ctx.maxItems,
        noNullPrototype: true,
      });
    }
    case 'WithRestType': {
      const declared = codec.declared ?? new Set<string>();
      const rest = ctx.exhausted
        ? fc.constant({})
        : fc.dictionary(
            recordKey.filter((k) => !declared.has(k)),
            derive(withoutUndefined(inner(codec, 'rest')), ctx),
            { maxKeys: ctx.maxItems, noNullPrototype: true },
          );
      return fc.tuple(derive(inner(codec, 'named'), ctx), rest).map(mergeParts);
    }
    case 'RecursiveType': {
      if (ctx.exhausted) throw new Error(`arbitraryOf: cannot bound the recursion of ${codec.name}`);
      const depth = ctx.depth + 1;
      return derive(inner(codec, 'type'), { ...ctx, depth, exhausted: depth > ctx.maxDepth });
    }
    default:
      throw new Error(`arbitraryOf: unsupported codec ${codec.name} (${codec._tag ?? 'no _tag'})`);
  }
};

const members = (codec: Node): ReadonlyArray<Node> => codec.types ?? [];

const inner = (codec: Node, key: 'type' | 'domain' | 'codomain' | 'named' | 'rest' | 'union'): Node => {
  const found = codec[key];
  if (!found) throw new Error(`arbitraryOf: ${codec.name} has no ${key}`);
  return found;
};

/** A record's values as JSON carries them: `A | undefined` becomes `A`. */
const withoutUndefined = (codec: Node): Node => {
  if (codec._tag !== 'UnionType') return codec;
  const kept = members(codec).filter((member) => member._tag !== 'UndefinedType');
  const [only] = kept;
  return kept.length === 1 && only ? only : codec;
};

const deriveProps = (props: Readonly<Record<string, Node>> | undefined, ctx: Context): Record<string, fc.Arbitrary<unknown>> =>
  Object.fromEntries(Object.entries(props ?? {}).map(([key, prop]) => [key, derive(prop, ctx)]));

/** Merges the parts of an intersection the way io-ts does: objects are combined, else the first part wins. */
const mergeParts = (parts: ReadonlyArray<unknown>): unknown =>
  parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))
    ? Object.assign({}, ...parts)
    : parts[0];
