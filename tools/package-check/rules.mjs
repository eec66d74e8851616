/**
 * The rules a publishable library's package.json and packed tarball follow. Every function is pure:
 * package.json objects, file lists and texts in, a list of problems (empty when the rule holds) out.
 *
 * The repository's address lives once, in the root package.json (`repository`, `homepage`, `bugs`);
 * every library repeats it because npm publishes each package.json alone, and `metadataProblems` keeps
 * the copies in agreement with the root.
 */
import semver from 'semver';

/**
 * Packages whose values cross library boundaries and whose identity matters: an `Either` or an io-ts
 * codec made by one copy is not the same as one made by another (`instanceof`, type-level brands), so a
 * host must have exactly one copy. A library whose public types mention one of them takes it as a peer
 * dependency (and a dev dependency for its own tests); one that only uses it inside keeps a dependency.
 */
export const SHARED_IDENTITY_PACKAGES = ['fp-ts', 'io-ts'];

/** The version a library that has never been released carries, so that its first release is 0.1.0. */
export const UNRELEASED_VERSION = '0.0.0';

/** What the first release of a library is numbered. */
export const FIRST_RELEASE_VERSION = '0.1.0';

/** The files every packed library holds besides its `exports` targets. */
export const REQUIRED_PACKED_FILES = ['package.json', 'LICENSE', 'README.md'];

/**
 * The package a bare import specifier names: `fp-ts/Either` → `fp-ts`, `@scope/a/b` → `@scope/a`.
 * @param {string} specifier
 */
