/**
 * Turns a type's IR into a codec tree: the io-ts combinators that decode it, with both the
 * runtime expression and the static codec type printed from the same tree, so that they cannot
 * disagree.
 *
 * Mapping (ts-rs subset → io-ts):
 * - `string` / `number` / `boolean` / `null` / `unknown` → `t.string` / `t.number` / `t.boolean` / `t.null` / `t.unknown`
 * - `bigint` → `jsonBigInt` (a JSON integer decoded into a bigint, encoded back into a number)
 * - `"a"` / `1` → `t.literal`; a union of two or more string literals → `t.keyof({ a: null, ... })`
 * - `A | B` → `t.union`; `A & B` → `intersection` (io-ts' own, except that a property a part
 *   removed stays removed; nested past five members)
 * - `A | null` → `nullable(A)`: like serde reading an `Option`, a missing value reads as `null`
 * - `{ a: A }` → `t.type({ a })`; `{ a: A, b?: B }` → `struct({ a }, { b })`, where an optional
 *   property sent as `null` (as the binary does for some) reads as absent. Unknown extra
 *   properties are kept, so newer peers stay readable; a missing required property is an error.
 * - `{ [key in string]?: A }` → `optionalRecord(A)`; `Record<string, A>` → `t.record(t.string, A)`
 * - `Record<string, never>` → `emptyObject`; `{ [key: string]: unknown }` → `t.UnknownRecord`
 * - `{ a: A } & ({ [key in string]?: V })` (a serde `flatten`ed map) → `withRest(t.type({ a }), V)`:
 *   the declared properties get their codecs, only the other keys are checked against `V`
 * - `Array<A>` / `A[]` → `t.array`; a reference → the referenced codec constant
 *
 * Pure.
 */

/**
 * @typedef {import('./protocolModel.mjs').TypeIR} TypeIR
 * @typedef {{ runtime: string, type: string }} Leaf
 * @typedef {{ kind: 'leaf', runtime: string, type: string }
 *   | { kind: 'literal', value: string | number }
 *   | { kind: 'keyof', values: string[] }
 *   | { kind: 'union', members: CodecNode[] }
 *   | { kind: 'intersection', members: CodecNode[] }
 *   | { kind: 'nullable', inner: CodecNode }
 *   | { kind: 'type', properties: { name: string, node: CodecNode }[] }
 *   | { kind: 'struct', required: { name: string, node: CodecNode }[], optional: { name: string, node: CodecNode }[] }
 *   | { kind: 'record', value: CodecNode, optionalValues: boolean }
 *   | { kind: 'array', element: CodecNode }
 *   | { kind: 'withRest', named: CodecNode, rest: CodecNode }
 *   | { kind: 'openKeyof', values: string[] }
 *   | { kind: 'openUnion', tag: string, tags: string[], members: CodecNode[] }} CodecNode
 */

const leaves = /** @type {const} */ ({
  string: { runtime: 't.string', type: 't.StringC' },
  number: { runtime: 't.number', type: 't.NumberC' },
  boolean: { runtime: 't.boolean', type: 't.BooleanC' },
  null: { runtime: 't.null', type: 't.NullC' },
  undefined: { runtime: 't.undefined', type: 't.UndefinedC' },
  unknown: { runtime: 't.unknown', type: 't.UnknownC' },
  bigint: { runtime: 'jsonBigInt', type: 'JsonBigIntC' },
  unknownRecord: { runtime: 't.UnknownRecord', type: 't.UnknownRecordC' },
  emptyObject: { runtime: 'emptyObject', type: 'EmptyObjectC' },
});

/** The most members io-ts' `t.intersection` is typed for. */
const maxIntersection = 5;

/**
 * @param {TypeIR} ir
 * @param {(id: string) => string} codecName the flat codec constant of a referenced type
 * @returns {CodecNode}
 */
