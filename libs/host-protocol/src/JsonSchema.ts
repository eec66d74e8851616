/**
 * io-ts codecs as JSON Schema 2020-12: the schema accepts exactly the JSON values the codec decodes.
 *
 * - `t.type` lists its properties; one is `required` when its codec refuses a missing value (io-ts
 *   passes `undefined` for it: `t.unknown`, `t.undefined`, a union with `t.undefined` or the Codex
 *   `nullable` take it). Extra properties are allowed, as io-ts ignores them (`t.exact` / `t.strict`
 *   strip them, so they are allowed there too).
 * - `t.partial` lists its properties, none required; a property typed `t.undefined` is `false`: it
 *   must be absent, as no JSON value decodes.
 * - `t.intersection` is `allOf` (plain objects merged into one), `t.union` is `anyOf` (plain types as
 *   one `type` list, constants as one `enum`), `t.keyof` an `enum`, `t.literal` a `const`.
 * - `t.array` / `t.readonlyArray` are `items`; `t.tuple` is `prefixItems` with `minItems` up to its last
 *   element that refuses a missing value (io-ts strips extra elements, so they are allowed).
 * - `t.record` over `t.string` is `additionalProperties`; over literals or a `t.keyof` it lists those
 *   keys (io-ts drops the others).
 * - `t.null`, `t.unknown` (`{}`), `t.string`, `t.number`, `t.boolean`, `t.Int` (`integer`),
 *   `t.UnknownRecord`, `t.UnknownArray`; `t.undefined`, `t.void` and `t.never` are `false`.
 * - A refinement or brand is its base type plus its {@link Constraints} when it is a
 *   `constrainedString` / `constrainedNumber`; any other predicate cannot be read, so the schema is the
 *   base type and the result lists it as an approximation (or, with `refinements: 'exact'`, an error).
 * - `t.recursion` and every codec with a PascalCase `name` become `$defs` entries under that name
 *   (`Name2`, … when two codecs share one), referenced with `$ref`.
 * - The Codex codecs of `@wework/codex-protocol`: `struct` (optional properties also take `null`,
 *   which it reads as absent), `nullable` (`null`, or missing), `openKeyof` (any string; the known ones
 *   listed first), `openUnion` (the known variants, or an object whose tag is another string),
 *   `withRest` (the declared properties, and every other one of the rest's type), `jsonBigInt`
 *   (`integer`).
 *
 * Where JSON cannot carry what io-ts takes (`undefined`, `NaN`, a `bigint`), the schema speaks of JSON
 * only. Any other codec kind (`t.Function`, `t.bigint`, a custom `t.Type` without a known `_tag`) is an
 * {@link UnsupportedCodec} error, never a schema that accepts everything.
 *
 * Every function here is pure: codecs in, schemas or errors out. (A codec is asked whether it decodes
 * `undefined` or `null`; codecs are pure.)
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Constraints } from './Constrained.js';
import { acceptsAll, ANY, allOf, anyOf, defRef, objectSchema, refine, type JsonSchema, type JsonSchemaObject } from './internal/schemaAlgebra.js';

export { defRef, type Json, type JsonSchema, type JsonSchemaObject, type JsonSchemaType } from './internal/schemaAlgebra.js';

/** The dialect of every schema written here. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A codec of a kind JSON Schema cannot describe here (`t.Function`, `t.bigint`, an unknown custom `t.Type`). */
export interface UnsupportedCodec {
  readonly _tag: 'UnsupportedCodec';
  /** Where it was met: the definition or root it is in, then property names (`[]` for an array's items). */
  readonly path: string;
  /** The codec's `name`. */
  readonly codec: string;
  /** The codec's `_tag`, or `unknown` when it has none. */
  readonly kind: string;
}

/** A `t.record` whose domain is neither `t.string` nor string literals (a refined key cannot be said). */
export interface UnsupportedRecordDomain {
  readonly _tag: 'UnsupportedRecordDomain';
  readonly path: string;
  readonly codec: string;
  /** The domain codec's `name`. */
  readonly domain: string;
}

