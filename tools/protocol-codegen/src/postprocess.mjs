/**
 * Makes the ts-rs output compile under `moduleResolution: NodeNext`: relative module specifiers
 * get an explicit `.js` extension (`"./v2"` becomes `"./v2/index.js"`). Nothing else changes;
 * every other byte of every file is kept.
 *
 * Pure: a tree in, a tree out.
 */
import ts from 'typescript';
import { posix } from 'node:path';

/**
 * Rewrites the relative import and export specifiers of every `.ts` file in the tree.
 * @param {Map<string, string>} tree generated files by relative path
 * @returns {Map<string, string>}
 */
export function addJsExtensions(tree) {
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const [path, text] of tree) {
    out.set(path, path.endsWith('.ts') ? rewriteSpecifiers(path, text, tree) : text);
  }
  return out;
}

/**
 * @param {string} path
 * @param {string} text
 * @param {Map<string, string>} tree
 */
function rewriteSpecifiers(path, text, tree) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  /** @type {{ start: number, end: number, value: string }[]} */
  const edits = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    edits.push({
      start: specifier.getStart(source) + 1,
      end: specifier.getEnd() - 1,
      value: resolveSpecifier(path, specifier.text, tree),
    });
  }
  let result = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    result = result.slice(0, edit.start) + edit.value + result.slice(edit.end);
  }
  return result;
}

/**
 * @param {string} fromPath
 * @param {string} specifier
 * @param {Map<string, string>} tree
 */
function resolveSpecifier(fromPath, specifier, tree) {
  const target = posix.normalize(posix.join(posix.dirname(fromPath), specifier));
  if (tree.has(`${target}.ts`)) return `${specifier}.js`;
  if (tree.has(`${target}/index.ts`)) return `${specifier}/index.js`;
  throw new Error(`${fromPath}: cannot resolve import "${specifier}" inside the generated tree`);
}
