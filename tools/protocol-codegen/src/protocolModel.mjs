/**
 * Reads the ts-rs output into plain data: one type declaration per file, translated into a small
 * intermediate representation (IR) of the TypeScript subset ts-rs emits, plus the method tables
 * of the four message unions (`ClientRequest`, `ClientNotification`, `ServerRequest`,
 * `ServerNotification`).
 *
 * Anything outside the known subset is an error, so a new Codex version that uses a new
 * construct fails loudly here instead of producing a wrong codec.
 *
 * Pure: a tree in, data out.
 */
import ts from 'typescript';
import { posix } from 'node:path';

/**
 * @typedef {{ kind: 'string' } | { kind: 'number' } | { kind: 'boolean' } | { kind: 'null' }
 *   | { kind: 'undefined' } | { kind: 'unknown' } | { kind: 'bigint' }
 *   | { kind: 'literal', value: string | number }
 *   | { kind: 'union', members: TypeIR[] }
 *   | { kind: 'intersection', members: TypeIR[] }
 *   | { kind: 'object', properties: PropertyIR[] }
 *   | { kind: 'unknownRecord' }
 *   | { kind: 'record', value: TypeIR, optionalValues: boolean }
 *   | { kind: 'emptyObject' }
 *   | { kind: 'array', element: TypeIR }
 *   | { kind: 'ref', id: string }} TypeIR
 * @typedef {{ name: string, optional: boolean, type: TypeIR }} PropertyIR
 * @typedef {{ id: string, dir: string, name: string, doc: string | undefined, type: TypeIR }} TypeDecl
 * @typedef {{ method: string, params: TypeIR }} MethodEntry
 * `params` is `undefined` for a method without params; an optional `params?: X` reads `X | undefined`.
 * @typedef {{ clientRequests: MethodEntry[], clientNotifications: MethodEntry[],
 *   serverRequests: MethodEntry[], serverNotifications: MethodEntry[] }} MethodTables
 */

/** The union files that list the protocol's methods, by table. */
export const unionFiles = {
  clientRequests: 'ClientRequest',
  clientNotifications: 'ClientNotification',
  serverRequests: 'ServerRequest',
  serverNotifications: 'ServerNotification',
};

/**
 * Parses every generated type file (all `.ts` files except `index.ts`).
 * @param {Map<string, string>} tree generated files by relative path
 * @returns {{ types: Map<string, TypeDecl>, methods: MethodTables }}
 */
export function readProtocolModel(tree) {
  /** @type {Map<string, TypeDecl>} */
  const types = new Map();
  /** @type {Map<string, ts.TypeNode>} */
  const unionNodes = new Map();
  /** @type {Map<string, (name: string) => string | undefined>} */
  const resolvers = new Map();
  for (const [path, text] of tree) {
    if (!path.endsWith('.ts') || posix.basename(path) === 'index.ts') continue;
    const id = path.slice(0, -'.ts'.length);
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const { declaration, imports } = readFile(source, id);
    const resolve = (/** @type {string} */ name) => (name === declaration.name.text ? id : imports.get(name));
    resolvers.set(id, resolve);
    if (Object.values(unionFiles).includes(id)) {
      unionNodes.set(id, declaration.type);
      continue;
    }
    types.set(id, {
      id,
      dir: posix.dirname(id) === '.' ? '' : posix.dirname(id),
      name: declaration.name.text,
      doc: leadingDoc(source, declaration),
      type: toIR(declaration.type, resolve, id),
    });
  }
  /** @type {Record<string, MethodEntry[]>} */
  const methods = {};
  for (const [table, id] of Object.entries(unionFiles)) {
    const node = unionNodes.get(id);
    const resolve = resolvers.get(id);
    if (!node || !resolve) throw new Error(`generated tree has no ${id}.ts`);
    methods[table] = readMethodUnion(node, resolve, id);
  }
  return { types, methods: /** @type {MethodTables} */ (/** @type {unknown} */ (methods)) };
}

/**
 * @param {ts.SourceFile} source
 * @param {string} id
 */
function readFile(source, id) {
  /** @type {Map<string, string>} */
  const imports = new Map();
  /** @type {ts.TypeAliasDeclaration | undefined} */
  let declaration;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const specifier = /** @type {ts.StringLiteral} */ (statement.moduleSpecifier).text;
      const target = posix.normalize(posix.join(posix.dirname(id), specifier.replace(/\.js$/, '')));
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) throw new Error(`${id}: unsupported import form`);
      for (const element of bindings.elements) imports.set(element.name.text, target);
    } else if (ts.isTypeAliasDeclaration(statement)) {
      if (declaration) throw new Error(`${id}: more than one type declaration`);
      if (statement.typeParameters) throw new Error(`${id}: generic types are not supported`);
      declaration = statement;
    } else {
      throw new Error(`${id}: unsupported statement ${ts.SyntaxKind[statement.kind]}`);
    }
  }
  if (!declaration) throw new Error(`${id}: no type declaration`);
  return { declaration, imports };
}

/**
 * The text of the `/** ... *\/` comment right before a declaration, without the comment markers.
 * @param {ts.SourceFile} source
 * @param {ts.Node} node
 */
function leadingDoc(source, node) {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  if (!last) return undefined;
  const raw = source.text.slice(last.pos, last.end);
  if (!raw.startsWith('/**')) return undefined;
  return raw
    .slice(3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trimEnd())
    .join('\n')
    .trim();
}