export function toCodecTree(ir, codecName) {
  const recur = (/** @type {TypeIR} */ inner) => toCodecTree(inner, codecName);
  switch (ir.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'undefined':
    case 'unknown':
    case 'bigint':
    case 'unknownRecord':
    case 'emptyObject':
      return { kind: 'leaf', ...leaves[ir.kind] };
    case 'literal':
      return { kind: 'literal', value: ir.value };
    case 'ref': {
      const name = codecName(ir.id);
      return { kind: 'leaf', runtime: name, type: `${name}Codec` };
    }
    case 'array':
      return { kind: 'array', element: recur(ir.element) };
    case 'record':
      return { kind: 'record', value: recur(ir.value), optionalValues: ir.optionalValues };
    case 'object': {
      const required = ir.properties.filter((p) => !p.optional).map((p) => ({ name: p.name, node: recur(p.type) }));
      const optional = ir.properties.filter((p) => p.optional).map((p) => ({ name: p.name, node: recur(p.type) }));
      if (required.length === 0 && optional.length === 0) return { kind: 'leaf', ...leaves.emptyObject };
      if (optional.length === 0) return { kind: 'type', properties: required };
      return { kind: 'struct', required, optional };
    }
    case 'union':
      return unionNode(flattenUnion(ir).map(recur));
    case 'intersection': {
      const members = flattenIntersection(ir);
      const records = members.filter((m) => m.kind === 'record');
      const declared = members.filter((m) => m.kind !== 'record');
      const [record] = records;
      if (!record || record.kind !== 'record') return intersectionNode(members.map(recur));
      if (records.length > 1 || declared.length === 0) throw new Error('unsupported intersection of maps');
      const [single] = declared;
      const named = declared.length === 1 && single ? recur(single) : intersectionNode(declared.map(recur));
      /** @type {TypeIR} */
      const rest = record.optionalValues ? { kind: 'union', members: [record.value, { kind: 'undefined' }] } : record.value;
      return { kind: 'withRest', named, rest: recur(rest) };
    }
  }
  throw new Error(`unknown IR kind ${/** @type {{ kind: string }} */ (ir).kind}`);
}

/** @param {TypeIR} ir @returns {TypeIR[]} */
function flattenUnion(ir) {
  return ir.kind === 'union' ? ir.members.flatMap(flattenUnion) : [ir];
}

/** @param {TypeIR} ir @returns {TypeIR[]} */
function flattenIntersection(ir) {
  return ir.kind === 'intersection' ? ir.members.flatMap(flattenIntersection) : [ir];
}

/**
 * Deduplicates members (`string | null | null`), groups string literals into one `t.keyof`
 * placed where the first literal was, and collapses a single member.
 * @param {CodecNode[]} members
 * @returns {CodecNode}
 */
function unionNode(members) {
  const stringLiterals = members.flatMap((m) => (m.kind === 'literal' && typeof m.value === 'string' ? [m.value] : []));
  /** @type {CodecNode[]} */
  const grouped = [];
  const seen = new Set();
  let literalsPlaced = false;
  for (const member of members) {
    if (stringLiterals.length > 1 && member.kind === 'literal' && typeof member.value === 'string') {
      if (!literalsPlaced) grouped.push({ kind: 'keyof', values: [...new Set(stringLiterals)] });
      literalsPlaced = true;
      continue;
    }
    const key = printRuntime(member, 0, false);
    if (seen.has(key)) continue;
    seen.add(key);
    grouped.push(member);
  }
  const isLeaf = (/** @type {CodecNode} */ m, /** @type {Leaf} */ leaf) => m.kind === 'leaf' && m.runtime === leaf.runtime;
  const defined = grouped.filter((m) => !isLeaf(m, leaves.undefined));
  if (defined.length < grouped.length && defined.length > 0) {
    // `undefined` first, so that a `nullable` member does not read it as `null`.
    return { kind: 'union', members: [{ kind: 'leaf', ...leaves.undefined }, unionNode(defined)] };
  }
  const nonNull = grouped.filter((m) => !isLeaf(m, leaves.null));
  if (nonNull.length < grouped.length && nonNull.length > 0) return { kind: 'nullable', inner: unionNode(nonNull) };
  const [only] = grouped;
  return grouped.length === 1 && only ? only : { kind: 'union', members: grouped };
}

