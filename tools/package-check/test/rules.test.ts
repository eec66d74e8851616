import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mainEntryExports, mainEntryTypes } from '../exportCount.mjs';
import { exposedPackages } from '../exposedTypes.mjs';
import {
  announcedVersionProblems,
  changelogProblems,
  exactPinProblems,
  EXPORT_BUDGET_EXEMPT,
  exportBudgetProblems,
  exportBudgetReport,
  exportedFiles,
  metadataProblems,
  packageOfSpecifier,
  readmeExampleProblems,
  readmeTypeScriptBlocks,
  releaseVersionProblems,
  sharedDependencyProblems,
  tarballProblems,
  testedExamples,
  workspaceRangeProblems,
} from '../rules.mjs';

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const root = readJson(join(workspaceRoot, 'package.json'));
const libraryDirs = readdirSync(join(workspaceRoot, 'libs')).map((name) => `libs/${name}`);

const REPO = 'https://github.com/example/repo';
const exampleRoot = { license: 'MIT', repository: { type: 'git', url: `git+${REPO}.git` }, homepage: `${REPO}#readme`, bugs: { url: `${REPO}/issues` } };
const exampleLibrary = {
  name: '@scope/lib',
  version: '0.0.0',
  license: 'MIT',
  repository: { type: 'git', url: `git+${REPO}.git`, directory: 'libs/lib' },
  homepage: `${REPO}/tree/main/libs/lib#readme`,
  bugs: { url: `${REPO}/issues` },
  publishConfig: { access: 'public', provenance: true },
  exports: {
    '.': { '@wework/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
    './node': { '@wework/source': './src/node/index.ts', types: './dist/node/index.d.ts', default: './dist/node/index.js' },
    './internal/*': null,
    './package.json': './package.json',
  },
};

describe('the workspace libraries', () => {
  it('every library names the root package.json repository, home and tracker, and publishes publicly with provenance', () => {
    expect(root.repository.url).toMatch(/^git\+https:\/\/.+\.git$/);
    for (const dir of libraryDirs) expect(metadataProblems(readJson(join(workspaceRoot, dir, 'package.json')), root, dir)).toEqual([]);
  });

  it('no library pins a dependency or a peer to one exact version', () => {
    for (const dir of libraryDirs) expect(exactPinProblems(readJson(join(workspaceRoot, dir, 'package.json')))).toEqual([]);
  });

  it('every library ships the root LICENSE', () => {
    const license = readFileSync(join(workspaceRoot, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the wework-adapters authors\n/);
    for (const dir of libraryDirs) expect(readFileSync(join(workspaceRoot, dir, 'LICENSE'), 'utf8')).toBe(license);
  });

  it('every workspace range on a library is met by the workspace copy, so npm links it', () => {
    const packages = ['libs', 'apps', 'tools']
      .flatMap((group) => readdirSync(join(workspaceRoot, group)).map((name) => join(workspaceRoot, group, name, 'package.json')))
      .concat(join(workspaceRoot, 'bench/package.json'))
      .flatMap((path) => {
        try {
          return [readJson(path)];
        } catch {
          return [];
        }
      });
    expect(workspaceRangeProblems(packages)).toEqual([]);
  });
});

/** Writes a file below `dir`, making its folders. */
const writeUnder = (dir: string) => (path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};

/** Every test file under `dir`, with its path relative to `base`. */
const testFiles = (dir: string, base: string): Array<{ path: string; source: string }> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path, base);
    return /\.test\.tsx?$/.test(entry.name) ? [{ path: path.slice(base.length + 1), source: readFileSync(path, 'utf8') }] : [];
  });