/** With `refinements: 'exact'`: a refinement whose predicate the converter cannot read. */
export interface OpaqueRefinement {
  readonly _tag: 'OpaqueRefinement';
  readonly path: string;
  readonly codec: string;
}

/** Two roots of {@link jsonSchemaDefs} with one key, or a key that is not a plain name. */
export interface InvalidRootKey {
  readonly _tag: 'InvalidRootKey';
  readonly key: string;
}

/** Why codecs could not be converted. */
export type JsonSchemaError = UnsupportedCodec | UnsupportedRecordDomain | OpaqueRefinement | InvalidRootKey;

/** A place where the schema accepts more than the codec: a refinement whose predicate cannot be read. */
export interface JsonSchemaApproximation {
  readonly _tag: 'OpaqueRefinement';
  readonly path: string;
  readonly codec: string;
}

/** How to convert. */
export interface JsonSchemaOptions {
  /**
   * What a refinement without readable constraints becomes: its base type, listed in `approximations`
   * (`'base'`, the default), or an {@link OpaqueRefinement} error (`'exact'`).
   */
  readonly refinements?: 'base' | 'exact';
}

/** Converted codecs: the definitions by key, and where the schemas accept more than the codecs. */
export interface JsonSchemaDefs {
  readonly defs: { readonly [key: string]: JsonSchema };
  readonly approximations: ReadonlyArray<JsonSchemaApproximation>;
}

/** A converted codec as one document (`$schema`, the schema, its `$defs`), and its approximations. */
export interface JsonSchemaDocument {
  readonly schema: JsonSchemaObject;
  readonly approximations: ReadonlyArray<JsonSchemaApproximation>;
}

/** The runtime shape of the codecs the converter reads, by `_tag` (io-ts' own and the Codex ones). */
type Node = t.Decoder<unknown, unknown> & {
  readonly name: string;
  readonly _tag?: string;
  readonly is: (u: unknown) => boolean;
  readonly value?: unknown;
  readonly keys?: { readonly [key: string]: unknown };
  readonly types?: ReadonlyArray<Node>;
  readonly props?: { readonly [key: string]: Node };
  readonly optional?: { readonly [key: string]: Node };
  readonly type?: Node;
  readonly domain?: Node;
  readonly codomain?: Node;
  readonly named?: Node;
  readonly rest?: Node;
  readonly union?: Node;
  readonly declared?: ReadonlySet<string>;
  readonly tag?: string;
  readonly known?: ReadonlyArray<string>;
  readonly constraints?: Constraints;
};

/** Kinds that are always written in place, whatever their name. */
const PLAIN_KINDS = new Set([
  'StringType',
  'NumberType',
  'BooleanType',
  'NullType',
  'UndefinedType',
  'VoidType',
  'UnknownType',
  'AnyType',
  'NeverType',
  'AnyDictionaryType',
  'AnyArrayType',
  'ObjectType',
  'LiteralType',
  'JsonBigIntType',
  'BigIntType',
  'FunctionType',
]);

const PASCAL_CASE = /^[A-Z][A-Za-z0-9_]*$/;
const ROOT_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The mutable state of one conversion; it never leaves {@link jsonSchemaDefs}. */
interface State {
  readonly options: Required<JsonSchemaOptions>;
  readonly names: Map<Node, string>;
  readonly taken: Set<string>;
  readonly defs: Map<string, JsonSchema>;
  readonly building: Set<string>;
  readonly errors: JsonSchemaError[];
  readonly approximations: JsonSchemaApproximation[];
}

const decodes = (codec: Node, value: unknown): boolean => E.isRight(codec.decode(value));

const isNamed = (codec: Node): boolean =>
  codec._tag === 'RecursiveType' || (codec._tag !== undefined && !PLAIN_KINDS.has(codec._tag) && codec !== (t.Int as unknown) && PASCAL_CASE.test(codec.name));

