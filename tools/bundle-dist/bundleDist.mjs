#!/usr/bin/env node
/**
 * Bundles a package's entry points into few modules after `tsc` has written its own output.
 *
 * Library mode (the default): each entry becomes one ES module in `dist/` (shared code in one
 * `dist/chunk-*.js`), with a source map back to `src/`. Everything the package depends on
 * (dependencies and peer dependencies) stays an import, so a host's tree keeps one copy of io-ts and
 * fp-ts. Declarations stay one per source module, so editors and type checkers see the sources' layout.
 *
 * App mode (`--app`, for a private app's command entry): each entry becomes `dist/<entry>.js` for Node
 * with the app's own modules **and its dependencies' code** in it, shared and lazily imported code in
 * `dist/chunks/`; only the packages named with `--external` stay imports (native add-ons, packages
 * found by path at run time). A `require` is provided for bundled CommonJS code. fp-ts and io-ts are
 * bundled from their ES module builds, and a package installed more than once at the same version is
 * bundled once. The build also writes `dist/bundle-meta.json`: for each output file, the source and
 * dependency modules in it, so a test can still tell which modules a process had loaded.
 *
 * Why: Node's ES module loader pays per module (resolution, format detection, package.json reads),
 * and a library of twenty modules costs several times its code; parse time follows the text's size,
 * so whitespace and syntax are minified too (names are kept). An app's start loads a few hundred
 * modules of its own and of its dependencies; as a handful of files it starts in a fraction of that.
 *
 * Usage: node tools/bundle-dist/bundleDist.mjs <package-dir> <entry.ts>... [--inline <package>]...
 *                                              [--app [--external <package>]...]
 *   (entries relative to the package, e.g. src/index.ts src/testing.ts → dist/index.js dist/testing.js).
 *   `--inline` bundles a dependency's code in instead of importing it: for a small, pure workspace
 *   library whose own resolution and loading would cost more than its code (each bare specifier is a
 *   walk up node_modules and a package.json read). Its types still come from the dependency.
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

const [pkgArg, ...rest] = process.argv.slice(2);
const valued = new Set(['--inline', '--external']);
const valuesOf = (flag) => rest.flatMap((arg, i) => (rest[i - 1] === flag ? [arg] : []));
const inline = valuesOf('--inline');
const kept = valuesOf('--external');
const app = rest.includes('--app');
const entries = rest.filter((arg, i) => !valued.has(arg) && arg !== '--app' && !valued.has(rest[i - 1] ?? ''));
if (pkgArg === undefined || entries.length === 0) {
  console.error('usage: bundleDist.mjs <package-dir> <entry.ts>... [--inline <package>]... [--app [--external <package>]...]');
  process.exit(2);
}
const pkgDir = resolve(pkgArg);
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const dependencies = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const external = (app ? kept : dependencies.filter((name) => !inline.includes(name))).flatMap((name) => [name, `${name}/*`]);
const outdir = join(pkgDir, 'dist');

// Earlier chunks would linger beside the new ones.
if (app) rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
else for (const file of readdirSync(outdir)) if (/^chunk-.*\.js(\.map)?$/.test(file)) rmSync(join(outdir, file));

/** The directory of the installed package `file` belongs to: the child of its last `node_modules`. */
const packageRootOf = (file) => {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return null;
  const depth = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + depth).join(sep);
};

/** `name@version` of the installed package at `root`, or `null` when its package.json does not say. */
const packageKeyOf = (root) => {
  try {
    const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    return typeof name === 'string' && typeof version === 'string' ? `${name}@${version}` : null;
  } catch {
    return null;
  }
};

/**
 * One copy of each package version in an app bundle. npm installs the same version of a package under
 * several workspaces when the root holds another version (smol-toml: nx keeps an older one at the root),
 * and each copy would be bundled, parsed and run on its own. An import that resolves into another copy of
 * the package the app itself resolves (same name and version) is pointed at the app's copy, so the copy
 * kept never depends on the order of resolution. Anything else resolves as esbuild would.
 */
const onePackageCopy = {
  name: 'one-package-copy',
  setup(pluginBuild) {
    const resolve = (path, options) => pluginBuild.resolve(path, { ...options, pluginData: { resolving: true } });
    pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.resolving === true) return undefined;
      const resolved = await resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir });
      if (resolved.errors.length > 0 || resolved.external) return undefined;
      const root = packageRootOf(resolved.path);
      if (root === null) return undefined;
      const own = await resolve(args.path, { kind: args.kind, resolveDir: pkgDir });
      const ownRoot = own.errors.length > 0 || own.external ? null : packageRootOf(own.path);
      if (ownRoot === null || ownRoot === root) return undefined;
      const key = packageKeyOf(root);
      if (key === null || key !== packageKeyOf(ownRoot)) return undefined;
      return { path: own.path, sideEffects: own.sideEffects };
    });
  },
};

const result = await build({
  absWorkingDir: pkgDir,
  entryPoints: entries,
  outdir,
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: app ? 'node' : 'neutral',
  target: 'es2022',
  external,
  ...(app
    ? {
        chunkNames: 'chunks/[name]-[hash]',
        // Bundled CommonJS code (fp-ts, io-ts, vscode-jsonrpc) calls require; an ES module has none.
        banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
        metafile: true,
        plugins: [onePackageCopy],
        // fp-ts and io-ts ship the same code as ES modules: bundled from those, their unused parts are
        // left out and no CommonJS interop (a property copy per module) runs at start.
        alias: { 'fp-ts/lib': 'fp-ts/es6', 'io-ts/lib': 'io-ts/es6', 'io-ts': 'io-ts/es6/index.js' },
      }
    : {}),
  sourcemap: 'linked',
  legalComments: 'none',
  // Whitespace and syntax only: names stay as written (stack traces and decode errors keep them); the
  // source map leads back to src/. Together worth about 5 ms of parse on a 2-core machine.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

if (app) {
  // Output file (relative to dist/) → the modules bundled into it (relative to the package).
  const modules = Object.fromEntries(
    Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, output]) => [relative(outdir, join(pkgDir, file)), Object.keys(output.inputs).sort()]),
  );
  writeFileSync(join(outdir, 'bundle-meta.json'), `${JSON.stringify({ modules }, null, 1)}\n`);
}
