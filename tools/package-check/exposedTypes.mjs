/**
 * Which packages a built library's public types mention: starting at the `types` file of every public
 * entry point in `exports`, follows the relative imports of the declaration files (`import`, `export … from`,
 * `import('…')`) and collects the packages they import. A package named here is part of the library's API:
 * a consumer's types and the library's must come from the same copy of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { packageOfSpecifier, publicTypeEntries } from './rules.mjs';

/**
 * The packages imported by the declarations reachable from the package's public entry points.
 * @param {string} pkgDir the package's directory (its `dist` built)
 * @param {Record<string, unknown>} pkg its package.json
 * @returns {Set<string>} package names, without subpaths (`fp-ts`, not `fp-ts/Either`)
 */
export function exposedPackages(pkgDir, pkg) {
  const seen = new Set();
  const packages = new Set();
  const pending = publicTypeEntries(pkg).map((file) => resolve(pkgDir, file));
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith('.')) pending.push(declarationOf(join(dirname(file), fileName)));
      else if (!fileName.startsWith('node:')) packages.add(packageOfSpecifier(fileName));
    }
  }
  return packages;
}

/** `./x.js` in a declaration file means `./x.d.ts`. */
function declarationOf(path) {
  if (path.endsWith('.d.ts')) return path;
  if (path.endsWith('.js')) return `${path.slice(0, -3)}.d.ts`;
  return `${path}.d.ts`;
}
