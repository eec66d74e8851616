/**
 * Prints `src/codecs/descriptors.ts`: the `Methods` table, one descriptor constant per selected
 * method and the registries keyed by method. A descriptor reads its codecs on first use (through
 * the helpers of `src/internal/lazy.ts`), so the tables cost a few objects on import.
 *
 * Pure.
 */
import { helperImports, printRuntime, printTsType, toCodecTree } from './codecTree.mjs';
import { codecNameIn, generatedHeader, tableName } from './emitCodecs.mjs';
import { referencedIds } from './selection.mjs';

/**
 * @typedef {import('./selection.mjs').GenerationPlan} GenerationPlan
 * @typedef {import('./selection.mjs').MethodPlan} MethodPlan
 */

/** Descriptor helper and wording per table. */
const tableInfo = {
  clientRequests: { helper: 'lazyClientRequest', what: 'Client request', registry: 'clientRequests' },
  clientNotifications: { helper: 'lazyClientNotification', what: 'Client notification', registry: 'clientNotifications' },
  serverRequests: { helper: 'lazyServerRequest', what: 'Server request', registry: 'serverRequests' },
  serverNotifications: { helper: 'lazyServerNotification', what: 'Server notification', registry: 'serverNotifications' },
};

/**
 * @param {import('./emitCodecs.mjs').EmitInput} input
 * @returns {string}
 */
export function emitDescriptorsModule(input) {
  const { plan, modules, codexVersion } = input;
  /** @typedef {import('./protocolModel.mjs').TypeIR} TypeIR */
  const refNameIn = (/** @type {boolean} */ strict) => (/** @type {string} */ id) => `C.${codecNameIn(input, id, strict)}`;
  const runtimeNameIn = (/** @type {boolean} */ strict) => (/** @type {string} */ id) =>
    `${tableName(/** @type {string} */ (modules.moduleOf.get(id)))}().${codecNameIn(input, id, strict)}`;
  const codec = (/** @type {TypeIR} */ ir, /** @type {boolean} */ strict) => `() => ${printRuntime(toCodecTree(ir, runtimeNameIn(strict)), 0, false)}`;
  const refName = refNameIn(false);
  const usedTables = new Set(
    plan.methods.flatMap((m) => [...referencedIds(m.params), ...(m.resultId === null ? [] : [m.resultId])].map((id) => modules.moduleOf.get(id))),
  );
  const type = (/** @type {TypeIR} */ ir, /** @type {boolean} */ strict) => printTsType(ir, refNameIn(strict));
  const ref = (/** @type {string | null} */ id) => /** @type {import('./protocolModel.mjs').TypeIR} */ (id === null ? { kind: 'undefined' } : { kind: 'ref', id });
  const methods = plan.methods.map((m) => `  ${m.descriptorName}: ${JSON.stringify(m.method)},`);
  const descriptors = plan.methods.map((m) => {
    const info = tableInfo[m.table];
    const hasResult = m.table === 'clientRequests' || m.table === 'serverRequests';
    // What we send (client params, server request results) is strict; what the peer sends is open.
    const paramsStrict = m.table === 'clientRequests' || m.table === 'clientNotifications';
    const typeArgs = [`typeof Methods.${m.descriptorName}`, type(m.params, paramsStrict), ...(hasResult ? [type(ref(m.resultId), !paramsStrict)] : [])];
    const args = [`Methods.${m.descriptorName}`, codec(m.params, paramsStrict), ...(hasResult ? [codec(ref(m.resultId), !paramsStrict)] : [])];
    const summary = [
      `${info.what} \`${m.method}\``,
      m.paramsId === null ? 'without params' : `with params {@link ${refName(m.paramsId)}}`,
      ...(hasResult && m.resultId !== null ? [`answered with {@link ${refName(m.resultId)}}`] : []),
    ].join(', ');
    return [
      `/** ${summary}. */`,
      `export const ${m.descriptorName} = ${info.helper}<${typeArgs.join(', ')}>(`,
      `  ${args.join(',\n  ')},`,
      ');',
    ].join('\n');
  });
  const registries = Object.entries(tableInfo).map(([table, info]) => {
    const entries = plan.methods.filter((m) => m.table === table);
    return [
      `/** ${info.what}s with a descriptor, keyed by method. */`,
      `export const ${info.registry} = {`,
      ...entries.map((m) => `  [Methods.${m.descriptorName}]: ${m.descriptorName},`),
      '} as const;',
    ].join('\n');
  });
  const helpers = [...new Set(plan.methods.map((m) => tableInfo[m.table].helper))].sort();
  return [
    generatedHeader(codexVersion),
    '/**',
    ' * One descriptor per Codex app-server method selected in tools/protocol-codegen/src/config.mjs: the',
    ' * method name with the codecs of its params (and result), plus the `Methods` name table and the',
    ' * registries by method. A descriptor builds the codecs of its feature when first read.',
    ' *',
    ' * Pure: building these values does no IO.',
    ' */',
    ...(descriptors.some((d) => /\bt\./.test(d)) ? ["import * as t from 'io-ts';"] : []),
    ...helperImports(plan.methods.map((m) => toCodecTree(m.params, refName))),
    `import { ${helpers.join(', ')} } from '../internal/lazy.js';`,
    "import type * as C from './codecs.js';",
    ...[...usedTables].sort().map((module) => `import { ${tableName(/** @type {string} */ (module))} } from './${module}.js';`),
    '',
    '/**',
    ' * Every method name that has a descriptor, keyed by the descriptor name. Refer to methods through',
    ' * this table (or the descriptors) rather than through string literals.',
    ' */',
    'export const Methods = {',
    ...methods,
    '} as const;',
    '',
    descriptors.join('\n\n'),
    '',
    registries.join('\n\n'),
    '',
  ].join('\n');
}
