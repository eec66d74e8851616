/**
 * The documented widening of forward-compatible codecs, printed from a type's IR independently
 * of the codec tree: an enum of two or more string literals also admits `UnknownLiteral`; a
 * union whose members (besides `null`/`undefined`) are all objects tagged by one required
 * string-literal property also admits `UnknownVariant<tag>`. The type test checks that each open
 * codec decodes to exactly this type.
 *
 * Pure.
 */
import { printTsType, propertyKey } from './codecTree.mjs';

/**
 * @typedef {import('./protocolModel.mjs').TypeIR} TypeIR
 */

/** @param {TypeIR} ir @returns {TypeIR[]} */
const flatten = (ir) => (ir.kind === 'union' ? ir.members.flatMap(flatten) : [ir]);

/**
 * The tag property of a union of tagged objects, or undefined.
 * @param {TypeIR[]} members
 */
function tagOf(members) {
  const objects = members.filter((m) => m.kind !== 'null' && m.kind !== 'undefined');
  if (objects.length < 2 || !objects.every((m) => m.kind === 'object')) return undefined;
  const [first] = objects;
  if (!first || first.kind !== 'object') return undefined;
  for (const candidate of first.properties.filter((p) => !p.optional && !['_unknown', 'tag', 'literal', 'raw'].includes(p.name))) {
    const tags = objects.map((m) => {
      const p = m.kind === 'object' ? m.properties.find((q) => q.name === candidate.name && !q.optional) : undefined;
      return p && p.type.kind === 'literal' && typeof p.type.value === 'string' ? p.type.value : undefined;
    });
    if (tags.every((tag) => tag !== undefined) && new Set(tags).size === tags.length) return candidate.name;
  }
  return undefined;
}

/**
 * Prints the open form of a type, with references named by `refName`.
 * @param {TypeIR} ir
 * @param {(id: string) => string} refName
 * @returns {string}
 */
export function printOpenTsType(ir, refName) {
  const sub = (/** @type {TypeIR} */ inner) => printOpenTsType(inner, refName);
  switch (ir.kind) {
    case 'union': {
      const members = flatten(ir);
      const literals = members.filter((m) => m.kind === 'literal' && typeof m.value === 'string');
      const tag = tagOf(members);
      const extra = [...(literals.length > 1 ? ['UnknownLiteral'] : []), ...(tag === undefined ? [] : [`UnknownVariant<${JSON.stringify(tag)}>`])];
      return [...members.map(sub), ...extra].join(' | ');
    }
    case 'intersection':
      return ir.members.map((m) => `(${sub(m)})`).join(' & ');
    case 'array':
      return `Array<${sub(ir.element)}>`;
    case 'record':
      return ir.optionalValues ? `{ [key in string]?: ${sub(ir.value)} }` : `Record<string, ${sub(ir.value)}>`;
    case 'object':
      return `{ ${ir.properties.map((p) => `${propertyKey(p.name)}${p.optional ? '?' : ''}: ${sub(p.type)}`).join('; ')} }`;
    default:
      return printTsType(ir, refName);
  }
}
