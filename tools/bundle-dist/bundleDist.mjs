#!/usr/bin/env node
/**
 * Bundles a library's entry points into few modules after `tsc` has written its declarations: each
 * entry becomes one ES module in `dist/` (shared code in one `dist/chunk-*.js`), with a source map
 * back to `src/`. Everything the package depends on (dependencies and peer dependencies) stays an
 * import, so a host's tree keeps one copy of io-ts and fp-ts.
 *
 * Why: Node's ES module loader pays per module (resolution, format detection, package.json reads),
 * and a library of twenty modules costs several times its code; parse time follows the text's size,
 * so whitespace and syntax are minified too (names are kept). Declarations stay one per source
 * module, so editors and type checkers see the sources' layout.
 *
 * Usage: node tools/bundle-dist/bundleDist.mjs <package-dir> <entry.ts>... [--inline <package>]...
 *   (entries relative to the package, e.g. src/index.ts src/testing.ts → dist/index.js dist/testing.js).
 *   `--inline` bundles a dependency's code in instead of importing it: for a small, pure workspace
 *   library whose own resolution and loading would cost more than its code (each bare specifier is a
 *   walk up node_modules and a package.json read). Its types still come from the dependency.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const [pkgArg, ...rest] = process.argv.slice(2);
const inline = rest.flatMap((arg, i) => (rest[i - 1] === '--inline' ? [arg] : []));
const entries = rest.filter((arg, i) => arg !== '--inline' && rest[i - 1] !== '--inline');
if (pkgArg === undefined || entries.length === 0) {
  console.error('usage: bundleDist.mjs <package-dir> <entry.ts>... [--inline <package>]...');
  process.exit(2);
}
const pkgDir = resolve(pkgArg);
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]
  .filter((name) => !inline.includes(name))
  .flatMap((name) => [name, `${name}/*`]);
const outdir = join(pkgDir, 'dist');

// Earlier chunks would linger beside the new ones.
for (const file of readdirSync(outdir)) if (/^chunk-.*\.js(\.map)?$/.test(file)) rmSync(join(outdir, file));

await build({
  absWorkingDir: pkgDir,
  entryPoints: entries,
  outdir,
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external,
  sourcemap: 'linked',
  legalComments: 'none',
  // Whitespace and syntax only: names stay as written (stack traces and decode errors keep them); the
  // source map leads back to src/. Together worth about 5 ms of parse on a 2-core machine.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