/** The `$defs` key of a named codec: its name, or its name and a number when another codec has it. */
const keyOf = (state: State, codec: Node): string => {
  const known = state.names.get(codec);
  if (known !== undefined) return known;
  const base = PASCAL_CASE.test(codec.name) ? codec.name : 'Recursive';
  let key = base;
  for (let n = 2; state.taken.has(key); n += 1) key = `${base}${n}`;
  state.taken.add(key);
  state.names.set(codec, key);
  return key;
};

const convert = (state: State, codec: Node, path: string): JsonSchema => {
  if (!isNamed(codec)) return describe(state, codec, path);
  const key = keyOf(state, codec);
  if (!state.defs.has(key) && !state.building.has(key)) {
    state.building.add(key);
    const schema = describe(state, codec, key);
    state.defs.set(key, schema);
    state.building.delete(key);
  }
  return { $ref: defRef(key) };
};

const unsupported = (state: State, codec: Node, path: string): JsonSchema => {
  state.errors.push({ _tag: 'UnsupportedCodec', path, codec: codec.name, kind: codec._tag ?? 'unknown' });
  return false;
};

const inner = (state: State, codec: Node, key: 'type' | 'domain' | 'codomain' | 'named' | 'rest' | 'union', path: string): Node | null => {
  const found = codec[key];
  if (found === undefined) state.errors.push({ _tag: 'UnsupportedCodec', path, codec: codec.name, kind: codec._tag ?? 'unknown' });
  return found ?? null;
};

const members = (codec: Node): ReadonlyArray<Node> => codec.types ?? [];

const properties = (state: State, props: { readonly [key: string]: Node }, path: string, schemaOf: (codec: Node, schema: JsonSchema) => JsonSchema): { [key: string]: JsonSchema } => {
  const out: { [key: string]: JsonSchema } = {};
  for (const [key, codec] of Object.entries(props)) Object.defineProperty(out, key, { value: schemaOf(codec, convert(state, codec, `${path}.${key}`)), enumerable: true, writable: true, configurable: true });
  return out;
};

/** Keys that a missing value does not satisfy: the required ones. */
const requiredKeys = (props: { readonly [key: string]: Node }): ReadonlyArray<string> => Object.entries(props).filter(([, codec]) => !decodes(codec, undefined)).map(([key]) => key);

/** The string keys of a record's domain when they are enumerable (literals, `t.keyof`, a union of them), as io-ts reads them. */
const domainKeys = (domain: Node): ReadonlyArray<string> | null => {
  if (domain._tag === 'LiteralType') return typeof domain.value === 'string' ? [domain.value] : null;
  if (domain._tag === 'KeyofType') return Object.keys(domain.keys ?? {});
  if (domain._tag === 'UnionType') {
    const keys = members(domain).map(domainKeys);
    return keys.every((k) => k !== null) ? (keys as ReadonlyArray<ReadonlyArray<string>>).flat() : null;
  }
  return null;
};

const constraintsSchema = (constraints: Constraints): JsonSchemaObject => {
  if (constraints.type === 'string') {
    const { type: _type, ...keywords } = constraints;
    return { type: 'string', ...keywords };
  }
  const { type: _type, integer, ...bounds } = constraints;
  return { type: integer === true ? 'integer' : 'number', ...bounds };
};

