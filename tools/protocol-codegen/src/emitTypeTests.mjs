/**
 * Prints `test/generated/codecTypes.test-d.ts`, a vitest type test that proves, for every
 * generated codec, that the type it decodes to and the generated TypeScript type are assignable
 * both ways (and the same for the JSON form it encodes to), and that every descriptor's params
 * type is the params type of its method in the generated method unions.
 *
 * Pure.
 */
import { generatedHeader, indexAccessPaths } from './emitCodecs.mjs';
import { unionFiles } from './protocolModel.mjs';

/**
 * @typedef {import('./protocolModel.mjs').TypeDecl} TypeDecl
 * @typedef {import('./selection.mjs').GenerationPlan} GenerationPlan
 */

/**
 * @param {{ types: Map<string, TypeDecl>, plan: GenerationPlan, tree: Map<string, string>, codexVersion: string }} input
 * @returns {string}
 */
export function emitTypeTests({ types, plan, tree, codexVersion }) {
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
  const codecTests = plan.order.map((id) => {
    const name = plan.flatNames.get(id);
    const generated = generatedTypeRef(id);
    const output = plan.bigintTypes.has(id) ? `Jsonified<${generated}>` : generated;
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
    "import type * as Gen from '../../src/generated/index.js';",
    ...[...new Set(directImports)],
    '',
    '/** `true` when A and B are assignable to each other. */',
    'type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
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
