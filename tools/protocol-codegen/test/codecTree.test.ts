import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { openTree, printRuntime, printType, toCodecTree } from '../src/codecTree.mjs';
import { toIR } from '../src/protocolModel.mjs';

/** The runtime and static codec of a ts-rs type expression; references resolve to their name. */
const codecOf = (typeText: string): { runtime: string; type: string } => {
  const source = ts.createSourceFile('T.ts', `type T = ${typeText};`, ts.ScriptTarget.Latest, true);
  const alias = source.statements[0] as ts.TypeAliasDeclaration;
  const tree = toCodecTree(toIR(alias.type, (name: string) => name, 'T'), (id: string) => id);
  return { runtime: printRuntime(tree, 0, false), type: printType(tree, 0, false) };
};

describe('the ts-rs subset maps to io-ts', () => {
  test.each([
    ['string', 't.string', 't.StringC'],
    ['bigint', 'jsonBigInt', 'JsonBigIntC'],
    ['"a" | "b"', 't.keyof({ a: null, b: null })', 't.KeyofC<{ a: null; b: null }>'],
    ['"on-request"', 't.literal("on-request")', 't.LiteralC<"on-request">'],
    ['1', 't.literal(1)', 't.LiteralC<1>'],
    ['string | null | null', 'nullable(t.string)', 'NullableC<t.StringC>'],
    ['Foo | null | undefined', 't.union([t.undefined, nullable(Foo)])', 't.UnionC<[t.UndefinedC, NullableC<FooCodec>]>'],
    ['Array<Foo>', 't.array(Foo)', 't.ArrayC<FooCodec>'],
    ['unknown[]', 't.array(t.unknown)', 't.ArrayC<t.UnknownC>'],
    ['{ [key in string]?: Foo }', 'optionalRecord(Foo)', 'OptionalRecordC<FooCodec>'],
    ['Record<string, Foo>', 't.record(t.string, Foo)', 't.RecordC<t.StringC, FooCodec>'],
    ['Record<string, never>', 'emptyObject', 'EmptyObjectC'],
    ['{ [key: string]: unknown }', 't.UnknownRecord', 't.UnknownRecordC'],
    ['{ a: string, "b-c": number, }', 't.type({ a: t.string, "b-c": t.number })', 't.TypeC<{ a: t.StringC; "b-c": t.NumberC }>'],
    ['{ a: string, b?: Foo, }', 'struct({ a: t.string }, { b: Foo })', 'StructC<{ a: t.StringC }, { b: FooCodec }>'],
    ['{ a?: string, }', 'struct({}, { a: t.string })', 'StructC<Record<never, never>, { a: t.StringC }>'],
    [
      '{ id: string } & ({ "type": "x" } | { "type": "y", n: number })',
      'intersection([t.type({ id: t.string }), t.union([t.type({ type: t.literal("x") }), t.type({ type: t.literal("y"), n: t.number })])])',
      't.IntersectionC<[t.TypeC<{ id: t.StringC }>, t.UnionC<[t.TypeC<{ type: t.LiteralC<"x"> }>, t.TypeC<{ type: t.LiteralC<"y">; n: t.NumberC }>]>]>',
    ],
    [
      '{ model: string } & ({ [key in string]?: number })',
      'withRest(t.type({ model: t.string }), t.union([t.undefined, t.number]))',
      'WithRestC<t.TypeC<{ model: t.StringC }>, t.UnionC<[t.UndefinedC, t.NumberC]>>',
    ],
    ['"a" | { b: string } | "c" | null', 'nullable(t.union([t.keyof({ a: null, c: null }), t.type({ b: t.string })]))', 'NullableC<t.UnionC<[t.KeyofC<{ a: null; c: null }>, t.TypeC<{ b: t.StringC }>]>>'],
  ])('%s', (typeText, runtime, type) => {
    expect(codecOf(typeText)).toEqual({ runtime, type });
  });

  test('more than five intersection members nest', () => {
    expect(codecOf('{ a: string } & { b: string } & { c: string } & { d: string } & { e: string } & { f: string }').runtime).toBe(
      'intersection([t.type({ a: t.string }), t.type({ b: t.string }), t.type({ c: t.string }), t.type({ d: t.string }), intersection([t.type({ e: t.string }), t.type({ f: t.string })])])',
    );
  });

  test.each(['[string, number]', 'Map<string, number>', '{ readonly a: string }', '{ [key in number]?: string }', 'keyof Foo'])(
    'fails loudly on a construct outside the subset: %s',
    (typeText) => {
      expect(() => codecOf(typeText)).toThrow(/unsupported/);
    },
  );
});

describe('the open form of a tagged union', () => {
  const openRuntimeOf = (typeText: string): string => {
    const source = ts.createSourceFile('T.ts', `type T = ${typeText};`, ts.ScriptTarget.Latest, true);
    const alias = source.statements[0] as ts.TypeAliasDeclaration;
    return printRuntime(openTree(toCodecTree(toIR(alias.type, (name: string) => name, 'T'), (id: string) => id)), 0, false);
  };

  test('finds the tag in members that are intersections, as UserInput has them ({ type: "image" } & ({ url } | { fileId }))', () => {
    expect(openRuntimeOf('{ "type": "text", text: string } | ({ "type": "image" } & ({ url: string } | { fileId: string }))')).toMatch(
      /^openUnion\("type", \["text","image"\], /,
    );
  });

  test('leaves a union without one distinct literal tag per member closed', () => {
    expect(openRuntimeOf('{ "type": "a" } | ({ id: string } & ({ url: string } | { fileId: string }))')).toMatch(/^t\.union\(/);
  });
});