const describe = (state: State, codec: Node, path: string): JsonSchema => {
  switch (codec._tag) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UndefinedType':
    case 'VoidType':
    case 'NeverType':
      return false;
    case 'UnknownType':
    case 'AnyType':
      return ANY;
    case 'AnyDictionaryType':
      return { type: 'object' };
    case 'AnyArrayType':
      return { type: 'array' };
    case 'ObjectType':
      return { type: ['object', 'array'] };
    case 'JsonBigIntType':
      return { type: 'integer' };
    case 'LiteralType': {
      const value = codec.value;
      if (typeof value === 'string') return { type: 'string', const: value };
      if (typeof value === 'number') return { type: 'number', const: value };
      if (typeof value === 'boolean') return { type: 'boolean', const: value };
      return unsupported(state, codec, path);
    }
    case 'KeyofType':
      return { type: 'string', enum: Object.keys(codec.keys ?? {}) };
    case 'OpenKeyofType':
      return { anyOf: [{ type: 'string', enum: Object.keys(codec.keys ?? {}) }, { type: 'string' }] };
    case 'InterfaceType': {
      const props = codec.props ?? {};
      const required = properties(state, props, path, (_, schema) => schema);
      // A Codex `struct`'s optional properties: absent, `null` (read as absent), or a value.
      const optional = properties(state, codec.optional ?? {}, path, (prop, schema) => (prop.is(null) ? schema : anyOf([schema, { type: 'null' }])));
      return objectSchema({ ...required, ...optional }, requiredKeys(props));
    }
    case 'PartialType':
      return objectSchema(
        properties(state, codec.props ?? {}, path, (_, schema) => schema),
        [],
      );
    case 'IntersectionType':
      return allOf(members(codec).map((member, i) => convert(state, member, members(codec).length > 1 ? `${path}&${i}` : path)));
    case 'UnionType':
      return anyOf(members(codec).map((member, i) => convert(state, member, `${path}|${i}`)));
    case 'OpenUnionType': {
      const union = inner(state, codec, 'union', path);
      if (union === null) return false;
      const tag = codec.tag ?? '';
      const other: JsonSchemaObject = { type: 'object', required: [tag], properties: { [tag]: { type: 'string', not: { enum: [...(codec.known ?? [])] } } } };
      return { anyOf: [...members(union).map((member, i) => convert(state, member, `${path}|${i}`)), other] };
    }
    case 'NullableType': {
      const type = inner(state, codec, 'type', path);
      return type === null ? false : anyOf([convert(state, type, path), { type: 'null' }]);
    }
    case 'WithRestType': {
      const named = inner(state, codec, 'named', path);
      const rest = inner(state, codec, 'rest', path);
      if (named === null || rest === null) return false;
      const declared = Object.fromEntries([...(codec.declared ?? [])].map((key) => [key, ANY]));
      const others = convert(state, rest, `${path}.*`);
      return allOf([convert(state, named, path), acceptsAll(others) ? ANY : { type: 'object', properties: declared, additionalProperties: others }]);
    }
    case 'ArrayType':
    case 'ReadonlyArrayType': {
      const item = inner(state, codec, 'type', path);
      if (item === null) return false;
      const items = convert(state, item, `${path}[]`);
      return acceptsAll(items) ? { type: 'array' } : { type: 'array', items };
    }
    case 'TupleType': {
      const elements = members(codec);
      const minItems = elements.reduce((min, element, i) => (decodes(element, undefined) ? min : i + 1), 0);
      return { type: 'array', prefixItems: elements.map((element, i) => convert(state, element, `${path}[${i}]`)), ...(minItems > 0 ? { minItems } : {}) };
    }
    case 'DictionaryType': {
      const domain = inner(state, codec, 'domain', path);
      const codomain = inner(state, codec, 'codomain', path);
      if (domain === null || codomain === null) return false;
      const keys = domainKeys(domain);
      if (keys !== null) {
        const props = Object.fromEntries(keys.map((key) => [key, codomain]));
        return objectSchema(
          properties(state, props, path, (_, schema) => schema),
          requiredKeys(props),
        );
      }
      if (domain._tag !== 'StringType') {
        state.errors.push({ _tag: 'UnsupportedRecordDomain', path, codec: codec.name, domain: domain.name });
        return false;
      }
      // io-ts takes an array too when the values are `t.any`.
      if (codomain._tag === 'AnyType') return { type: ['object', 'array'] };
      const values = convert(state, codomain, `${path}.*`);
      return acceptsAll(values) ? { type: 'object' } : { type: 'object', additionalProperties: values };
    }
    case 'ReadonlyType':
    case 'ExactType': {
      const type = inner(state, codec, 'type', path);
      return type === null ? false : convert(state, type, path);
    }
    case 'RecursiveType': {
      // io-ts gives the definition the recursion's name: it is this definition's body, not another one.
      const type = inner(state, codec, 'type', path);
      return type === null ? false : describe(state, type, path);
    }
    case 'RefinementType': {
      if (codec === (t.Int as unknown)) return { type: 'integer' };
      const base = inner(state, codec, 'type', path);
      if (base === null) return false;
      const schema = convert(state, base, path);
      if (codec.constraints !== undefined) return refine(schema, constraintsSchema(codec.constraints));
      if (state.options.refinements === 'exact') state.errors.push({ _tag: 'OpaqueRefinement', path, codec: codec.name });
      else state.approximations.push({ _tag: 'OpaqueRefinement', path, codec: codec.name });
      return schema;
    }
    default:
      return unsupported(state, codec, path);
  }
};