/**
 * @param {CodecNode[]} members
 * @returns {CodecNode}
 */
function intersectionNode(members) {
  if (members.length <= maxIntersection) return { kind: 'intersection', members };
  return {
    kind: 'intersection',
    members: [...members.slice(0, maxIntersection - 1), intersectionNode(members.slice(maxIntersection - 1))],
  };
}

/** Properties of an unknown variant, which a tag property cannot be named. */
const unknownVariantKeys = new Set(['_unknown', 'tag', 'literal', 'raw']);

/**
 * The tag of a union whose members are all objects with one required property of a distinct
 * string literal each (`type`, `method`, ...), or undefined.
 * @param {CodecNode[]} members
 * @returns {{ tag: string, tags: string[] } | undefined}
 */
export function unionTag(members) {
  /**
   * The required properties of an object member; of an intersection, those of its object parts.
   * @param {CodecNode} m
   * @returns {{ name: string, node: CodecNode }[] | undefined}
   */
  const requiredOf = (m) => {
    if (m.kind === 'type') return m.properties;
    if (m.kind === 'struct') return m.required;
    if (m.kind !== 'intersection') return undefined;
    const parts = m.members.map(requiredOf);
    return parts.some((part) => part !== undefined) ? parts.flatMap((part) => part ?? []) : undefined;
  };
  const [first] = members;
  const firstProps = first ? requiredOf(first) : undefined;
  if (members.length < 2 || !firstProps) return undefined;
  for (const candidate of firstProps.filter((p) => !unknownVariantKeys.has(p.name))) {
    const tags = members.map((m) => {
      const property = requiredOf(m)?.find((p) => p.name === candidate.name);
      return property && property.node.kind === 'literal' && typeof property.node.value === 'string' ? property.node.value : undefined;
    });
    const known = tags.filter((tag) => tag !== undefined);
    if (known.length === members.length && new Set(known).size === known.length) return { tag: candidate.name, tags: known };
  }
  return undefined;
}

/**
 * The forward-compatible form of a codec tree: every enum of string literals becomes an
 * `openKeyof` and every tagged union of objects an `openUnion` (references are left alone:
 * the referenced type has its own codec).
 * @param {CodecNode} node
 * @returns {CodecNode}
 */
export function openTree(node) {
  const prop = (/** @type {{ name: string, node: CodecNode }} */ p) => ({ name: p.name, node: openTree(p.node) });
  switch (node.kind) {
    case 'keyof':
      return { kind: 'openKeyof', values: node.values };
    case 'union': {
      const members = node.members.map(openTree);
      const tagged = unionTag(members);
      return tagged ? { kind: 'openUnion', ...tagged, members } : { kind: 'union', members };
    }
    case 'intersection':
      return { kind: 'intersection', members: node.members.map(openTree) };
    case 'nullable':
      return { kind: 'nullable', inner: openTree(node.inner) };
    case 'type':
      return { kind: 'type', properties: node.properties.map(prop) };
    case 'struct':
      return { kind: 'struct', required: node.required.map(prop), optional: node.optional.map(prop) };
    case 'record':
      return { ...node, value: openTree(node.value) };
    case 'array':
      return { kind: 'array', element: openTree(node.element) };
    case 'withRest':
      return { kind: 'withRest', named: openTree(node.named), rest: openTree(node.rest) };
    default:
      return node;
  }
}

/** Width past which a printed expression is broken over several lines. */
const lineWidth = 110;