describe('the export budgets of the workspace libraries', () => {
  const budgets = readJson(join(workspaceRoot, 'tools/package-check/exportBudgets.json'));
  const withMain = libraryDirs.map((dir) => readJson(join(workspaceRoot, dir, 'package.json'))).filter((pkg) => mainEntryTypes(pkg) !== undefined);

  it('every library with a main entry has a budget, but the exempt ones, and no other library has one', () => {
    expect(Object.keys(budgets.libraries).sort()).toEqual(withMain.map((pkg) => pkg.name as string).filter((name) => !EXPORT_BUDGET_EXEMPT.has(name)).sort());
    expect(withMain.map((pkg) => pkg.name)).toEqual(expect.arrayContaining([...EXPORT_BUDGET_EXEMPT.keys()]));
  });

  it('the budgets add up to at most the total of 800', () => {
    expect(budgets.total).toBe(800);
    // Every library counted at its budget: only the sum of the budgets can be a problem.
    const atBudget = new Map(withMain.map((pkg) => [pkg.name as string, EXPORT_BUDGET_EXEMPT.has(pkg.name) ? 0 : budgets.libraries[pkg.name]]));
    expect(exportBudgetProblems(budgets, atBudget)).toEqual([]);
  });
});

describe('the README examples of the workspace libraries', () => {
  it("every library's README opens with an example a test runs, and every example a test runs is in its README, line for line", () => {
    for (const dir of libraryDirs) {
      const base = join(workspaceRoot, dir);
      const name = readJson(join(base, 'package.json')).name as string;
      expect(readmeExampleProblems(name, readFileSync(join(base, 'README.md'), 'utf8'), testFiles(join(base, 'test'), base)), dir).toEqual([]);
    }
  });
});

