#!/usr/bin/env node
/**
 * Checks one built library the way a consumer outside the workspace meets it:
 *   1. publint: the package.json `exports`, `files` and types are publishable;
 *   2. are-the-types-wrong (esm-only profile): every entry point resolves to types under node16/bundler;
 *   3. a consumer test: the packed tarball is unpacked into a scratch project, a TypeScript file
 *      importing every public entry point (a `.json` one, such as a schema document, with the `json`
 *      import attribute) is compiled without the workspace's source condition,
 *      and the compiled file is run with plain Node;
 *   4. the publishing rules of `rules.mjs`: metadata that agrees with the root package.json, the root's
 *      LICENSE, fp-ts and io-ts as peers exactly where the public types expose them (`exposedTypes.mjs`),
 *      ranges instead of exact versions, and a tarball that holds LICENSE, README and its `exports`.
 * The release as a whole (versions, CHANGELOGs, one copy of fp-ts in a host) is `release.mjs`'s.
 * Usage: node tools/package-check/check.mjs <package-dir>
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, symlinkSync, rmSync, existsSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { exposedPackages } from './exposedTypes.mjs';
import { exactPinProblems, metadataProblems, sharedDependencyProblems, tarballProblems } from './rules.mjs';

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkgDir = resolve(process.argv[2] ?? '.');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const failures = [];

const root = JSON.parse(readFileSync(join(workspaceRoot, 'package.json'), 'utf8'));
failures.push(...metadataProblems(pkg, root, relative(workspaceRoot, pkgDir).split(sep).join('/')));
failures.push(...sharedDependencyProblems(pkg, exposedPackages(pkgDir, pkg)));
failures.push(...exactPinProblems(pkg));
const license = join(pkgDir, 'LICENSE');
if (!existsSync(license) || readFileSync(license, 'utf8') !== readFileSync(join(workspaceRoot, 'LICENSE'), 'utf8')) {
  failures.push(`${pkg.name}: LICENSE must be a copy of the root LICENSE (npm packs a package's own file only)`);
}

const { messages } = await publint({ pkgDir, level: 'suggestion', strict: true });
for (const message of messages) failures.push(`publint: ${formatMessage(message, pkg) ?? message.code}`);

const attwBin = join(workspaceRoot, 'node_modules/@arethetypeswrong/cli/dist/index.js');
try {
  execFileSync(process.execPath, [attwBin, '--pack', pkgDir, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji'], { stdio: 'pipe' });
} catch (error) {
  failures.push(`are-the-types-wrong:\n${error.stdout?.toString() ?? ''}${error.stderr?.toString() ?? ''}`);
}

const scratch = mkdtempSync(join(tmpdir(), 'package-check-'));
try {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: pkgDir, stdio: ['ignore', 'pipe', 'pipe'] }).toString());
  const tarball = packed.filename;
  failures.push(...tarballProblems(pkg, packed.files.map((file) => file.path)));
  const installDir = join(scratch, 'node_modules', ...pkg.name.split('/'));
  mkdirSync(installDir, { recursive: true });
  execFileSync('tar', ['-xzf', join(scratch, tarball), '-C', installDir, '--strip-components=1']);
  // Dependencies come from the workspace install, as a registry install would provide them.
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })) {
    const source = join(workspaceRoot, 'node_modules', ...dep.split('/'));
    if (!existsSync(source)) continue;
    const target = join(scratch, 'node_modules', ...dep.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    if (!existsSync(target)) symlinkSync(realpathSync(source), target, 'dir');
  }
  const entryPoints = Object.entries(pkg.exports ?? {})
    .filter(([key, value]) => value !== null && !key.includes('*') && key !== './package.json')
    .map(([key]) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
  // A JSON entry (a schema document) is imported as a consumer imports JSON: with the `json` import attribute.
  const lines = entryPoints.map((spec, i) => (spec.endsWith('.json') ? `import entry${i} from '${spec}' with { type: 'json' };` : `import * as entry${i} from '${spec}';`));
  lines.push(`const entries: Record<string, object> = { ${entryPoints.map((spec, i) => `'${spec}': entry${i}`).join(', ')} };`);
  lines.push(`for (const [spec, entry] of Object.entries(entries)) {`);
  lines.push(`  if (Object.keys(entry).length === 0) throw new Error(spec + ' exports nothing at runtime');`);
  lines.push(`  console.log(spec + ': ' + Object.keys(entry).length + ' runtime exports');`);
  lines.push(`}`);
  writeFileSync(join(scratch, 'consumer.mts'), lines.join('\n') + '\n');
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, skipLibCheck: false, resolveJsonModule: true, types: ['node'], typeRoots: [join(workspaceRoot, 'node_modules/@types')], outDir: 'out' }, files: ['consumer.mts'] }),
  );
  try {
    execFileSync(process.execPath, [join(workspaceRoot, 'node_modules/typescript/bin/tsc'), '-p', scratch], { cwd: scratch, stdio: 'pipe' });
    process.stdout.write(execFileSync(process.execPath, [join(scratch, 'out/consumer.mjs')], { cwd: scratch }).toString());
  } catch (error) {
    failures.push(`consumer test:\n${error.stdout?.toString() ?? ''}${error.stderr?.toString() ?? ''}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`${pkg.name}: package check failed\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`${pkg.name}: publint, are-the-types-wrong, the consumer test and the publishing rules pass`);