/** @param {string} name */
export function propertyKey(name) {
  if (name === '__proto__') throw new Error('a property named __proto__ cannot be generated safely');
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * Prints a list: inline when it fits, otherwise one item per line.
 * @param {string} open
 * @param {string[]} inlineItems
 * @param {(indent: number) => string[]} blockItems
 * @param {string} close
 * @param {string} separator
 * @param {number} indent
 * @param {boolean} allowBreak
 * @param {boolean} [trailingSeparator] whether the last line of a block ends with the separator
 */
function printList(open, inlineItems, blockItems, close, separator, indent, allowBreak, trailingSeparator = true) {
  const inline = `${open}${inlineItems.join(`${separator} `)}${close}`;
  if (!allowBreak || indent + inline.length <= lineWidth || inlineItems.length === 0) return inline;
  const pad = '  '.repeat(indent + 1);
  const items = blockItems(indent + 1);
  const lines = items.map((item, i) => `${pad}${item}${i < items.length - 1 || trailingSeparator ? separator : ''}`);
  return `${open.trimEnd()}\n${lines.join('\n')}\n${'  '.repeat(indent)}${close.trimStart()}`;
}

/**
 * Prints an object literal of properties (`{ a: X, b: Y }` at runtime, `{ a: X; b: Y }` as a
 * type); no properties print as `Record<never, never>` in a type.
 * @param {{ name: string, node: CodecNode }[]} properties
 * @param {number} indent
 * @param {boolean} allowBreak
 * @param {(n: CodecNode, i: number, b: boolean) => string} sub
 * @param {',' | ';'} separator `,` for runtime objects, `;` for types
 */
function printProps(properties, indent, allowBreak, sub, separator) {
  if (properties.length === 0) return separator === ';' ? 'Record<never, never>' : '{}';
  const inline = properties.map((p) => `${propertyKey(p.name)}: ${sub(p.node, 0, false)}`);
  const block = (/** @type {number} */ i) => properties.map((p) => `${propertyKey(p.name)}: ${sub(p.node, i, true)}`);
  return printList('{ ', inline, block, ' }', separator, indent, allowBreak);
}

/**
 * The runtime io-ts expression of a codec tree.
 * @param {CodecNode} node
 * @param {number} indent nesting level, for line breaking
 * @param {boolean} allowBreak
 * @param {string} [name] the codec's name, given to the outermost combinator
 * @returns {string}
 */
export function printRuntime(node, indent, allowBreak, name) {
  const named = name === undefined ? '' : `, ${JSON.stringify(name)}`;
  const sub = (/** @type {CodecNode} */ n, /** @type {number} */ i, /** @type {boolean} */ b) => printRuntime(n, i, b);
  switch (node.kind) {
    case 'leaf':
      return node.runtime;
    case 'literal':
      return `t.literal(${JSON.stringify(node.value)})`;
    case 'keyof': {
      const items = node.values.map((v) => `${propertyKey(v)}: null`);
      return `t.keyof(${printList('{ ', items, () => items, ' }', ',', indent, allowBreak)}${named})`;
    }
    case 'openKeyof': {
      const items = node.values.map((v) => `${propertyKey(v)}: null`);
      return `openKeyof(${printList('{ ', items, () => items, ' }', ',', indent, allowBreak)}${named})`;
    }
    case 'openUnion': {
      const inline = node.members.map((m) => sub(m, 0, false));
      const members = printList('[', inline, (i) => node.members.map((m) => sub(m, i, true)), ']', ',', indent, allowBreak);
      return `openUnion(${JSON.stringify(node.tag)}, ${JSON.stringify(node.tags)}, ${members}${named})`;
    }
    case 'array':
      return `t.array(${sub(node.element, indent, allowBreak)}${named})`;
    case 'record': {
      const value = sub(node.value, indent, allowBreak);
      return node.optionalValues ? `optionalRecord(${value}${named})` : `t.record(t.string, ${value}${named})`;
    }
    case 'union':
    case 'intersection': {
      const fn = node.kind === 'union' ? 't.union' : 'intersection';
      const inline = node.members.map((m) => sub(m, 0, false));
      return `${fn}(${printList('[', inline, (i) => node.members.map((m) => sub(m, i, true)), ']', ',', indent, allowBreak)}${named})`;
    }
    case 'nullable':
      return `nullable(${sub(node.inner, indent, allowBreak)}${named})`;
    case 'type':
      return `t.type(${printProps(node.properties, indent, allowBreak, sub, ',')}${named})`;
    case 'struct': {
      const items = (/** @type {number} */ i, /** @type {boolean} */ b) => [
        printProps(node.required, i, b, sub, ','),
        printProps(node.optional, i, b, sub, ','),
        ...(name === undefined ? [] : [JSON.stringify(name)]),
      ];
      return `struct(${printList('', items(0, false), (i) => items(i, true), '', ',', indent, allowBreak)})`;
    }
    case 'withRest': {
      const items = (/** @type {number} */ i, /** @type {boolean} */ b) => [
        sub(node.named, i, b),
        sub(node.rest, i, b),
        ...(name === undefined ? [] : [JSON.stringify(name)]),
      ];
      return `withRest(${printList('', items(0, false), (i) => items(i, true), '', ',', indent, allowBreak)})`;
    }
  }
  throw new Error('unknown codec node');
}

/**
 * The static io-ts codec type of a codec tree (`t.TypeC<{ ... }>` and friends).
 * @param {CodecNode} node
 * @param {number} indent
 * @param {boolean} allowBreak
 * @returns {string}
 */
export function printType(node, indent, allowBreak) {
  const sub = (/** @type {CodecNode} */ n, /** @type {number} */ i, /** @type {boolean} */ b) => printType(n, i, b);
  switch (node.kind) {
    case 'leaf':
      return node.type;
    case 'literal':
      return `t.LiteralC<${JSON.stringify(node.value)}>`;
    case 'keyof': {
      const items = node.values.map((v) => `${propertyKey(v)}: null`);
      return `t.KeyofC<${printList('{ ', items, () => items, ' }', ';', indent, allowBreak)}>`;
    }
    case 'openKeyof': {
      const items = node.values.map((v) => `${propertyKey(v)}: null`);
      return `OpenKeyofC<${printList('{ ', items, () => items, ' }', ';', indent, allowBreak)}>`;
    }
    case 'openUnion': {
      const inline = node.members.map((m) => sub(m, 0, false));
      const members = printList('[', inline, (i) => node.members.map((m) => sub(m, i, true)), ']', ',', indent, allowBreak);
      return `OpenUnionC<${JSON.stringify(node.tag)}, ${members}>`;
    }
    case 'array':
      return `t.ArrayC<${sub(node.element, indent, allowBreak)}>`;
    case 'record': {
      const value = sub(node.value, indent, allowBreak);
      return node.optionalValues ? `OptionalRecordC<${value}>` : `t.RecordC<t.StringC, ${value}>`;
    }
    case 'union':
    case 'intersection': {
      const fn = node.kind === 'union' ? 't.UnionC' : 't.IntersectionC';
      const inline = node.members.map((m) => sub(m, 0, false));
      return `${fn}<${printList('[', inline, (i) => node.members.map((m) => sub(m, i, true)), ']', ',', indent, allowBreak)}>`;
    }
    case 'nullable':
      return `NullableC<${sub(node.inner, indent, allowBreak)}>`;
    case 'type':
      return `t.TypeC<${printProps(node.properties, indent, allowBreak, sub, ';')}>`;
    case 'struct': {
      const items = (/** @type {number} */ i, /** @type {boolean} */ b) => [
        printProps(node.required, i, b, sub, ';'),
        printProps(node.optional, i, b, sub, ';'),
      ];
      return `StructC<${printList('', items(0, false), (i) => items(i, true), '', ',', indent, allowBreak, false)}>`;
    }
    case 'withRest': {
      const parts = [node.named, node.rest];
      const inline = parts.map((m) => sub(m, 0, false));
      const list = printList('', inline, (i) => parts.map((m) => sub(m, i, true)), '', ',', indent, allowBreak, false);
      return `WithRestC<${list}>`;
    }
  }
  throw new Error('unknown codec node');
}

/**
 * Whether the outermost combinator of a tree accepts a name.
 * @param {CodecNode} node
 */
export function acceptsName(node) {
  return node.kind !== 'leaf' && node.kind !== 'literal';
}

/** The hand-written modules that generated codecs import helpers from, by helper (types are PascalCase). */
const helperModules = {
  jsonBigInt: '../WireCodecs.js',
  JsonBigIntC: '../WireCodecs.js',
  emptyObject: '../WireCodecs.js',
  EmptyObjectC: '../WireCodecs.js',
  nullable: '../WireCodecs.js',
  NullableC: '../WireCodecs.js',
  optionalRecord: '../WireCodecs.js',
  OptionalRecordC: '../WireCodecs.js',
  intersection: '../StructCodecs.js',
  struct: '../StructCodecs.js',
  StructC: '../StructCodecs.js',
  withRest: '../StructCodecs.js',
  WithRestC: '../StructCodecs.js',
  openKeyof: '../OpenCodecs.js',
  OpenKeyofC: '../OpenCodecs.js',
  openUnion: '../OpenCodecs.js',
  OpenUnionC: '../OpenCodecs.js',
};

/**
 * The import declarations of the hand-written helpers a set of codec trees uses.
 * @param {CodecNode[]} nodes
 * @returns {string[]}
 */
export function helperImports(nodes) {
  /** @type {Set<keyof typeof helperModules>} */
  const used = new Set();
  /** @param {CodecNode} node */
  const visit = (node) => {
    switch (node.kind) {
      case 'leaf':
        if (node.runtime === leaves.bigint.runtime) used.add('jsonBigInt').add('JsonBigIntC');
        if (node.runtime === leaves.emptyObject.runtime) used.add('emptyObject').add('EmptyObjectC');
        break;
      case 'nullable':
        used.add('nullable').add('NullableC');
        visit(node.inner);
        break;
      case 'record':
        if (node.optionalValues) used.add('optionalRecord').add('OptionalRecordC');
        visit(node.value);
        break;
      case 'array':
        visit(node.element);
        break;
      case 'intersection':
        used.add('intersection');
        node.members.forEach(visit);
        break;
      case 'union':
        node.members.forEach(visit);
        break;
      case 'openKeyof':
        used.add('openKeyof').add('OpenKeyofC');
        break;
      case 'openUnion':
        used.add('openUnion').add('OpenUnionC');
        node.members.forEach(visit);
        break;
      case 'type':
        node.properties.forEach((p) => visit(p.node));
        break;
      case 'struct':
        used.add('struct').add('StructC');
        [...node.required, ...node.optional].forEach((p) => visit(p.node));
        break;
      case 'withRest':
        used.add('withRest').add('WithRestC');
        visit(node.named);
        visit(node.rest);
        break;
    }
  };
  nodes.forEach(visit);
  /** @type {Map<string, string[]>} */
  const byModule = new Map();
  for (const name of [...used].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))) {
    const module = helperModules[name];
    const isType = name[0] === name[0]?.toUpperCase();
    byModule.set(module, [...(byModule.get(module) ?? []), isType ? `type ${name}` : name]);
  }
  return [...byModule]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([module, names]) => `import { ${names.join(', ')} } from '${module}';`);
}