describe('readmeExampleProblems', () => {
  const fence = (code: string) => ['```ts', code, '```'].join('\n');
  const marked = (code: string, indent = '  ') =>
    ["test('README example', () => {", `${indent}// --- README example begins ---`, ...code.split('\n').map((line) => (line === '' ? '' : indent + line)), `${indent}// --- README example ends ---`, '});'].join('\n');
  const line = fc.stringMatching(/^[a-z][a-z0-9 ().;=']{0,30}$/).map((text) => text.trimEnd());
  const example = fc.array(line, { minLength: 1, maxLength: 6 }).map((lines) => lines.join('\n'));

  it('accepts a README whose first block holds the tested example after its imports, whatever the indentation in the test', () => {
    fc.assert(
      fc.property(example, fc.constantFrom('', '  ', '    '), (code, indent) => {
        const readme = `# lib\n\n${fence(`import { a } from 'lib';\n\n${code}`)}\n`;
        expect(testedExamples(marked(code, indent))).toEqual([code]);
        expect(readmeExampleProblems('lib', readme, [{ path: 'test/readme.test.ts', source: marked(code, indent) }])).toEqual([]);
      }),
    );
  });

  it('names the drift when one line of the README differs from what the test runs', () => {
    fc.assert(
      fc.property(example, line, (code, other) => {
        const lines = code.split('\n');
        fc.pre(!lines.includes(other) && !code.includes(other));
        const readme = fence([other, ...lines.slice(1)].join('\n'));
        expect(readmeExampleProblems('lib', readme, [{ path: 'test/readme.test.ts', source: marked(code) }])).toEqual([
          "lib: no test runs the README's first TypeScript example (mark it in a test with \"// --- README example begins ---\" and \"// --- README example ends ---\")",
          'lib: the example test/readme.test.ts runs is not in README.md, line for line',
        ]);
      }),
    );
  });

  it('asks for an example when the README has none, and for a marked test when no test marks one', () => {
    expect(readmeExampleProblems('lib', '# lib\n', [])).toEqual(['lib: README.md has no TypeScript example']);
    expect(readmeTypeScriptBlocks(`${fence('a()')}\n\n\`\`\`typescript\nb()\n\`\`\``)).toEqual(['a()', 'b()']);
    expect(readmeExampleProblems('lib', fence('a()'), [{ path: 'test/a.test.ts', source: 'a();' }])).toHaveLength(1);
  });
});

describe('metadataProblems', () => {
  it('accepts a library that agrees with the root', () => {
    expect(metadataProblems(exampleLibrary, exampleRoot, 'libs/lib')).toEqual([]);
  });

  it('names each field that disagrees', () => {
    const problems = metadataProblems(
      { ...exampleLibrary, repository: { ...exampleLibrary.repository, directory: 'libs/other' }, homepage: REPO, bugs: {}, publishConfig: { access: 'public' } },
      exampleRoot,
      'libs/lib',
    );
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/repository.*homepage.*bugs.*publishConfig/s);
  });

  it('wants the root engines.node', () => {
    const engines = { node: '^20.19.0 || ^22.12.0 || >=24.0.0' };
    expect(metadataProblems({ ...exampleLibrary, engines }, { ...exampleRoot, engines }, 'libs/lib')).toEqual([]);
    expect(metadataProblems({ ...exampleLibrary, engines: { node: '>=20.19' } }, { ...exampleRoot, engines }, 'libs/lib')).toEqual([
      '@scope/lib: engines.node must be "^20.19.0 || ^22.12.0 || >=24.0.0", as the root\'s (the Node lines the repository is tested on)',
    ]);
    expect(metadataProblems(exampleLibrary, { ...exampleRoot, engines }, 'libs/lib')).toHaveLength(1);
  });

  it('asks for the root fields first when the root has none', () => {
    expect(metadataProblems(exampleLibrary, { license: 'MIT' }, 'libs/lib')).toEqual([expect.stringContaining('root package.json')]);
  });
});

describe('sharedDependencyProblems', () => {
  it('wants fp-ts as a peer and a dev dependency when the types expose it', () => {
    const pkg = { name: 'a', peerDependencies: { 'fp-ts': '^2.16.0' }, devDependencies: { 'fp-ts': '^2.16.0' } };
    expect(sharedDependencyProblems(pkg, new Set(['fp-ts']))).toEqual([]);
    expect(sharedDependencyProblems({ name: 'a', dependencies: { 'fp-ts': '^2.16.0' } }, new Set(['fp-ts']))).toHaveLength(2);
    expect(sharedDependencyProblems({ name: 'a', peerDependencies: { 'io-ts': '^2.2.0' } }, new Set(['io-ts']))).toEqual([expect.stringContaining('devDependencies')]);
  });

  it('wants a plain dependency when the types do not expose it', () => {
    expect(sharedDependencyProblems({ name: 'a', dependencies: { 'io-ts': '^2.2.0' } }, new Set())).toEqual([]);
    expect(sharedDependencyProblems({ name: 'a', peerDependencies: { 'io-ts': '^2.2.0' } }, new Set())).toEqual([expect.stringContaining('not a peer')]);
  });
});

describe('exactPinProblems', () => {
  it('flags exact versions and accepts ranges, in dependencies and peers', () => {
    fc.assert(
      fc.property(fc.tuple(fc.nat(40), fc.nat(40), fc.nat(40)), fc.constantFrom('^', '~', '>=', ''), ([major, minor, patch], operator) => {
        const version = `${major}.${minor}.${patch}`;
        const problems = exactPinProblems({ name: 'a', dependencies: { x: `${operator}${version}` }, peerDependencies: { y: `^${version}` } });
        expect(problems).toHaveLength(operator === '' ? 1 : 0);
      }),
    );
  });
});

describe('tarballProblems and exportedFiles', () => {
  it('reads the consumer-facing targets of exports, not the source condition nor blocked paths', () => {
    expect(exportedFiles(exampleLibrary)).toEqual(['dist/index.d.ts', 'dist/index.js', 'dist/node/index.d.ts', 'dist/node/index.js']);
  });

  it('names every required file the tarball lacks', () => {
    const all = ['package.json', 'LICENSE', 'README.md', 'dist/index.d.ts', 'dist/index.js', 'dist/node/index.d.ts', 'dist/node/index.js'];
    expect(tarballProblems(exampleLibrary, all)).toEqual([]);
    fc.assert(
      fc.property(fc.subarray(all), (kept) => {
        const problems = tarballProblems(exampleLibrary, kept);
        expect(problems).toHaveLength(all.length - kept.length);
      }),
    );
  });
});

describe('releaseVersionProblems', () => {
  it('a library never released goes to 0.1.0, and is packed at the planned version', () => {
    expect(releaseVersionProblems('a', '0.0.0', '0.1.0', '0.1.0')).toEqual([]);
    expect(releaseVersionProblems('a', '0.0.0', '0.0.1', '0.0.1')).toEqual([expect.stringContaining('first release must be 0.1.0')]);
    expect(releaseVersionProblems('a', '0.0.0', '1.0.0', '1.0.0')).toHaveLength(1);
    expect(releaseVersionProblems('a', '0.1.0', '0.2.0', '0.2.0')).toEqual([]);
    expect(releaseVersionProblems('a', '0.1.0', '0.2.0', '0.1.0')).toEqual([expect.stringContaining('versioned 0.1.0')]);
    expect(releaseVersionProblems('a', '0.1.0', undefined, '0.1.0')).toEqual([]);
  });
});

describe('changelogProblems', () => {
  it('wants exactly one section per version, the new one included', () => {
    const sections = (versions: readonly string[]) => `# a\n\n${versions.map((v) => `## ${v}\n\n- change\n`).join('\n')}`;
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.nat(9), fc.nat(9)).map(([minor, patch]) => `0.${minor}.${patch}`), { minLength: 1, maxLength: 6 }), (versions) => {
        expect(changelogProblems('a', sections(versions), versions[0])).toEqual([]);
        expect(changelogProblems('a', sections([...versions, versions[0]]), versions[0])).toEqual([expect.stringContaining('more than one section')]);
      }),
    );
    expect(changelogProblems('a', sections(['0.1.0']), '0.2.0')).toEqual([expect.stringContaining('no section for 0.2.0')]);
    expect(changelogProblems('a', undefined, '0.1.0')).toEqual([expect.stringContaining('no CHANGELOG.md')]);
  });
});

