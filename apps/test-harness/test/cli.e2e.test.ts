import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OLDER_CODEX_VERSION, olderCodexBinary } from './support/olderCodex.js';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(appDir, 'dist/cli.js');

interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const runCli = (args: ReadonlyArray<string>): Promise<CliResult> =>
  new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: appDir, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });

describe('wework-harness run (the built command)', () => {
  let scratch: string;
  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'harness-cli-'));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('runs the scenario from docs/harness.md and writes a report', async () => {
    const reportPath = join(scratch, 'report.json');
    const result = await runCli(['run', 'scenarios/forms-choose-strategy.json', '--report', reportPath, '--quiet']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('PASSED');
    expect(result.stdout).toContain('⚙ forms.choose_strategy');
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as { passed: boolean; wire: unknown[]; plugins: Record<string, unknown[]> };
    expect(report.passed).toBe(true);
    expect(report.wire.length).toBeGreaterThan(0);
    expect(report.plugins['forms']?.length).toBeGreaterThan(0);
  });

  it('writes the report of a run whose card has array limits (64-bit integers in Codex\'s protocol) as plain JSON numbers', async () => {
    const reportPath = join(scratch, 'regions.report.json');
    const result = await runCli(['run', 'scenarios/forms-roll-out-regions.json', `--report=${reportPath}`, '--quiet']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).not.toContain('BigInt');
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as { passed: boolean; cards: Array<{ params: { requestedSchema: { properties: Record<string, unknown> } } }> };
    expect(report.passed).toBe(true);
    expect(report.cards[0]?.params.requestedSchema.properties['regions']).toMatchObject({ type: 'array', minItems: 1, maxItems: 3 });
  });

  it('diagnoses a run in which approvalPolicy "never" declined the plugin form before it reached the client', async () => {
    const reportPath = join(scratch, 'never.report.json');
    const run = await runCli(['run', 'scenarios/diagnose-policy-never.json', '--report', reportPath, '--quiet']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const diagnosis = await runCli(['diagnose', reportPath, '--scenario', 'scenarios/diagnose-policy-never.json']);
    expect(diagnosis.code, diagnosis.stdout + diagnosis.stderr).toBe(1);
    expect(diagnosis.stdout).toContain('PolicyNeverAutoDeclined');
    expect(diagnosis.stdout).toMatch(/approvalPolicy "never"/);
  });

  it('refuses a bad scenario file with the path of the problem and exit code 2', async () => {
    const bad = join(scratch, 'bad.json');
    await writeFile(bad, JSON.stringify({ name: 'bad', model: { script: [] }, turns: [{ input: 'hi', expectStatuss: 'completed' }] }));
    const result = await runCli(['run', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/turns\.0.*unknown key "expectStatuss"/);
  });

  it('refuses a file that is not JSON, and a missing file, with exit code 2', async () => {
    const notJson = join(scratch, 'not.json');
    await writeFile(notJson, '{ name: ');
    expect(await runCli(['run', notJson])).toMatchObject({ code: 2, stderr: expect.stringContaining('not valid JSON') });
    expect(await runCli(['run', join(scratch, 'missing.json')])).toMatchObject({ code: 2, stderr: expect.stringContaining('ENOENT') });
    expect(await runCli(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: wework-harness run') });
  });

  it('says on which line and column a scenario file stops being JSON', async () => {
    const broken = join(scratch, 'broken.json');
    await writeFile(broken, '{\n  "name": "n",\n  "turns": [\n    { "input": "hi" }\n    { "input": "again" }\n  ]\n}\n');
    const result = await runCli(['run', broken]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("line 5, column 5: expected ',' or ']'");
  });

  it('reports every problem of a scenario file at once', async () => {
    const bad = join(scratch, 'two.json');
    await writeFile(bad, JSON.stringify({ name: 'two', model: { script: [] }, turns: [{ input: 'hi', expectStatuss: 'completed' }], user: { otherwise: 'shrug' } }));
    const result = await runCli(['run', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/turns\.0\.expectStatuss: unknown key/);
    expect(result.stderr).toMatch(/user\.otherwise: /);
  });
});

describe('wework-harness run --codex', () => {
  let scratch: string;
  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'harness-cli-codex-'));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  const reportOf = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as { passed: boolean; codex: { commandLine: string[]; version: unknown } };

  it('runs the Codex it is given (the npm wrapper script) and reports its version as supported', async () => {
    const wrapper = join(dirname(createRequire(import.meta.url).resolve('@openai/codex/package.json')), 'bin', 'codex.js');
    const reportPath = join(scratch, 'wrapper.report.json');
    const result = await runCli(['run', 'scenarios/forms-choose-strategy.json', `--report=${reportPath}`, '--quiet', `--codex=${wrapper}`]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = await reportOf(reportPath);
    expect(report.codex.commandLine).toEqual([process.execPath, wrapper, 'app-server']);
    expect(report.codex.version).toEqual({ _tag: 'Supported', version: '0.171.0' });
  });

  it('warns about an older release from the registry, which it still runs', async () => {
    const older = await olderCodexBinary();
    const reportPath = join(scratch, 'older.report.json');
    const result = await runCli(['run', 'scenarios/forms-choose-strategy.json', `--report=${reportPath}`, `--codex=${older}`]);
    expect(result.stderr).toContain(`warning: Codex ${OLDER_CODEX_VERSION} is outside the supported versions (0.171.0 up to 0.172.0, not included)`);
    const report = await reportOf(reportPath);
    expect(report.codex.commandLine[0]).toBe(older);
    expect(report.codex.version).toMatchObject({ _tag: 'Unsupported', version: OLDER_CODEX_VERSION });
  }, 600_000);
});

describe('wework-harness options', () => {
  it('--help prints the usage of every command and exits 0; so does run --help', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['run', '--help'], ['diagnose', '--help']]) {
      const result = await runCli(args);
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: expect.stringContaining('usage: wework-harness') });
    }
    expect((await runCli(['--help'])).stdout).toContain('wework-harness diagnose');
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(join(appDir, 'package.json'), 'utf8')) as { version: string };
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it('refuses unknown options, missing values and extra files with exit 2 and the usage', async () => {
    for (const args of [['run', 'a.json', '--frobnicate'], ['run', 'a.json', '--report'], ['run', 'a.json', 'b.json'], ['run'], ['diagnose', 'r.json', '--jsno'], []]) {
      const result = await runCli(args);
      expect(result, args.join(' ')).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: wework-harness') });
    }
    expect((await runCli(['run', 'a.json', '--frobnicate'])).stderr).toContain("Unknown option '--frobnicate'");
  });
});
