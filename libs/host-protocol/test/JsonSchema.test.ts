/**
 * io-ts codecs as JSON Schema 2020-12: the schema of each construct, what cannot be converted (an error,
 * never a schema that accepts everything), and — for a codec of every construct — the property that the
 * codec decodes a JSON value exactly when ajv validates it against the schema.
 */
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { describe, expect, it } from 'vitest';
import { intersection, jsonBigInt, nullable, openKeyof, openUnion, optionalRecord, struct, withRest } from '@wework/codex-protocol';
import { constrainedNumber, constrainedString } from '../src/Constrained.js';
import { jsonSchemaDefs, toJsonSchema, type JsonSchemaObject } from '../src/JsonSchema.js';
import { decodes, mutateAll, mutationsArbitrary, newAjv, stringsOf, type Json } from './schemaTesting.js';

const schemaOf = (codec: t.Mixed): JsonSchemaObject => {
  const converted = toJsonSchema(codec);
  if (E.isLeft(converted)) throw new Error(JSON.stringify(converted.left));
  return converted.right.schema;
};

const body = (codec: t.Mixed): unknown => {
  const { $schema: _, ...rest } = schemaOf(codec);
  return rest;
};

interface Tree {
  readonly label: string;
  readonly children: ReadonlyArray<Tree>;
}
const Tree: t.Type<Tree> = t.recursion('Tree', () => t.type({ label: t.string, children: t.readonlyArray(Tree) }));

const Point = t.type({ x: t.number, y: t.number }, 'Point');

/** A codec of every construct the converter knows, with valid values to mutate. */
const samples: ReadonlyArray<readonly [string, t.Mixed, ReadonlyArray<Json>]> = [
  ['t.type with optional-by-codec props', t.type({ id: t.string, note: t.unknown, maybe: t.union([t.undefined, t.number]) }), [{ id: 'a' }, { id: 'b', note: [1], maybe: 2 }]],
  ['t.partial with an absent-only prop', t.partial({ name: t.string, gone: t.undefined }), [{}, { name: 'n' }]],
  ['t.intersection', t.intersection([t.type({ a: t.string }), t.partial({ b: t.boolean })]), [{ a: 'x' }, { a: 'x', b: false }]],
  ['t.union of objects and literals', t.union([t.type({ kind: t.literal('one'), n: t.number }), t.literal('none'), t.null]), [{ kind: 'one', n: 1 }, 'none', null]],
  ['t.keyof', t.keyof({ red: null, green: null }), ['red', 'green']],
  ['t.literal number and boolean', t.union([t.literal(1), t.literal(true)]), [1, true]],
  ['t.array / t.readonlyArray', t.type({ a: t.array(t.string), b: t.readonlyArray(t.number) }), [{ a: [], b: [1, 2] }]],
  ['t.record over strings', t.record(t.string, t.number), [{}, { a: 1, b: 2 }]],
  ['t.record over literals', t.record(t.keyof({ a: null, b: null }), t.boolean), [{ a: true, b: false }]],
  ['t.record over literals of optional values', t.record(t.union([t.literal('a'), t.literal('b')]), t.union([t.string, t.undefined])), [{}, { a: 'x' }]],
  ['t.tuple', t.tuple([t.string, t.number, t.unknown]), [['a', 1], ['a', 1, null]]],
  ['t.null / t.undefined / t.unknown', t.type({ n: t.null, u: t.undefined, k: t.unknown }), [{ n: null }, { n: null, k: { any: 'thing' } }]],
  ['t.string / t.number / t.boolean / t.Int', t.type({ s: t.string, n: t.number, b: t.boolean, i: t.Int }), [{ s: '', n: 1.5, b: true, i: 3 }]],
  ['t.UnknownRecord / t.UnknownArray / t.object', t.type({ r: t.UnknownRecord, a: t.UnknownArray, o: t.object }), [{ r: {}, a: [1], o: [] }]],
  ['constrained string and number', t.type({ s: constrainedString({ minLength: 2, maxLength: 3, pattern: '^[a-z😀]+$' }, 'Short'), n: constrainedNumber({ integer: true, minimum: 1, maximum: 5 }, 'Small') }), [{ s: 'ab', n: 1 }, { s: '😀😀😀', n: 5 }]],
  ['t.exact / t.strict / t.readonly', t.type({ e: t.exact(t.type({ a: t.string })), s: t.strict({ b: t.number }), r: t.readonly(t.type({ c: t.boolean })) }), [{ e: { a: '' }, s: { b: 0 }, r: { c: true } }]],
  ['t.recursion', Tree, [{ label: 'root', children: [{ label: 'leaf', children: [] }] }]],
  ['named codecs', t.type({ from: Point, to: Point }), [{ from: { x: 0, y: 0 }, to: { x: 1, y: 2 } }]],
  ['struct', struct({ id: t.string }, { note: t.string, count: nullable(t.number) }), [{ id: 'a' }, { id: 'a', note: null, count: 2 }]],
  ['nullable', t.type({ n: nullable(t.string) }), [{}, { n: null }, { n: 'x' }]],
  ['openKeyof', openKeyof({ on: null, off: null }, 'Switch'), ['on', 'dimmed']],
  ['openUnion', openUnion('type', ['circle', 'square'], [t.type({ type: t.literal('circle'), r: t.number }), t.type({ type: t.literal('square'), side: t.number })], 'Shape'), [{ type: 'circle', r: 1 }, { type: 'hexagon', n: 6 }]],
  ['withRest', withRest(t.type({ model: t.string }), t.union([t.undefined, t.number])), [{ model: 'm' }, { model: 'm', depth: 2 }]],
  ['optionalRecord and jsonBigInt', t.type({ r: optionalRecord(t.string), big: jsonBigInt }), [{ r: { a: 'b' }, big: 42 }]],
  ['codex intersection', intersection([t.type({ id: t.string }), struct({}, { note: t.string })]), [{ id: 'a' }, { id: 'a', note: null }]],
];

