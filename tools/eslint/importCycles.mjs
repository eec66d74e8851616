/**
 * Finds cycles of relative imports among the `src/` files of every project. A cycle means that
 * one of its modules runs while another is only half initialised; the workspace keeps none.
 * Type-only imports count too (a type cycle is still two modules that cannot be understood apart);
 * a dynamic `import()` runs after loading and does not.
 *
 * `findImportCycles` is pure (files in, cycles out); `readProjectSources` reads the workspace.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { posix, join, relative, sep } from 'node:path';
import ts from 'typescript';

const sourceExtensions = ['.ts', '.mts', '.mjs', '.js'];

/**
 * The relative specifiers of a module's static imports and re-exports.
 * @param {string} path
 * @param {string} text
 * @returns {string[]}
 */
export function relativeImports(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  /** @type {string[]} */
  const specifiers = [];
  for (const statement of source.statements) {
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier) {
      specifiers.push(/** @type {ts.StringLiteral} */ (statement.moduleSpecifier).text);
    }
  }
  return specifiers.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/**
 * The file a relative specifier names, among the known files (`./a.js` → `a.ts`).
 * @param {Set<string>} files
 * @param {string} from
 * @param {string} specifier
 */
function resolve(files, from, specifier) {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stem = target.replace(/\.(m?js|ts)$/, '');
  const candidates = [target, ...sourceExtensions.map((ext) => `${stem}${ext}`), ...sourceExtensions.map((ext) => `${target}/index${ext}`)];
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * Every import cycle: each strongly connected component of the import graph with more
 * than one file (or a file importing itself), its files sorted, the cycles sorted.
 * @param {Map<string, string>} sources workspace-relative path (with `/`) → text
 * @returns {string[][]}
 */
export function findImportCycles(sources) {
  const files = new Set(sources.keys());
  /** @type {Map<string, string[]>} */
  const edges = new Map();
  for (const [path, text] of sources) {
    const targets = relativeImports(path, text).flatMap((s) => resolve(files, path, s) ?? []);
    edges.set(path, [...new Set(targets)]);
  }
  // Tarjan's strongly connected components, iteratively.
  let next = 0;
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const cycles = [];
  for (const root of [...files].sort()) {
    if (index.has(root)) continue;
    /** @type {{ node: string, i: number }[]} */
    const work = [{ node: root, i: 0 }];
    index.set(root, next);
    low.set(root, next);
    next += 1;
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = /** @type {{ node: string, i: number }} */ (work[work.length - 1]);
      const targets = edges.get(frame.node) ?? [];
      if (frame.i < targets.length) {
        const target = /** @type {string} */ (targets[frame.i]);
        frame.i += 1;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next);
          next += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, i: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(/** @type {number} */ (low.get(frame.node)), /** @type {number} */ (index.get(target))));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(/** @type {number} */ (low.get(parent.node)), /** @type {number} */ (low.get(frame.node))));
      if (low.get(frame.node) === index.get(frame.node)) {
        /** @type {string[]} */
        const component = [];
        let member;
        do {
          member = /** @type {string} */ (stack.pop());
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = component.length === 1 && (edges.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfImport) cycles.push(component.sort());
      }
    }
  }
  return cycles.sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

/**
 * @param {string} dir
 * @returns {string[]}
 */
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : walk(path);
    return sourceExtensions.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The source files under `src/` of every project (libs, apps, tools, bench), by
 * workspace-relative path.
 * @param {string} workspaceRoot
 * @returns {Map<string, string>}
 */
export function readProjectSources(workspaceRoot) {
  /** @type {string[]} */
  const srcDirs = [];
  for (const group of ['libs', 'apps', 'tools']) {
    const dir = join(workspaceRoot, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) if (existsSync(join(dir, name, 'src'))) srcDirs.push(join(dir, name, 'src'));
  }
  if (existsSync(join(workspaceRoot, 'bench', 'src'))) srcDirs.push(join(workspaceRoot, 'bench', 'src'));
  /** @type {Map<string, string>} */
  const sources = new Map();
  for (const dir of srcDirs) {
    for (const file of walk(dir)) sources.set(relative(workspaceRoot, file).split(sep).join('/'), readFileSync(file, 'utf8'));
  }
  return sources;
}
