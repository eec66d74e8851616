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
 * The required properties of an object; of an intersection, those of its object parts
 * (`{ type: 'image' } & ({ url } | { fileId })`); undefined for anything else.
 * @param {TypeIR} ir
 * @returns {{ name: string, optional: boolean, type: TypeIR }[] | undefined}
 */
function requiredOf(ir) {
  if (ir.kind === 'object') return ir.properties.filter((p) => !p.optional);
  if (ir.kind !== 'intersection') return undefined;
  const parts = ir.members.map(requiredOf);
  return parts.some((part) => part !== undefined) ? parts.flatMap((part) => part ?? []) : undefined;
}

/**
 * The tag property of a union of tagged objects, or undefined.
 * @param {TypeIR[]} members
 */
function tagOf(members) {
  const objects = members.filter((m) => m.kind !== 'null' && m.kind !== 'undefined');
  const required = objects.map(requiredOf);
  if (objects.length < 2 || !required.every((props) => props !== undefined)) return undefined;
  const [first] = required;
  if (!first) return undefined;
  for (const candidate of first.filter((p) => !['_unknown', 'tag', 'literal', 'raw'].includes(p.name))) {
    const tags = required.map((props) => {
      const p = props?.find((q) => q.name === candidate.name);
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
