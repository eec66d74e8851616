/**
 * How many names a built library's main entry exports, as a consumer's TypeScript sees them: the
 * checker's exports of the declaration file of `exports['.']` (`types`), values and types alike, each
 * name once (a codec and its type of the same name are one name). Re-exports (`export *`,
 * `export { a } from`) count as the names they bring.
 */
import { resolve } from 'node:path';
import ts from 'typescript';

/**
 * The declaration file of a package's main entry, if it has one.
 * @param {Record<string, any>} pkg
 * @returns {string | undefined} a path inside the package, e.g. `./dist/index.d.ts`
 */
export function mainEntryTypes(pkg) {
  const main = pkg.exports?.['.'];
  return typeof main === 'object' && main !== null && typeof main.types === 'string' ? main.types : undefined;
}

/**
 * The names each library's main entry exports, read with one program over every declaration file.
 * @param {ReadonlyArray<{ readonly name: string; readonly pkgDir: string; readonly pkg: Record<string, any> }>} libraries
 *   libraries with a main entry, built
 * @returns {Map<string, string[]>} per package name, its exported names, sorted
 */
export function mainEntryExports(libraries) {
  const files = libraries.map(({ name, pkgDir, pkg }) => {
    const types = mainEntryTypes(pkg);
    if (types === undefined) throw new Error(`${name}: exports['.'] has no types`);
    return { name, file: resolve(pkgDir, types) };
  });
  const program = ts.createProgram(
    files.map(({ file }) => file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true, types: [] },
  );
  const checker = program.getTypeChecker();
  return new Map(
    files.map(({ name, file }) => {
      const source = program.getSourceFile(file);
      if (source === undefined) throw new Error(`${name}: ${file} is missing: build the library first`);
      const module = checker.getSymbolAtLocation(source);
      return [name, module === undefined ? [] : checker.getExportsOfModule(module).map((symbol) => symbol.name).sort()];
    }),
  );
}