/**
 * Converts several codecs into one set of definitions: each root under its key (a plain name), and every
 * named codec they reach under its name. A root whose codec has the root's key as its name is that
 * definition itself; another root is its schema (a `$ref` when its codec is named otherwise).
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * const Point = t.type({ x: t.number, y: t.number }, 'Point');
 * jsonSchemaDefs([['MoveParams', t.type({ to: Point })]]);
 * // right({ defs: { MoveParams: { type: 'object', properties: { to: { $ref: '#/$defs/Point' } }, required: ['to'] },
 * //                 Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
 * //         approximations: [] })
 * ```
 */
export function jsonSchemaDefs(
  roots: ReadonlyArray<readonly [string, t.Mixed]>,
  options: JsonSchemaOptions = {},
): E.Either<ReadonlyArray<JsonSchemaError>, JsonSchemaDefs> {
  const state: State = {
    options: { refinements: options.refinements ?? 'base' },
    names: new Map(),
    taken: new Set(),
    defs: new Map(),
    building: new Set(),
    errors: [],
    approximations: [],
  };
  for (const [key, codec] of roots) {
    if (!ROOT_KEY.test(key) || state.taken.has(key)) state.errors.push({ _tag: 'InvalidRootKey', key });
    state.taken.add(key);
    const node = codec as unknown as Node;
    if (isNamed(node) && node.name === key && !state.names.has(node)) state.names.set(node, key);
  }
  for (const [key, codec] of roots) {
    const schema = convert(state, codec as unknown as Node, key);
    if (!(typeof schema === 'object' && schema.$ref === defRef(key))) state.defs.set(key, schema);
  }
  if (state.errors.length > 0) return E.left(state.errors);
  const defs: { [key: string]: JsonSchema } = {};
  for (const key of [...state.defs.keys()].sort()) defs[key] = state.defs.get(key) ?? false;
  return E.right({ defs, approximations: state.approximations });
}

/**
 * Converts one codec into a standalone JSON Schema 2020-12 document (`$schema`, the schema, `$defs`).
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * toJsonSchema(t.type({ id: t.string, tags: t.array(t.string) }));
 * // right({ schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object',
 * //   properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['id', 'tags'] },
 * //   approximations: [] })
 * ```
 */
export function toJsonSchema(codec: t.Mixed, options: JsonSchemaOptions = {}): E.Either<ReadonlyArray<JsonSchemaError>, JsonSchemaDocument> {
  const node = codec as unknown as Node;
  const named = isNamed(node);
  const rootKey = named ? node.name : 'Root';
  const converted = jsonSchemaDefs([[rootKey, codec]], options);
  if (E.isLeft(converted)) return converted;
  const { [rootKey]: root = false, ...others } = converted.right.defs;
  const body: JsonSchemaObject = root === true ? {} : root === false ? { not: {} } : root;
  const defs = named ? converted.right.defs : others;
  const schema: JsonSchemaObject = named
    ? { $schema: JSON_SCHEMA_DIALECT, $ref: defRef(rootKey), $defs: defs }
    : { $schema: JSON_SCHEMA_DIALECT, ...body, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
  return E.right({ schema, approximations: converted.right.approximations });
}
