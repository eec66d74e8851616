/**
 * Prints `src/codecs/descriptors.ts`: the `Methods` table, one descriptor constant per selected
 * method (built with the helpers of `src/Descriptor.ts`) and the registries keyed by method.
 *
 * Pure.
 */
import { helperImports, printRuntime, printTsType, toCodecTree } from './codecTree.mjs';
import { generatedHeader } from './emitCodecs.mjs';

/**
 * @typedef {import('./selection.mjs').GenerationPlan} GenerationPlan
 * @typedef {import('./selection.mjs').MethodPlan} MethodPlan
 */

/** Descriptor helper and wording per table. */
const tableInfo = {
  clientRequests: { helper: 'clientRequest', what: 'Client request', registry: 'clientRequests' },
  clientNotifications: { helper: 'clientNotification', what: 'Client notification', registry: 'clientNotifications' },
  serverRequests: { helper: 'serverRequest', what: 'Server request', registry: 'serverRequests' },
  serverNotifications: { helper: 'serverNotification', what: 'Server notification', registry: 'serverNotifications' },
};

/**
 * @param {{ plan: GenerationPlan, codexVersion: string }} input
 * @returns {string}
 */
export function emitDescriptorsModule({ plan, codexVersion }) {
  const refName = (/** @type {string} */ id) => `C.${plan.flatNames.get(id)}`;
  const codec = (/** @type {import('./protocolModel.mjs').TypeIR} */ ir) => printRuntime(toCodecTree(ir, refName), 0, false);
  const type = (/** @type {import('./protocolModel.mjs').TypeIR} */ ir) => printTsType(ir, refName);
  const ref = (/** @type {string | null} */ id) => /** @type {import('./protocolModel.mjs').TypeIR} */ (id === null ? { kind: 'undefined' } : { kind: 'ref', id });
  const methods = plan.methods.map((m) => `  ${m.descriptorName}: ${JSON.stringify(m.method)},`);
  const descriptors = plan.methods.map((m) => {
    const info = tableInfo[m.table];
    const hasResult = m.table === 'clientRequests' || m.table === 'serverRequests';
    const typeArgs = [`typeof Methods.${m.descriptorName}`, type(m.params), ...(hasResult ? [type(ref(m.resultId))] : [])];
    const args = [`Methods.${m.descriptorName}`, codec(m.params), ...(hasResult ? [codec(ref(m.resultId))] : [])];
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
    ' * registries by method.',
    ' *',
    ' * Pure: building these values does no IO.',
    ' */',
    ...(descriptors.some((d) => /\bt\./.test(d)) ? ["import * as t from 'io-ts';"] : []),
    ...helperImports(plan.methods.map((m) => toCodecTree(m.params, refName))),
    `import { ${helpers.join(', ')} } from '../Descriptor.js';`,
    "import * as C from './codecs.js';",
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
