#!/usr/bin/env node
/**
 * A dry run of the release, on a throwaway copy of the working tree (the tree itself is never written):
 *   1. `changeset status` says what the pending changesets would release;
 *   2. in the copy, `npm run version-packages` applies them as the release workflow's version pull request
 *      does (`changeset version`: versions, internal ranges, CHANGELOGs; then the lockfile), a library
 *      whose build writes its version (`tools/package-version`) is built again, as the release builds
 *      after the version pull request, and every library is packed with `npm pack`, as `changeset
 *      publish` would upload it;
 *   3. each tarball holds LICENSE, README.md, its `exports` targets and a package.json with the
 *      publishing metadata (`rules.mjs`: provenance included), at the planned version — 0.1.0 for a
 *      library never released — with one CHANGELOG section for it, and the lockfile records that version;
 *      a library that announces its version announces that one; every workspace range on a library is
 *      still met by it; the release workflow publishes with provenance (`tools/workflow-check/rules.mjs`);
 *   4. a consumer project with its own fp-ts and io-ts installs every tarball (strict about peers; the
 *      third-party dependencies come from the npm cache, else the registry) and ends up with one copy of
 *      each: the libraries take them as peers, so a host's copy is the one they use.
 * It prints each library's version before and after, its publishConfig and what its tarball holds.
 * Usage: node tools/package-check/release.mjs   (the libraries built: `npx nx run-many -t build`)
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { releaseWorkflowProblems } from '../workflow-check/rules.mjs';
import {
  announcedVersionProblems,
  changelogProblems,
  metadataProblems,
  releaseVersionProblems,
  SHARED_IDENTITY_PACKAGES,
  tarballProblems,
  VERSION_MODULE,
  workspaceRangeProblems,
} from './rules.mjs';

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const changesetBin = join(workspaceRoot, 'node_modules/@changesets/cli/bin.js');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** Every workspace package.json under the root's `workspaces` patterns (`dir/*` or `dir`). */
function workspacePackages(root) {
  return readJson(join(root, 'package.json')).workspaces.flatMap((pattern) => {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${pattern.slice(0, -2)}/${e.name}`)
      : [pattern];
    return dirs.filter((dir) => existsSync(join(root, dir, 'package.json'))).map((dir) => ({ dir, pkg: readJson(join(root, dir, 'package.json')) }));
  });
}

/** Copies the working tree's files (tracked and new, as they are now) and the libraries' builds. */
function copyWorkingTree(target, libraries) {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], workspaceRoot).split('\0').filter((file) => file !== '');
  for (const file of files) {
    const source = join(workspaceRoot, file);
    if (!existsSync(source)) continue; // deleted, not yet committed
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(source, join(target, file));
  }
  for (const { dir } of libraries) {
    if (!existsSync(join(workspaceRoot, dir, 'dist'))) throw new Error(`${dir} is not built: run npx nx run-many -t build first`);
    cpSync(join(workspaceRoot, dir, 'dist'), join(target, dir, 'dist'), { recursive: true });
  }
  symlinkSync(join(workspaceRoot, 'node_modules'), join(target, 'node_modules'), 'dir');
}

/** Every directory named `name` with a package.json below `nodeModules`. */
function copiesOf(nodeModules, name) {
  const found = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) walk(path);
      else {
        if (entry.name === name && existsSync(join(path, 'package.json'))) found.push(path);
        walk(join(path, 'node_modules'));
      }
    }
  };
  walk(nodeModules);
  return found;
}

const failures = [];
const scratch = mkdtempSync(join(tmpdir(), 'release-check-'));
try {
  const root = readJson(join(workspaceRoot, 'package.json'));
  const libraries = workspacePackages(workspaceRoot).filter(({ dir, pkg }) => dir.startsWith('libs/') && pkg.private !== true);

  // 1. The plan, from the working tree's changesets (status writes only the file it is given).
  const planFile = join(scratch, 'plan.json');
  try {
    run(process.execPath, [changesetBin, 'status', `--output=${planFile}`], workspaceRoot);
  } catch (error) {
    throw new Error(`changeset status failed:\n${error.stdout?.toString() ?? ''}${error.stderr?.toString() ?? ''}`);
  }
  const planned = new Map(readJson(planFile).releases.map((release) => [release.name, release.newVersion]));

  // 2. Version and pack in the copy.
  const copy = join(scratch, 'tree');
  copyWorkingTree(copy, libraries);
  // The lockfile's registry metadata comes from the npm cache where it has it.
  execFileSync('npm', ['run', 'version-packages', '--silent'], { cwd: copy, env: { ...process.env, npm_config_prefer_offline: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  // The release builds after the version pull request: a library whose build writes its version builds again.
  const binPath = `${join(copy, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;
  for (const { dir } of libraries) {
    const build = readJson(join(copy, dir, 'project.json')).targets?.build?.command;
    if (typeof build === 'string' && build.includes('writeVersionModule')) {
      execFileSync('sh', ['-c', build], { cwd: join(copy, dir), env: { ...process.env, PATH: binPath }, stdio: ['ignore', 'pipe', 'pipe'] });
    }
  }
  const lockfile = readJson(join(copy, 'package-lock.json'));
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', tarballs, ...libraries.flatMap(({ dir }) => ['--workspace', dir])], copy));
  const packedByName = new Map(packed.map((entry) => [entry.name, entry]));

  // 3. What each tarball holds.
  const summary = [];
  const versioned = workspacePackages(copy);
  failures.push(...workspaceRangeProblems(versioned.map(({ pkg }) => pkg)));
  for (const { dir, pkg: current } of libraries) {
    const pkg = readJson(join(copy, dir, 'package.json'));
    const entry = packedByName.get(pkg.name);
    if (entry === undefined) {
      failures.push(`${pkg.name}: npm pack did not pack it`);
      continue;
    }
    failures.push(...releaseVersionProblems(pkg.name, current.version, planned.get(pkg.name), entry.version));
    failures.push(...metadataProblems(pkg, root, dir));
    if (lockfile.packages?.[dir]?.version !== pkg.version) failures.push(`${pkg.name}: the lockfile records ${lockfile.packages?.[dir]?.version} after version-packages, not ${pkg.version}`);
    const versionModule = join(copy, dir, VERSION_MODULE);
    if (existsSync(versionModule)) {
      failures.push(...announcedVersionProblems(pkg.name, pkg.version, readFileSync(versionModule, 'utf8')));
      if (!entry.files.some((file) => file.path === VERSION_MODULE)) failures.push(`${pkg.name}: the packed tarball has no ${VERSION_MODULE}`);
    }
    summary.push(
      `  ${pkg.name} ${current.version} -> ${entry.version}: publishConfig access=${pkg.publishConfig?.access} provenance=${pkg.publishConfig?.provenance}, ` +
        `${entry.files.length} files (${entry.size} bytes packed)${existsSync(versionModule) ? `, announces ${entry.version}` : ''}`,
    );
    failures.push(...tarballProblems(pkg, entry.files.map((file) => file.path)));
    const changelog = join(copy, dir, 'CHANGELOG.md');
    failures.push(...changelogProblems(pkg.name, existsSync(changelog) ? readFileSync(changelog, 'utf8') : undefined, pkg.version));
    if (existsSync(changelog) && !entry.files.some((file) => file.path === 'CHANGELOG.md')) failures.push(`${pkg.name}: the packed tarball has no CHANGELOG.md`);
  }

  // 4. One copy of fp-ts and io-ts in a consumer that has its own.
  const consumer = join(scratch, 'consumer');
  mkdirSync(consumer);
  const own = Object.fromEntries(SHARED_IDENTITY_PACKAGES.map((name) => [name, readJson(join(workspaceRoot, 'node_modules', name, 'package.json')).version]));
  const dependencies = { ...own, ...Object.fromEntries(packed.map((entry) => [entry.name, `file:${join(tarballs, entry.filename)}`])) };
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }));
  try {
    run('npm', ['install', '--prefer-offline', '--strict-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], consumer);
    for (const name of SHARED_IDENTITY_PACKAGES) {
      const copies = copiesOf(join(consumer, 'node_modules'), name);
      if (copies.length !== 1) failures.push(`a consumer with its own ${name} has ${copies.length} copies of it: ${copies.map((path) => path.slice(consumer.length + 1)).join(', ')}`);
    }
  } catch (error) {
    failures.push(`a consumer could not install the packed libraries:\n${error.stdout?.toString() ?? ''}${error.stderr?.toString() ?? ''}`);
  }
  // 5. The workflow that publishes: changesets' action, `changeset publish` with npm provenance.
  const workflowFile = join(workspaceRoot, '.github/workflows/release.yml');
  const workflow = existsSync(workflowFile) ? parseYaml(readFileSync(workflowFile, 'utf8')) : undefined;
  if (workflow === undefined) failures.push('.github/workflows/release.yml is missing');
  else failures.push(...releaseWorkflowProblems(workflow, root.scripts ?? {}));
  const publishStep = Object.values(workflow?.jobs ?? {}).flatMap((job) => job.steps ?? []).find((step) => String(step.uses).startsWith('changesets/action@'));
  console.log(`release dry run: ${libraries.length} libraries (version, publishConfig, tarball):\n${summary.join('\n')}`);
  console.log(
    `release dry run: .github/workflows/release.yml runs ${publishStep?.uses}, version: ${publishStep?.with?.version}, publish: ${publishStep?.with?.publish}, ` +
      `NPM_CONFIG_PROVENANCE=${publishStep?.env?.NPM_CONFIG_PROVENANCE}, permissions ${Object.entries(workflow?.permissions ?? {}).map(([scope, level]) => `${scope}: ${level}`).join(', ')}`,
  );
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`release dry run failed:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log('release dry run: every library packs at its planned version (recorded in the lockfile, announced where it announces one) with LICENSE, README, CHANGELOG, dist and its metadata; a consumer gets one fp-ts and one io-ts; the release workflow publishes with provenance');
