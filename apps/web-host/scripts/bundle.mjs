/**
 * Builds the web host for the browser: one ES module bundle (`app.js`) from `src/main.tsx`, plus the
 * page (`index.html`) and its style sheet, into `dist/`. The bundle is built with esbuild for
 * `platform: 'browser'` and without polyfills; a Node built-in (`fs`, `node:crypto`, ...) anywhere in
 * the import graph fails the build, naming the built-in and the module that imported it. The workspace
 * libraries are bundled from their TypeScript sources (the `@wework/source` condition), unchanged.
 */
import { builtinModules } from 'node:module';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The files of the built bundle, in the order the page loads them. */
export const BUNDLE_FILES = ['index.html', 'app.js', 'styles.css'];

const builtins = new Set(builtinModules.flatMap((name) => [name, name.split('/')[0]]));

/** Whether an import path names a Node built-in (`node:…`, or a bare built-in name such as `fs` or `fs/promises`). */
export function isNodeBuiltin(path) {
  if (path.startsWith('node:')) return true;
  return builtins.has(path) || builtins.has(path.split('/')[0]);
}

/** An esbuild plugin that refuses every Node built-in, naming it and its importer. */
export function refuseNodeBuiltins(root) {
  return {
    name: 'refuse-node-builtins',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point' || !isNodeBuiltin(args.path)) return undefined;
        const importer = args.importer === '' ? '(unknown)' : relative(root, args.importer);
        return { errors: [{ text: `the browser bundle may not use the Node built-in "${args.path}" (imported by ${importer})` }] };
      });
    },
  };
}

/**
 * Bundles `entry` (default `src/main.tsx`) of the app at `root` into `outdir` (default `dist`).
 * Resolves with the size of each file written (bytes and gzip bytes); rejects with esbuild's error
 * when the build fails (a Node built-in, a missing module, a type-free syntax error).
 */
export async function bundleWebHost({ root, outdir = join(root, 'dist'), entry = join(root, 'src', 'main.tsx'), staticDir = join(root, 'src') }) {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await build({
    entryPoints: { app: entry },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    conditions: ['@wework/source', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    plugins: [refuseNodeBuiltins(root)],
  });
  await Promise.all(['index.html', 'styles.css'].map((name) => copyFile(join(staticDir, name), join(outdir, name))));
  const sizes = [];
  for (const name of BUNDLE_FILES) {
    const bytes = await readFile(join(outdir, name));
    sizes.push({ name, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length });
  }
  return sizes;
}

/** The size report the build prints: one line per file and the total. */
export function formatSizes(sizes) {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const lines = sizes.map((s) => `  ${s.name.padEnd(12)} ${kib(s.bytes).padStart(10)}  (gzip ${kib(s.gzipBytes)})`);
  const total = sizes.reduce((sum, s) => ({ bytes: sum.bytes + s.bytes, gzipBytes: sum.gzipBytes + s.gzipBytes }), { bytes: 0, gzipBytes: 0 });
  return [`web-host bundle:`, ...lines, `  ${'total'.padEnd(12)} ${kib(total.bytes).padStart(10)}  (gzip ${kib(total.gzipBytes)})`].join('\n');
}
