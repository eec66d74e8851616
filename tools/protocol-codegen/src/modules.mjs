/**
 * Splits the selected codecs into feature modules and decides which codecs are open (forward
 * compatible) and which stay strict.
 *
 * - Each method belongs to a feature by the first segment of its name (config `features`; the
 *   rest belong to `session`). A type reachable from the methods of one feature only lives in
 *   that feature's module; a type reachable from several lives in `common`. Everything a common
 *   type uses is reachable from the same features, so it is common too: feature modules depend
 *   on `common` only, and no two modules depend on each other.
 * - A type is open when a message the peer sends can carry it: the params of server requests
 *   and notifications, the results of client requests. Its codec decodes an enum literal or a
 *   tagged-union variant of a newer Codex into a typed unknown case. What we send (client request
 *   params, server request results) is encoded with strict codecs only: a type that only travels
 *   there is strict, and an open type it uses gets a strict twin codec (`AskForApprovalStrict`).
 *   Only a type that widens is open: one with an enum or a tagged union of its own, or one that uses
 *   such a type. Any other type decodes exactly as it encodes, so it keeps one (strict) codec.
 *
 * Pure.
 */
import { openTree, toCodecTree } from './codecTree.mjs';
import { referencedIds } from './selection.mjs';

/**
 * @typedef {import('./protocolModel.mjs').TypeDecl} TypeDecl
 * @typedef {import('./selection.mjs').GenerationPlan} GenerationPlan
 * @typedef {import('./selection.mjs').MethodPlan} MethodPlan
 * @typedef {{ moduleOf: Map<string, string>, modules: string[], open: Set<string>, twins: Set<string> }} ModulePlan
 * `twins`: the open types that what we send uses too; each also gets a strict codec, `<Name>Strict`.
 */

/** The module of types shared by several features. */
export const commonModule = 'common';

/** The feature of methods whose first segment is not in the config. */
export const defaultFeature = 'session';

/**
 * @param {string} method
 * @param {Readonly<Record<string, string>>} features
 */
export function featureOfMethod(method, features) {
  const segment = method.split('/')[0] ?? method;
  return features[segment] ?? defaultFeature;
}

/**
 * Every type id reachable from some roots (the roots included).
 * @param {Map<string, TypeDecl>} types
 * @param {Iterable<string>} roots
 */
function reachable(types, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = /** @type {string} */ (stack.pop());
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dep of referencedIds(/** @type {TypeDecl} */ (types.get(id)).type)) stack.push(dep);
  }
  return seen;
}

/**
 * @param {Map<string, TypeDecl>} types
 * @param {GenerationPlan} plan
 * @param {Readonly<Record<string, string>>} features
 * @param {boolean} [forwardCompatible] whether what the peer sends gets open codecs
 * @returns {ModulePlan}
 */
export function planModules(types, plan, features, forwardCompatible = true) {
  /** @type {Map<string, Set<string>>} */
  const featuresOfType = new Map();
  /** @type {Map<string, string[]>} */
  const rootsByFeature = new Map();
  /** @type {string[]} */
  const incoming = [];
  /** @type {string[]} */
  const outgoing = [];
  for (const m of plan.methods) {
    const feature = featureOfMethod(m.method, features);
    const paramsRoots = [...referencedIds(m.params)];
    const resultRoots = m.resultId === null ? [] : [m.resultId];
    rootsByFeature.set(feature, [...(rootsByFeature.get(feature) ?? []), ...paramsRoots, ...resultRoots]);
    if (m.table === 'serverRequests' || m.table === 'serverNotifications') incoming.push(...paramsRoots);
    if (m.table === 'clientRequests') incoming.push(...resultRoots);
    if (m.table === 'clientRequests' || m.table === 'clientNotifications') outgoing.push(...paramsRoots);
    if (m.table === 'serverRequests') outgoing.push(...resultRoots);
  }
  for (const [feature, roots] of rootsByFeature) {
    for (const id of reachable(types, roots)) featuresOfType.set(id, (featuresOfType.get(id) ?? new Set()).add(feature));
  }
  /** @type {Map<string, string>} */
  const moduleOf = new Map();
  for (const id of plan.order) {
    const owners = [...(featuresOfType.get(id) ?? [])];
    moduleOf.set(id, owners.length === 1 ? /** @type {string} */ (owners[0]) : commonModule);
  }
  const modules = [...new Set(moduleOf.values())].sort((a, b) => (a === commonModule ? -1 : b === commonModule ? 1 : a < b ? -1 : 1));
  const open = forwardCompatible ? widening(types, reachable(types, incoming)) : new Set();
  const twins = new Set([...reachable(types, outgoing)].filter((id) => open.has(id)));
  return { moduleOf, modules, open, twins };
}

/**
 * The types of `candidates` whose forward-compatible codec differs from the strict one: those with an
 * enum of string literals or a tagged union of their own, and (to a fixed point) those that use one.
 * @param {Map<string, TypeDecl>} types
 * @param {Set<string>} candidates
 * @returns {Set<string>}
 */
export function widening(types, candidates) {
  const declOf = (/** @type {string} */ id) => /** @type {TypeDecl} */ (types.get(id));
  const widens = new Set(
    [...candidates].filter((id) => {
      const tree = toCodecTree(declOf(id).type, (ref) => ref);
      return JSON.stringify(openTree(tree)) !== JSON.stringify(tree);
    }),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const id of candidates) {
      if (widens.has(id) || ![...referencedIds(declOf(id).type)].some((dep) => widens.has(dep))) continue;
      widens.add(id);
      grew = true;
    }
  }
  return widens;
}
