/**
 * Prints `test/generated/codecTypes.test-d.ts`, a vitest type test that proves, for every
 * generated codec, that the type it decodes to and the generated TypeScript type are assignable
 * both ways (and the same for the JSON form it encodes to), and that every descriptor's params
 * type is the params type of its method in the generated method unions.
 *
 * The documented widening: a codec of a type the peer sends decodes enum literals and tagged-union
 * variants of a newer Codex too (see openForm.mjs). For such a codec (and any codec that uses one)
 * the test proves instead that the generated type is assignable to the decoded type (nothing known
 * is lost), and that the decoded type is exactly the generated declaration with that widening,
 * each referenced type standing for its own codec's decoded type.
 *
 * Pure.
 */
import { printTsType } from './codecTree.mjs';
import { generatedHeader, indexAccessPaths, twinName, widenedTypes } from './emitCodecs.mjs';
import { printOpenTsType } from './openForm.mjs';
import { unionFiles } from './protocolModel.mjs';
import { referencedIds } from './selection.mjs';

/**
 * @typedef {import('./protocolModel.mjs').TypeDecl} TypeDecl
 * @typedef {import('./selection.mjs').GenerationPlan} GenerationPlan
 */

/**
 * @param {import('./emitCodecs.mjs').EmitInput} input
 * @returns {string}
 */
export function emitTypeTests(input) {
  const { types, plan, modules, tree, codexVersion } = input;
  const widened = widenedTypes(input);
  const decodedRef = (/** @type {string} */ id) => `t.TypeOf<typeof C.${plan.flatNames.get(id)}>`;
  const access = indexAccessPaths(tree);
  /** @type {string[]} */
  const directImports = [];
  const generatedTypeRef = (/** @type {string} */ id) => {
    const viaIndex = access.get(id);
    if (viaIndex) return viaIndex;
    const alias = `Generated_${id.replace(/[^A-Za-z0-9]/g, '_')}`;
    const decl = /** @type {TypeDecl} */ (types.get(id));
    directImports.push(`import type { ${decl.name} as ${alias} } from '../../src/generated/${id}.js';`);
    return alias;
  };
  const entries = plan.order.flatMap((id) => [
    { id, name: plan.flatNames.get(id), strict: !modules.open.has(id) },
    ...(modules.twins.has(id) ? [{ id, name: twinName(plan, id), strict: true }] : []),
  ]);
  const codecTests = entries.map(({ id, name, strict }) => {
    const generated = generatedTypeRef(id);
    const output = plan.bigintTypes.has(id) ? `Jsonified<${generated}>` : generated;
    if (!strict) {
      const decl = /** @type {TypeDecl} */ (types.get(id));
      const form = modules.open.has(id) ? printOpenTsType(decl.type, decodedRef) : printTsType(decl.type, decodedRef);
      return [
        `  test(${JSON.stringify(name)}, () => {`,
        `    expectTypeOf<Assignable<${generated}, t.TypeOf<typeof C.${name}>>>().toEqualTypeOf<true>();`,
        `    expectTypeOf<MutuallyAssignable<t.TypeOf<typeof C.${name}>, ${form}>>().toEqualTypeOf<true>();`,
        `    expectTypeOf<Assignable<${output}, t.OutputOf<typeof C.${name}>>>().toEqualTypeOf<true>();`,
        '  });',
      ].join('\n');
    }
    return [
      `  test(${JSON.stringify(name)}, () => {`,
      `    expectTypeOf<MutuallyAssignable<t.TypeOf<typeof C.${name}>, ${generated}>>().toEqualTypeOf<true>();`,
      `    expectTypeOf<MutuallyAssignable<t.OutputOf<typeof C.${name}>, ${output}>>().toEqualTypeOf<true>();`,
      '  });',
    ].join('\n');
  });
  const unionOf = {
    clientRequests: access.get(unionFiles.clientRequests),
    clientNotifications: access.get(unionFiles.clientNotifications),
    serverRequests: access.get(unionFiles.serverRequests),
    serverNotifications: access.get(unionFiles.serverNotifications),
  };
  const descriptorTests = plan.methods.map((m) => {
    const union = unionOf[m.table];
    if (!union) throw new Error(`the generated index does not export the union of ${m.table}`);
    const paramsStrict = m.table === 'clientRequests' || m.table === 'clientNotifications';
    if (!paramsStrict && [...referencedIds(m.params)].some((id) => widened.has(id))) {
      return [
        `  test(${JSON.stringify(m.method)}, () => {`,
        `    expectTypeOf<`,
        `      Assignable<UnionParams<${union}, ${JSON.stringify(m.method)}>, ParamsOf<typeof D.${m.descriptorName}>>`,
        `    >().toEqualTypeOf<true>();`,
        '  });',
      ].join('\n');
    }
    return [
      `  test(${JSON.stringify(m.method)}, () => {`,
      `    expectTypeOf<`,
      `      MutuallyAssignable<ParamsOf<typeof D.${m.descriptorName}>, UnionParams<${union}, ${JSON.stringify(m.method)}>>`,
      `    >().toEqualTypeOf<true>();`,
      '  });',
    ].join('\n');
  });
  return [
    generatedHeader(codexVersion),
    "import type * as t from 'io-ts';",
    "import { describe, expectTypeOf, test } from 'vitest';",
    "import type * as C from '../../src/codecs/codecs.js';",
    "import type * as D from '../../src/codecs/descriptors.js';",
    "import type { ParamsOf } from '../../src/Descriptor.js';",
    ...(modules.open.size > 0 ? ["import type { UnknownLiteral, UnknownVariant } from '../../src/OpenCodecs.js';"] : []),
    "import type * as Gen from '../../src/generated/index.js';",
    ...[...new Set(directImports)],
    '',
    '/** `true` when A and B are assignable to each other. */',
    'type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
    ...(modules.open.size > 0 ? ['/** `true` when A is assignable to B. */', 'type Assignable<A, B> = [A] extends [B] ? true : false;'] : []),
    '/** The JSON form of a generated type: a bigint travels as a number. */',
    'type Jsonified<A> = A extends bigint',
    '  ? number',
    '  : A extends readonly (infer E)[]',
    '    ? Jsonified<E>[]',
    '    : A extends object',
    '      ? { [K in keyof A]: Jsonified<A[K]> }',
    '      : A;',
    '/** The member of a method union with the given method. */',
    'type MemberOf<U, M> = Extract<U, { method: M }>;',
    '/** The params of the member of a method union with the given method (`undefined` when it has none). */',
    "type UnionParams<U, M> = 'params' extends keyof MemberOf<U, M> ? MemberOf<U, M>['params' & keyof MemberOf<U, M>] : undefined;",
    '',
    "describe('codec types equal the generated types, decoded and encoded', () => {",
    codecTests.join('\n'),
    '});',
    '',
    "describe('descriptor params equal the params of the generated method unions', () => {",
    descriptorTests.join('\n'),
    '});',
    '',
  ].join('\n');
}
