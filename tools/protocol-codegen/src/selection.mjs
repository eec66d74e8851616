/**
 * Decides what to generate: which methods (from the config), their params and response types,
 * the descriptor name of each method, every type reachable from them, a flat codec name for
 * each type, and an order in which each codec comes after the codecs it uses.
 *
 * Pure: the protocol model and the config in, a plan out.
 */
import { posix } from 'node:path';

/**
 * @typedef {import('./protocolModel.mjs').TypeDecl} TypeDecl
 * @typedef {import('./protocolModel.mjs').TypeIR} TypeIR
 * @typedef {import('./protocolModel.mjs').MethodTables} MethodTables
 * @typedef {'clientRequests' | 'clientNotifications' | 'serverRequests' | 'serverNotifications'} TableName
 * @typedef {{ table: TableName, method: string, descriptorName: string,
 *   params: TypeIR, paramsId: string | null, resultId: string | null }} MethodPlan
 * `params` is the params type as the method union spells it; `paramsId` the generated type it
 * names (null when there are no params); `resultId` the response type of a request.
 * @typedef {{ clientRequests: readonly string[], clientNotifications: readonly string[],
 *   serverRequests: readonly string[], serverNotifications: readonly string[],
 *   responseTypeOverrides: Readonly<Record<string, string>>,
 *   descriptorNameOverrides: Readonly<Record<string, string>>,
 *   nameClashPreference: readonly string[], nameClashPrefixes: Readonly<Record<string, string>>,
 *   features?: Readonly<Record<string, string>>, forwardCompatible?: boolean }} GeneratorConfig
 * @typedef {{ methods: MethodPlan[], order: string[], flatNames: Map<string, string>,
 *   recursive: Set<string>, bigintTypes: Set<string> }} GenerationPlan
 */

/** Table kinds that expect a response. */
const requestTables = new Set(['clientRequests', 'serverRequests']);

/**
 * Names that a descriptor or codec constant must not take: JavaScript globals that code is likely
 * to use next to them, and the identifiers of the generated modules.
 */
export const reservedNames = new Set([
  'Array', 'Boolean', 'Date', 'Error', 'Function', 'JSON', 'Map', 'Math', 'Number', 'Object', 'Promise',
  'Record', 'RegExp', 'Set', 'String', 'Symbol', 't', 'Gen', 'Methods',
]);

/**
 * PascalCase of a method's segments: `item/agentMessage/delta` → `ItemAgentMessageDelta`.
 * @param {string} method
 */