/**
 * Prints an IR back as a TypeScript type, with references named by `refName`.
 * @param {TypeIR} ir
 * @param {(id: string) => string} refName
 * @returns {string}
 */
export function printTsType(ir, refName) {
  const sub = (/** @type {TypeIR} */ inner) => printTsType(inner, refName);
  switch (ir.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'undefined':
    case 'unknown':
    case 'bigint':
      return ir.kind;
    case 'literal':
      return JSON.stringify(ir.value);
    case 'ref':
      return refName(ir.id);
    case 'union':
      return ir.members.map(sub).join(' | ');
    case 'intersection':
      return ir.members.map((m) => `(${sub(m)})`).join(' & ');
    case 'array':
      return `Array<${sub(ir.element)}>`;
    case 'record':
      return ir.optionalValues ? `{ [key in string]?: ${sub(ir.value)} }` : `Record<string, ${sub(ir.value)}>`;
    case 'emptyObject':
      return 'Record<string, never>';
    case 'unknownRecord':
      return '{ [key: string]: unknown }';
    case 'object':
      return `{ ${ir.properties.map((p) => `${propertyKey(p.name)}${p.optional ? '?' : ''}: ${sub(p.type)}`).join('; ')} }`;
  }
  throw new Error('unknown IR kind');
}