/**
 * Translates a type node into the IR.
 * @param {ts.TypeNode} node
 * @param {(name: string) => string | undefined} resolve
 * @param {string} where for error messages
 * @returns {TypeIR}
 */
export function toIR(node, resolve, where) {
  const fail = (/** @type {string} */ what) => {
    throw new Error(`${where}: unsupported ${what}: ${node.getText()}`);
  };
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { kind: 'string' };
    case ts.SyntaxKind.NumberKeyword:
      return { kind: 'number' };
    case ts.SyntaxKind.BooleanKeyword:
      return { kind: 'boolean' };
    case ts.SyntaxKind.BigIntKeyword:
      return { kind: 'bigint' };
    case ts.SyntaxKind.UnknownKeyword:
      return { kind: 'unknown' };
    case ts.SyntaxKind.UndefinedKeyword:
      return { kind: 'undefined' };
  }
  if (ts.isParenthesizedTypeNode(node)) return toIR(node.type, resolve, where);
  if (ts.isLiteralTypeNode(node)) {
    const literal = node.literal;
    if (literal.kind === ts.SyntaxKind.NullKeyword) return { kind: 'null' };
    if (ts.isStringLiteral(literal)) return { kind: 'literal', value: literal.text };
    if (ts.isNumericLiteral(literal)) return { kind: 'literal', value: Number(literal.text) };
    return fail('literal');
  }
  if (ts.isUnionTypeNode(node)) return { kind: 'union', members: node.types.map((t) => toIR(t, resolve, where)) };
  if (ts.isIntersectionTypeNode(node)) {
    return { kind: 'intersection', members: node.types.map((t) => toIR(t, resolve, where)) };
  }
  if (ts.isArrayTypeNode(node)) return { kind: 'array', element: toIR(node.elementType, resolve, where) };
  if (ts.isTypeLiteralNode(node)) return typeLiteralToIR(node, resolve, where);
  if (ts.isMappedTypeNode(node)) {
    if (!node.type || node.typeParameter.constraint?.kind !== ts.SyntaxKind.StringKeyword || node.readonlyToken) {
      return fail('mapped type');
    }
    if (node.questionToken && node.questionToken.kind !== ts.SyntaxKind.QuestionToken) return fail('mapped type');
    return { kind: 'record', value: toIR(node.type, resolve, where), optionalValues: node.questionToken !== undefined };
  }
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText();
    const [first, second, ...more] = node.typeArguments ?? [];
    if (name === 'Array' && first && !second) return { kind: 'array', element: toIR(first, resolve, where) };
    if (name === 'Record' && first && second && more.length === 0) {
      if (first.kind !== ts.SyntaxKind.StringKeyword) return fail('Record key');
      if (second.kind === ts.SyntaxKind.NeverKeyword) return { kind: 'emptyObject' };
      return { kind: 'record', value: toIR(second, resolve, where), optionalValues: false };
    }
    if (first) return fail('generic reference');
    const id = resolve(name);
    if (!id) return fail(`reference to ${name}`);
    return { kind: 'ref', id };
  }
  return fail(ts.SyntaxKind[node.kind]);
}

/**
 * @param {ts.TypeLiteralNode} node
 * @param {(name: string) => string | undefined} resolve
 * @param {string} where
 * @returns {TypeIR}
 */
function typeLiteralToIR(node, resolve, where) {
  const [first] = node.members;
  if (node.members.length === 1 && first && ts.isIndexSignatureDeclaration(first)) {
    const [parameter] = first.parameters;
    if (parameter?.type?.kind === ts.SyntaxKind.StringKeyword && first.type.kind === ts.SyntaxKind.UnknownKeyword) {
      return { kind: 'unknownRecord' };
    }
  }
  /** @type {PropertyIR[]} */
  const properties = [];
  for (const member of node.members) {
    if (!ts.isPropertySignature(member) || !member.type || member.modifiers?.length) {
      throw new Error(`${where}: unsupported member: ${member.getText()}`);
    }
    const name = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : undefined;
    if (name === undefined) throw new Error(`${where}: unsupported property name: ${member.name.getText()}`);
    properties.push({ name, optional: member.questionToken !== undefined, type: toIR(member.type, resolve, where) });
  }
  return { kind: 'object', properties };
}

/**
 * Reads a union of `{ "method": "...", id?, params? }` members.
 * @param {ts.TypeNode} node
 * @param {(name: string) => string | undefined} resolve
 * @param {string} where
 * @returns {MethodEntry[]}
 */
function readMethodUnion(node, resolve, where) {
  const members = ts.isUnionTypeNode(node) ? node.types : [node];
  return members.map((member) => {
    if (!ts.isTypeLiteralNode(member)) throw new Error(`${where}: unsupported union member ${member.getText()}`);
    /** @type {string | undefined} */
    let method;
    /** @type {TypeIR} */
    let params = { kind: 'undefined' };
    for (const property of member.members) {
      if (!ts.isPropertySignature(property) || !property.type) continue;
      const key = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : '';
      const type = property.type;
      if (key === 'method' && ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) method = type.literal.text;
      if (key === 'params') {
        const ir = toIR(type, resolve, where);
        params = property.questionToken ? { kind: 'union', members: [ir, { kind: 'undefined' }] } : ir;
      }
    }
    if (method === undefined) throw new Error(`${where}: union member without a method literal`);
    return { method, params };
  });
}