export function packageOfSpecifier(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The public entry points of a package.json `exports` map (no patterns, no blocked paths, no
 * `./package.json`), each with its condition object or target.
 * @param {Record<string, any>} pkg
 * @returns {Array<[string, any]>}
 */
export function publicEntries(pkg) {
  return Object.entries(pkg.exports ?? {}).filter(([key, value]) => value !== null && !key.includes('*') && key !== './package.json');
}

/**
 * The declaration file of every public entry point.
 * @param {Record<string, any>} pkg
 * @returns {string[]}
 */
export function publicTypeEntries(pkg) {
  return publicEntries(pkg).flatMap(([, value]) => (typeof value === 'object' && typeof value.types === 'string' ? [value.types] : []));
}

/**
 * The files a consumer's resolution reaches through `exports` (every condition but the workspace's
 * source condition, which points into `src`), as paths inside the package.
 * @param {Record<string, any>} pkg
 * @param {string} sourceCondition
 * @returns {string[]}
 */
export function exportedFiles(pkg, sourceCondition = '@wework/source') {
  const targets = (value) =>
    typeof value === 'string'
      ? [value]
      : Object.entries(value).flatMap(([condition, target]) => (condition === sourceCondition || target === null ? [] : targets(target)));
  return [...new Set(publicEntries(pkg).flatMap(([, value]) => targets(value)).map((path) => path.replace(/^\.\//, '')))];
}

/**
 * A library's publishing metadata agrees with the root package.json: the same license, repository,
 * issue tracker, home (the library's folder) and `engines.node`, with its own `repository.directory`, and
 * it publishes publicly with provenance.
 * @param {Record<string, any>} pkg the library's package.json
 * @param {Record<string, any>} root the root package.json
 * @param {string} directory the library's folder relative to the repository root, e.g. `libs/ports`
 * @returns {string[]}
 */
export function metadataProblems(pkg, root, directory) {
  const problems = [];
  const name = pkg.name ?? directory;
  const rootHome = typeof root.homepage === 'string' ? root.homepage.replace(/#readme$/, '') : undefined;
  if (typeof root.repository?.url !== 'string' || rootHome === undefined || typeof root.bugs?.url !== 'string') {
    return ['the root package.json needs repository.url, homepage and bugs.url: the libraries copy them'];
  }
  if (pkg.license !== root.license) problems.push(`${name}: license must be ${root.license}, as the root's`);
  const repository = pkg.repository ?? {};
  if (repository.type !== 'git' || repository.url !== root.repository.url || repository.directory !== directory) {
    problems.push(`${name}: repository must be { type: 'git', url: '${root.repository.url}', directory: '${directory}' }`);
  }
  const homepage = `${rootHome}/tree/main/${directory}#readme`;
  if (pkg.homepage !== homepage) problems.push(`${name}: homepage must be ${homepage}`);
  if (pkg.bugs?.url !== root.bugs.url) problems.push(`${name}: bugs.url must be ${root.bugs.url}`);
  if (pkg.engines?.node !== root.engines?.node) problems.push(`${name}: engines.node must be ${JSON.stringify(root.engines?.node)}, as the root's (the Node lines the repository is tested on)`);
  if (pkg.publishConfig?.access !== 'public' || pkg.publishConfig?.provenance !== true) {
    problems.push(`${name}: publishConfig must be { access: 'public', provenance: true }`);
  }
  if (pkg.private === true) problems.push(`${name}: a library is published, so it is not private`);
  return problems;
}

/**
 * fp-ts and io-ts are peer (and dev) dependencies exactly where the library's public types expose them.
 * @param {Record<string, any>} pkg
 * @param {ReadonlySet<string>} exposed packages the public declarations import
 * @returns {string[]}
 */
export function sharedDependencyProblems(pkg, exposed) {
  const problems = [];
  for (const shared of SHARED_IDENTITY_PACKAGES) {
    const dependency = pkg.dependencies?.[shared];
    const peer = pkg.peerDependencies?.[shared];
    const dev = pkg.devDependencies?.[shared];
    if (exposed.has(shared)) {
      if (dependency !== undefined) problems.push(`${pkg.name}: its public types expose ${shared}, so ${shared} is a peer dependency, not a dependency`);
      if (peer === undefined) problems.push(`${pkg.name}: its public types expose ${shared}: declare it in peerDependencies`);
      if (peer !== undefined && dev !== peer) problems.push(`${pkg.name}: ${shared} needs the same range in devDependencies as in peerDependencies (${peer})`);
    } else if (peer !== undefined) {
      problems.push(`${pkg.name}: its public types do not expose ${shared}: make it a dependency, not a peer`);
    }
  }
  return problems;
}

/**
 * What a library installs or asks its host for is a range, never one exact version (the lockfile keeps
 * the tested versions).
 * @param {Record<string, any>} pkg
 * @returns {string[]}
 */
export function exactPinProblems(pkg) {
  return ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
    Object.entries(pkg[field] ?? {}).flatMap(([dependency, range]) =>
      semver.valid(range) === null ? [] : [`${pkg.name}: ${field}.${dependency} pins ${range} exactly: use a range such as ^${range}`],
    ),
  );
}

/**
 * The packed tarball holds package.json, LICENSE, README.md and every file `exports` leads to.
 * @param {Record<string, any>} pkg
 * @param {readonly string[]} files paths inside the tarball
 * @returns {string[]}
 */
export function tarballProblems(pkg, files) {
  const present = new Set(files);
  return [...REQUIRED_PACKED_FILES, ...exportedFiles(pkg)]
    .filter((file) => !present.has(file))
    .map((file) => `${pkg.name}: the packed tarball has no ${file}`);
}

/**
 * The version a library goes to in a release plan is right: a library at 0.0.0 has never been released
 * and goes to 0.1.0, and every library is in the plan with the version it is packed at.
 * @param {string} name
 * @param {string} currentVersion the version in the working tree
 * @param {string | undefined} plannedVersion the plan's new version (undefined: not in the plan)
 * @param {string} packedVersion the version of the tarball packed after `changeset version`
 * @returns {string[]}
 */
export function releaseVersionProblems(name, currentVersion, plannedVersion, packedVersion) {
  const problems = [];
  const expected = plannedVersion ?? currentVersion;
  if (currentVersion === UNRELEASED_VERSION && expected !== FIRST_RELEASE_VERSION) {
    problems.push(`${name}: has never been released, so its first release must be ${FIRST_RELEASE_VERSION}, not ${expected} (a changeset says major, minor or patch?)`);
  }
  if (packedVersion !== expected) problems.push(`${name}: the plan says ${expected} but the package was versioned ${packedVersion}`);
  return problems;
}

/** The built module where a library's build writes its version (`tools/package-version`), if it has one. */
export const VERSION_MODULE = 'dist/generated/packageVersion.js';

/**
 * The version a built library announces (its `PACKAGE_VERSION`, written from package.json by its build)
 * is the version it is packed at: the release builds after `changeset version`.
 * @param {string} name
 * @param {string} version the version in the packed package.json
 * @param {string} moduleText the text of the built {@link VERSION_MODULE}
 * @returns {string[]}
 */
export function announcedVersionProblems(name, version, moduleText) {
  const announced = /\bPACKAGE_VERSION\s*=\s*(['"])([^'"]*)\1/.exec(moduleText)?.[2];
  if (announced === undefined) return [`${name}: ${VERSION_MODULE} declares no PACKAGE_VERSION`];
  return announced === version ? [] : [`${name}: it announces version ${announced} but is packed at ${version}: build it after changeset version`];
}

/**
 * A CHANGELOG written by changesets has one `## <version>` section per version, the new one included.
 * @param {string} name
 * @param {string | undefined} changelog the text (undefined: there is none)
 * @param {string} version
 * @returns {string[]}
 */
export function changelogProblems(name, changelog, version) {
  if (changelog === undefined) return [`${name}: changeset version wrote no CHANGELOG.md`];
  const headings = [...changelog.matchAll(/^## (\S+)\s*$/gm)].map((match) => match[1]);
  const problems = [];
  if (!headings.includes(version)) problems.push(`${name}: CHANGELOG.md has no section for ${version}`);
  const repeated = [...new Set(headings.filter((heading, i) => headings.indexOf(heading) !== i))];
  if (repeated.length > 0) problems.push(`${name}: CHANGELOG.md has more than one section for ${repeated.join(', ')}`);
  return problems;
}

/**
 * Every workspace package's range on another workspace package is met by that package's version, so
 * npm links the workspace copy instead of looking the name up in a registry.
 * @param {ReadonlyArray<Record<string, any>>} packages every workspace package.json
 * @returns {string[]}
 */
export function workspaceRangeProblems(packages) {
  const versions = new Map(packages.map((pkg) => [pkg.name, pkg.version]));
  return packages.flatMap((pkg) =>
    ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
      Object.entries(pkg[field] ?? {}).flatMap(([dependency, range]) => {
        const version = versions.get(dependency);
        if (version === undefined || semver.satisfies(version, range)) return [];
        return [`${pkg.name}: ${field}.${dependency} is ${range}, which the workspace's ${dependency}@${version} does not meet`];
      }),
    ),
  );
}

const EXAMPLE_BEGINS = /^[ \t]*\/\/ --- README example begins ---[^\n]*\n/m;
const EXAMPLE_ENDS = /^[ \t]*\/\/ --- README example ends ---/m;

/**
 * The examples a test runs: every block between a `// --- README example begins ---` line and the
 * next `// --- README example ends ---` line, without their common indentation and trailing blanks.
 * @param {string} source the text of a test file
 * @returns {string[]}
 */
export function testedExamples(source) {
  const examples = [];
  let rest = source;
  for (;;) {
    const begins = EXAMPLE_BEGINS.exec(rest);
    if (begins === null) return examples;
    rest = rest.slice(begins.index + begins[0].length);
    const ends = EXAMPLE_ENDS.exec(rest);
    if (ends === null) return examples;
    const lines = rest.slice(0, ends.index).replace(/\s+$/, '').split('\n');
    const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
    examples.push(lines.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join('\n'));
    rest = rest.slice(ends.index);
  }
}

/**
 * The TypeScript blocks of a README (fenced ```ts or ```typescript), without trailing blanks.
 * @param {string} readme
 * @returns {string[]}
 */
export function readmeTypeScriptBlocks(readme) {
  return [...readme.matchAll(/^```(?:ts|typescript)[ \t]*\n([\s\S]*?)^```/gm)].map((match) => (match[1] ?? '').replace(/\s+$/, ''));
}

/**
 * A library's README shows what its tests run: its first TypeScript block contains, line for line,
 * an example some test runs between the markers, and every example a test marks is in one of the
 * README's TypeScript blocks (so the README cannot drift from the code that is executed).
 * @param {string} name the package name
 * @param {string} readme the README's text
 * @param {ReadonlyArray<{ readonly path: string; readonly source: string }>} tests the library's test files
 * @returns {string[]}
 */
export function readmeExampleProblems(name, readme, tests) {
  const blocks = readmeTypeScriptBlocks(readme);
  const examples = tests.flatMap(({ path, source }) => testedExamples(source).map((example) => ({ path, example })));
  const contains = (block, example) => `\n${block}\n`.includes(`\n${example}\n`);
  const problems = [];
  if (blocks.length === 0) problems.push(`${name}: README.md has no TypeScript example`);
  else if (!examples.some(({ example }) => contains(blocks[0], example))) problems.push(`${name}: no test runs the README's first TypeScript example (mark it in a test with "// --- README example begins ---" and "// --- README example ends ---")`);
  for (const { path, example } of examples) {
    if (example === '') problems.push(`${name}: ${path} marks an empty README example`);
    else if (!blocks.some((block) => contains(block, example))) problems.push(`${name}: the example ${path} runs is not in README.md, line for line`);
  }
  return problems;
}

/**
 * Libraries whose main entry has no export budget, each with the reason. codex-protocol's main entry is
 * the Codex app-server protocol's generated types and codecs: exporting them is its purpose, and their
 * number follows the pinned Codex, not a choice of ours.
 */
export const EXPORT_BUDGET_EXEMPT = new Map([['@wework/codex-protocol', 'its generated protocol types are its purpose']]);

/**
 * The main entries' exported names stay within their budgets: every library with a main entry (but the
 * exempt ones) has a budget, none exports more names than its budget, and neither the budgets nor the
 * counts add up to more than the total.
 * @param {{ readonly total: number; readonly libraries: Readonly<Record<string, number>> }} budgets the
 *   contents of `exportBudgets.json`
 * @param {ReadonlyMap<string, number>} counts per library with a main entry (the exempt ones included or
 *   not), how many names it exports
 * @returns {string[]}
 */
export function exportBudgetProblems(budgets, counts) {
  const problems = [];
  const budgeted = new Map(Object.entries(budgets.libraries));
  let countSum = 0;
  for (const [name, count] of counts) {
    if (EXPORT_BUDGET_EXEMPT.has(name)) continue;
    countSum += count;
    const budget = budgeted.get(name);
    if (budget === undefined) problems.push(`${name}: its main entry exports ${count} names and has no budget: add one to tools/package-check/exportBudgets.json`);
    else if (count > budget) problems.push(`${name}: its main entry exports ${count} names, above its budget of ${budget}`);
  }
  for (const name of budgeted.keys()) {
    if (EXPORT_BUDGET_EXEMPT.has(name)) problems.push(`${name}: has a budget though it is exempt (${EXPORT_BUDGET_EXEMPT.get(name)})`);
    else if (!counts.has(name)) problems.push(`${name}: has a budget but is not a library with a main entry`);
  }
  const budgetSum = [...budgeted.values()].reduce((sum, budget) => sum + budget, 0);
  if (budgetSum > budgets.total) problems.push(`the budgets add up to ${budgetSum} names, above the total of ${budgets.total}`);
  if (countSum > budgets.total) problems.push(`the main entries export ${countSum} names together, above the total of ${budgets.total}`);
  return problems;
}

/**
 * One line per library (its count against its budget) and one for the total, as package-check prints them.
 * @param {{ readonly total: number; readonly libraries: Readonly<Record<string, number>> }} budgets
 * @param {ReadonlyMap<string, number>} counts
 * @returns {string[]}
 */
export function exportBudgetReport(budgets, counts) {
  const lines = [];
  let countSum = 0;
  for (const [name, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    if (EXPORT_BUDGET_EXEMPT.has(name)) {
      lines.push(`  ${name}: ${count} names (exempt: ${EXPORT_BUDGET_EXEMPT.get(name)})`);
      continue;
    }
    countSum += count;
    const budget = budgets.libraries[name];
    lines.push(budget === undefined ? `  ${name}: ${count} names (no budget)` : `  ${name}: ${count} / ${budget} names`);
  }
  const budgetSum = Object.values(budgets.libraries).reduce((sum, budget) => sum + budget, 0);
  lines.push(`  total: ${countSum} / ${budgets.total} names (the budgets add up to ${budgetSum})`);
  return lines;
}