describe('workspaceRangeProblems', () => {
  it('flags a range the workspace version does not meet', () => {
    const packages = [
      { name: 'a', version: '0.1.0' },
      { name: 'b', version: '0.0.0', dependencies: { a: '^0.1.0', external: '1.0.0' } },
      { name: 'c', version: '0.0.0', devDependencies: { a: '^0.0.0' } },
    ];
    expect(workspaceRangeProblems(packages)).toEqual([expect.stringMatching(/^c: devDependencies\.a is \^0\.0\.0/)]);
  });
});

describe('packageOfSpecifier', () => {
  it('drops the subpath, keeping a scope', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
    fc.assert(
      fc.property(fc.option(segment, { nil: undefined }), segment, fc.array(segment, { maxLength: 3 }), (scope, name, subpath) => {
        const pkg = scope === undefined ? name : `@${scope}/${name}`;
        expect(packageOfSpecifier([pkg, ...subpath].join('/'))).toBe(pkg);
      }),
    );
  });
});

describe('exposedPackages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exposed-types-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('follows the public declarations, not the ones only the runtime or an internal entry reaches', () => {
    const write = writeUnder(dir);
    write('dist/index.d.ts', "export * from './Codec.js';\nexport type { Port } from './node/Port.js';\n");
    write('dist/Codec.d.ts', "import * as t from 'io-ts';\nexport declare const Codec: t.Type<string>;\nexport declare const load: () => import('fp-ts/TaskEither').TaskEither<string, number>;\n");
    write('dist/node/Port.d.ts', "import type { Readable } from 'node:stream';\nexport interface Port { readonly input: Readable }\n");
    write('dist/internal/Hidden.d.ts', "import type { Schema } from 'zod';\nexport type Hidden = Schema;\n");
    write('dist/index.js', "import { z } from 'zod';\n");
    const pkg = { name: 'x', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './internal/*': null } };
    expect([...exposedPackages(dir, pkg)].sort()).toEqual(['fp-ts', 'io-ts']);
  });
});

describe('announcedVersionProblems', () => {
  it('accepts a build that announces the packed version and names one that does not', () => {
    const built = (version: string) => `// generated\nconst PACKAGE_VERSION = '${version}';\nexport { PACKAGE_VERSION };\n`;
    expect(announcedVersionProblems('@scope/lib', '0.1.0', built('0.1.0'))).toEqual([]);
    expect(announcedVersionProblems('@scope/lib', '0.1.0', built('0.0.0'))).toEqual(['@scope/lib: it announces version 0.0.0 but is packed at 0.1.0: build it after changeset version']);
    expect(announcedVersionProblems('@scope/lib', '0.1.0', 'export {};\n')).toEqual([expect.stringContaining('declares no PACKAGE_VERSION')]);
  });
});