export function pascalCaseOfMethod(method) {
  return method
    .split(/[/_]/)
    .filter((part) => part.length > 0)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * @param {{ types: Map<string, TypeDecl>, methods: MethodTables }} model
 * @param {GeneratorConfig} config
 * @returns {GenerationPlan}
 */
export function planGeneration(model, config) {
  const methods = selectMethods(model, config);
  const roots = methods.flatMap((m) => [...referencedIds(m.params), ...(m.resultId === null ? [] : [m.resultId])]);
  const { order, recursive } = dependencyOrder(model.types, [...new Set(roots)].sort());
  const flatNames = assignFlatNames(model.types, order, config);
  const bigintTypes = typesContainingBigint(model.types, order);
  for (const id of recursive) {
    if (bigintTypes.has(id)) throw new Error(`${id}: recursive types with bigint fields are not supported`);
  }
  const taken = new Map([...flatNames.values()].flatMap((name) => [[name, 'codec'], [`${name}Codec`, 'codec type']]));
  const clashes = methods.filter((m) => reservedNames.has(m.descriptorName) || taken.has(m.descriptorName));
  if (clashes.length > 0) {
    throw new Error(
      `descriptor names clash with a codec or reserved name; add them to descriptorNameOverrides:\n${clashes
        .map((m) => `  ${m.method} → ${m.descriptorName}`)
        .join('\n')}`,
    );
  }
  return { methods, order, flatNames, recursive, bigintTypes };
}

/**
 * @param {{ types: Map<string, TypeDecl>, methods: MethodTables }} model
 * @param {GeneratorConfig} config
 * @returns {MethodPlan[]}
 */
function selectMethods(model, config) {
  /** @type {MethodPlan[]} */
  const plans = [];
  /** @type {TableName[]} */
  const tables = ['clientRequests', 'clientNotifications', 'serverRequests', 'serverNotifications'];
  for (const table of tables) {
    const available = model.methods[table];
    const wanted = config[table];
    const entries = wanted.includes('*')
      ? available
      : wanted.map((method) => {
          const entry = available.find((e) => e.method === method);
          if (!entry) throw new Error(`${table}: the protocol has no method "${method}"`);
          return entry;
        });
    for (const entry of entries) {
      const refs = [...referencedIds(entry.params)];
      if (refs.length > 1) throw new Error(`${entry.method}: params name more than one type`);
      const paramsId = refs[0] ?? null;
      plans.push({
        table,
        method: entry.method,
        descriptorName: config.descriptorNameOverrides[entry.method] ?? pascalCaseOfMethod(entry.method),
        params: entry.params,
        paramsId,
        resultId: requestTables.has(table) ? responseTypeOf(model.types, entry.method, paramsId, config) : null,
      });
    }
  }
  const byName = new Map();
  for (const plan of plans) {
    const other = byName.get(plan.descriptorName);
    if (other) throw new Error(`methods ${other} and ${plan.method} get the same descriptor name ${plan.descriptorName}`);
    byName.set(plan.descriptorName, plan.method);
  }
  return plans;
}

/**
 * @param {Map<string, TypeDecl>} types
 * @param {string} method
 * @param {string | null} paramsId
 * @param {GeneratorConfig} config
 */
function responseTypeOf(types, method, paramsId, config) {
  const override = config.responseTypeOverrides[method];
  const paramsName = paramsId ? posix.basename(paramsId) : undefined;
  const name = override ?? (paramsName?.endsWith('Params') ? `${paramsName.slice(0, -'Params'.length)}Response` : undefined);
  const found = name === undefined ? undefined : findTypeByName(types, name, paramsId);
  if (!found) {
    throw new Error(`no response type for "${method}" (tried ${name ?? 'nothing'}); add it to responseTypeOverrides`);
  }
  return found;
}

/**
 * Finds a type by name, preferring the directory of a related type.
 * @param {Map<string, TypeDecl>} types
 * @param {string} name
 * @param {string | null} near
 */
function findTypeByName(types, name, near) {
  const matches = [...types.values()].filter((decl) => decl.name === name);
  if (matches.length <= 1) return matches[0]?.id;
  const nearDir = near ? (posix.dirname(near) === '.' ? '' : posix.dirname(near)) : '';
  const preferred = matches.find((decl) => decl.dir === nearDir);
  if (!preferred) throw new Error(`ambiguous type name ${name}`);
  return preferred.id;
}

/**
 * The ids referenced by a type.
 * @param {TypeIR} type
 * @param {Set<string>} into
 */
export function referencedIds(type, into = new Set()) {
  switch (type.kind) {
    case 'ref':
      into.add(type.id);
      break;
    case 'union':
    case 'intersection':
      for (const member of type.members) referencedIds(member, into);
      break;
    case 'object':
      for (const property of type.properties) referencedIds(property.type, into);
      break;
    case 'record':
      referencedIds(type.value, into);
      break;
    case 'array':
      referencedIds(type.element, into);
      break;
  }
  return into;
}

/**
 * Depth-first post-order from the roots: every type comes after the types it references.
 * Only self-recursion is supported (ts-rs output has `JsonValue`); a longer cycle is an error.
 * @param {Map<string, TypeDecl>} types
 * @param {string[]} roots
 */
function dependencyOrder(types, roots) {
  /** @type {string[]} */
  const order = [];
  const done = new Set();
  const active = new Set();
  const recursive = new Set();
  /** @param {string} id */
  function visit(id) {
    if (done.has(id)) return;
    const decl = types.get(id);
    if (!decl) throw new Error(`unknown type ${id}`);
    active.add(id);
    for (const dep of [...referencedIds(decl.type)].sort()) {
      if (dep === id) recursive.add(id);
      else if (active.has(dep)) throw new Error(`mutually recursive types are not supported: ${id} ↔ ${dep}`);
      else visit(dep);
    }
    active.delete(id);
    done.add(id);
    order.push(id);
  }
  for (const root of roots) visit(root);
  return { order, recursive };
}

/**
 * @param {Map<string, TypeDecl>} types
 * @param {string[]} order
 * @param {GeneratorConfig} config
 */
function assignFlatNames(types, order, config) {
  /** @type {Map<string, string[]>} */
  const byName = new Map();
  for (const id of order) {
    const name = /** @type {TypeDecl} */ (types.get(id)).name;
    byName.set(name, [...(byName.get(name) ?? []), id]);
  }
  /** @type {Map<string, string>} */
  const flat = new Map();
  for (const [name, ids] of byName) {
    const rank = (/** @type {string} */ id) => {
      const index = config.nameClashPreference.indexOf(/** @type {TypeDecl} */ (types.get(id)).dir);
      return index === -1 ? config.nameClashPreference.length : index;
    };
    const sorted = [...ids].sort((a, b) => rank(a) - rank(b));
    sorted.forEach((id, index) => {
      const dir = /** @type {TypeDecl} */ (types.get(id)).dir;
      const prefix = config.nameClashPrefixes[dir];
      if (index > 0 && prefix === undefined) throw new Error(`no nameClashPrefixes entry for directory "${dir}"`);
      flat.set(id, index === 0 ? name : `${prefix}${name}`);
    });
  }
  const all = new Set(flat.values());
  for (const name of all) {
    if (reservedNames.has(name)) throw new Error(`codec name ${name} is reserved`);
    if (all.has(`${name}Codec`)) throw new Error(`codec type name ${name}Codec clashes with a codec`);
  }
  return flat;
}

/**
 * Types whose value contains a bigint somewhere (their JSON form differs from their type).
 * @param {Map<string, TypeDecl>} types
 * @param {string[]} order dependencies first
 */
function typesContainingBigint(types, order) {
  const result = new Set();
  /** @param {TypeIR} type @returns {boolean} */
  const has = (type) => {
    switch (type.kind) {
      case 'bigint':
        return true;
      case 'ref':
        return result.has(type.id);
      case 'union':
      case 'intersection':
        return type.members.some(has);
      case 'object':
        return type.properties.some((p) => has(p.type));
      case 'record':
        return has(type.value);
      case 'array':
        return has(type.element);
      default:
        return false;
    }
  };
  for (const id of order) if (has(/** @type {TypeDecl} */ (types.get(id)).type)) result.add(id);
  return result;
}