describe('toJsonSchema', () => {
  it('writes t.type props as required unless their codec takes a missing value, and allows extra properties', () => {
    expect(body(t.type({ id: t.string, note: t.unknown, gone: t.undefined }))).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, note: {}, gone: false },
      required: ['id'],
    });
  });

  it('writes a t.partial prop typed t.undefined as false: it must be absent', () => {
    expect(body(t.partial({ version: t.undefined, name: t.string }))).toEqual({ type: 'object', properties: { version: false, name: { type: 'string' } } });
  });

  it('merges plain intersections, and writes unions as type lists, enums or anyOf', () => {
    expect(body(t.intersection([t.type({ a: t.string }), t.partial({ b: t.number })]))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
    });
    expect(body(t.union([t.string, t.null]))).toEqual({ type: ['string', 'null'] });
    expect(body(t.union([t.literal('a'), t.literal('b'), t.null]))).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(body(t.keyof({ x: null, y: null }))).toEqual({ type: 'string', enum: ['x', 'y'] });
  });

  it('writes named codecs and recursions as $defs, referenced by name', () => {
    expect(schemaOf(t.type({ at: Point }))).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { at: { $ref: '#/$defs/Point' } },
      required: ['at'],
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
    });
    expect(schemaOf(Tree)).toMatchObject({
      $ref: '#/$defs/Tree',
      $defs: { Tree: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    });
  });

  it('numbers two different codecs of one name', () => {
    const Other = t.type({ z: t.number }, 'Point');
    const defs = jsonSchemaDefs([['Pair', t.type({ a: Point, b: Other })]]);
    expect(E.isRight(defs) && Object.keys(defs.right.defs).sort()).toEqual(['Pair', 'Point', 'Point2']);
  });

  it('writes the constraints a constrained refinement carries, and t.Int as an integer', () => {
    expect(body(constrainedString({ minLength: 1, maxLength: 8, pattern: '^[a-z]+$' }, 'slug'))).toEqual({ type: 'string', minLength: 1, maxLength: 8, pattern: '^[a-z]+$' });
    expect(body(constrainedNumber({ integer: true, minimum: 0 }, 'count'))).toEqual({ type: 'integer', minimum: 0 });
    expect(body(t.Int)).toEqual({ type: 'integer' });
  });

  it('writes a refinement whose predicate it cannot read as its base type and says so, or refuses it when asked to be exact', () => {
    const Even = t.brand(t.number, (n): n is t.Branded<number, { readonly Even: unique symbol }> => n % 2 === 0, 'Even');
    expect(toJsonSchema(t.type({ n: Even }))).toEqual(
      E.right({ schema: expect.objectContaining({ $defs: { Even: { type: 'number' } } }), approximations: [{ _tag: 'OpaqueRefinement', path: 'Even', codec: 'Even' }] }),
    );
    expect(toJsonSchema(t.type({ n: Even }), { refinements: 'exact' })).toEqual(E.left([{ _tag: 'OpaqueRefinement', path: 'Even', codec: 'Even' }]));
  });

  it('refuses what JSON Schema cannot describe, as typed errors', () => {
    expect(toJsonSchema(t.type({ f: t.Function }))).toEqual(E.left([{ _tag: 'UnsupportedCodec', path: 'Root.f', codec: 'Function', kind: 'FunctionType' }]));
    expect(toJsonSchema(t.type({ b: t.bigint }))).toEqual(E.left([{ _tag: 'UnsupportedCodec', path: 'Root.b', codec: 'bigint', kind: 'BigIntType' }]));
    const custom = new t.Type<string, string, unknown>('Custom', t.string.is, t.string.validate, t.identity);
    expect(toJsonSchema(t.array(custom))).toEqual(E.left([{ _tag: 'UnsupportedCodec', path: 'Root[]', codec: 'Custom', kind: 'unknown' }]));
    expect(toJsonSchema(t.record(t.Int as unknown as t.StringC, t.string))).toMatchObject({ left: [{ _tag: 'UnsupportedRecordDomain' }] });
    expect(jsonSchemaDefs([['a/b', t.string], ['X', t.string], ['X', t.number]])).toEqual(
      E.left([
        { _tag: 'InvalidRootKey', key: 'a/b' },
        { _tag: 'InvalidRootKey', key: 'X' },
      ]),
    );
  });

  it('writes the Codex codecs: nullable, open enums and unions, structs and maps with a rest', () => {
    expect(body(t.type({ n: nullable(t.string) }))).toEqual({ type: 'object', properties: { n: { type: ['string', 'null'] } } });
    expect(body(openKeyof({ on: null }, 'Switch'))).toMatchObject({ $defs: { Switch: { anyOf: [{ type: 'string', enum: ['on'] }, { type: 'string' }] } } });
    expect(body(struct({ id: t.string }, { note: t.string }))).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, note: { type: ['string', 'null'] } },
      required: ['id'],
    });
    expect(body(withRest(t.type({ model: t.string }), t.union([t.undefined, t.number])))).toEqual({
      allOf: [
        { type: 'object', properties: { model: { type: 'string' } }, required: ['model'] },
        { type: 'object', properties: { model: {} }, additionalProperties: { type: 'number' } },
      ],
    });
  });

  describe.each(samples)('%s: decodes ⇔ validates', (_, codec, valid) => {
    const ajv = newAjv();
    const validate = ajv.compile(schemaOf(codec));
    const pool = valid.flatMap(stringsOf);

    it('takes the valid values', () => {
      for (const value of valid) {
        expect(decodes(codec, value)).toBe(true);
        expect(validate(value)).toBe(true);
      }
    });

    it('agrees on mutations of them and on arbitrary JSON', () => {
      fc.assert(
        fc.property(fc.constantFrom(...valid), mutationsArbitrary, fc.jsonValue({ maxDepth: 3 }), (value, mutations, other) => {
          const mutated = JSON.parse(JSON.stringify(mutateAll(value, mutations, pool))) as unknown;
          expect(validate(mutated)).toBe(decodes(codec, mutated));
          const arbitrary = JSON.parse(JSON.stringify(other)) as unknown;
          expect(validate(arbitrary)).toBe(decodes(codec, arbitrary));
        }),
        { numRuns: 200 },
      );
    });
  });
});