describe('exportBudgetProblems', () => {
  const budgets = { total: 10, libraries: { '@scope/a': 4, '@scope/b': 5 } };

  it('accepts counts within their budgets and the total, and does not count an exempt library', () => {
    expect(exportBudgetProblems(budgets, new Map([['@scope/a', 4], ['@scope/b', 0], ['@wework/codex-protocol', 1249]]))).toEqual([]);
  });

  it('names a library above its budget', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 100 }), (count) => {
        expect(exportBudgetProblems({ total: 1000, libraries: budgets.libraries }, new Map([['@scope/a', count], ['@scope/b', 5]]))).toEqual([
          `@scope/a: its main entry exports ${count} names, above its budget of 4`,
        ]);
      }),
    );
  });

  it('names a library without a budget, and a budget without a library', () => {
    expect(exportBudgetProblems(budgets, new Map([['@scope/a', 1], ['@scope/c', 1]]))).toEqual([
      '@scope/c: its main entry exports 1 names and has no budget: add one to tools/package-check/exportBudgets.json',
      '@scope/b: has a budget but is not a library with a main entry',
    ]);
  });

  it('names budgets that add up to more than the total, and counts that do', () => {
    expect(exportBudgetProblems({ total: 8, libraries: budgets.libraries }, new Map([['@scope/a', 1], ['@scope/b', 1]]))).toEqual([
      'the budgets add up to 9 names, above the total of 8',
    ]);
    // Each library within its budget, all together above the total.
    expect(exportBudgetProblems({ total: 8, libraries: { '@scope/a': 4, '@scope/b': 4 } }, new Map([['@scope/a', 4], ['@scope/b', 4], ['@scope/c', 1]]))).toEqual([
      '@scope/c: its main entry exports 1 names and has no budget: add one to tools/package-check/exportBudgets.json',
      'the main entries export 9 names together, above the total of 8',
    ]);
  });

  it('refuses a budget for an exempt library', () => {
    expect(exportBudgetProblems({ total: 10, libraries: { '@wework/codex-protocol': 1 } }, new Map([['@wework/codex-protocol', 1249]]))).toEqual([
      '@wework/codex-protocol: has a budget though it is exempt (its generated protocol types are its purpose)',
    ]);
  });

  it('reports each count against its budget and the sum against the total', () => {
    expect(exportBudgetReport(budgets, new Map([['@scope/b', 5], ['@scope/a', 3], ['@scope/c', 2], ['@wework/codex-protocol', 1249]]))).toEqual([
      '  @scope/a: 3 / 4 names',
      '  @scope/b: 5 / 5 names',
      '  @scope/c: 2 names (no budget)',
      '  @wework/codex-protocol: 1249 names (exempt: its generated protocol types are its purpose)',
      '  total: 10 / 10 names (the budgets add up to 9)',
    ]);
  });
});

describe('mainEntryExports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'export-count-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("counts the names of the built `.` entry, values and types, each once, through re-exports, not the other entries'", () => {
    const write = writeUnder(dir);
    write('dist/index.d.ts', "export * from './Codec.js';\nexport { run, type Options } from './Run.js';\nexport type Alias = string;\n");
    write('dist/Codec.d.ts', 'export declare const Codec: { readonly name: string };\nexport type Codec = string;\nexport interface Shape { readonly a: number }\n');
    write('dist/Run.d.ts', 'export interface Options { readonly n: number }\nexport declare function run(options: Options): void;\nexport declare function hidden(): void;\n');
    write('dist/node/index.d.ts', 'export declare function nodeOnly(): void;\n');
    const pkg = { name: '@scope/x', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './node': { types: './dist/node/index.d.ts', default: './dist/node/index.js' } } };
    expect(mainEntryTypes(pkg)).toBe('./dist/index.d.ts');
    expect(mainEntryTypes({ exports: { './node': pkg.exports['./node'] } })).toBeUndefined();
    expect(mainEntryExports([{ name: '@scope/x', pkgDir: dir, pkg }])).toEqual(new Map([['@scope/x', ['Alias', 'Codec', 'Options', 'Shape', 'run']]]));
  });
});
