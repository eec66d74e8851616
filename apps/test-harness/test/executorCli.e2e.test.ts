/**
 * The desktop executor's command line as a user meets it (`wework-executor`, the committed bin that runs
 * `dist/serve.js`): `--help` and `--version` exit 0, an unknown option exits 2, `--log-format=json` writes
 * one JSON object per log line with its time and level, and a Codex of the host's choice
 * (`WEWORK_CODEX_PATH`, `--codex`) is checked against the supported versions: an older release from the
 * registry (0.169.0) is served with a warning, or refused with `--require-supported-codex`.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { startExecutorHost } from '../src/host/ExecutorHostClient.js';
import { OLDER_CODEX_VERSION, olderCodexBinary } from './support/olderCodex.js';

const executorPackage = dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json'));
const demo = join(executorPackage, 'dist', 'main.js');
const bin = join(dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json')), 'bin', 'wework-executor.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the bin with `args` and `env`. Its stdin carries `request` (one JSON-RPC line) and is closed once
 * a line came back, or at once without a request (a stdio executor then ends).
 */
const run = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env, request?: string, script: string = bin, closeAfterWrite = false): Promise<Run> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    if (request === undefined) child.stdin.end();
    else if (closeAfterWrite) child.stdin.end(request);
    else child.stdin.write(request);
  });

let root: string;
let model: ScriptedModel;
let dirs: { readonly executorHome: string; readonly userHome: string; readonly workspace: string };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-executor-cli-'));
  dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  model = await startScriptedModel({ script: [] });
  const written = await writeScriptedModelConfig(join(dirs.executorHome, 'codex'), { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
});

afterAll(async () => {
  await model?.close();
  await rm(root, { recursive: true, force: true });
});

const homeArgs = (): ReadonlyArray<string> => ['--executor-home', dirs.executorHome, `--workspace=${dirs.workspace}`];
const envOf = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...process.env, HOME: dirs.userHome, ...extra });

describe('wework-executor', () => {
  it('--help and --version print and exit 0; an unknown option or value exits 2 with the usage', async () => {
    const pkg = JSON.parse(await readFile(join(dirname(bin), '..', 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--help'], ['-h'], ['--stdio', '--help']]) expect(await run(args), args.join(' ')).toMatchObject({ code: 0, stdout: expect.stringContaining('usage: wework-executor') });
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(await run(['--stdio', '--bogus'])).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--bogus'") });
    expect(await run(['--ws', '--port=http'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--port needs a port number') });
    expect(await run([])).toMatchObject({ code: 2, stderr: expect.stringContaining('choose --stdio or --ws') });
  });

  it('answers a host that writes its request and closes stdin at once (printf … | wework-executor --stdio), then exits', async () => {
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'executor/info', params: {} })}\n`;
    const result = await run(['--stdio', ...homeArgs()], envOf(), request, bin, true);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.split('\n')[0] ?? '')).toMatchObject({ id: 1, result: { executor: 'wework-desktop-executor' } });
  });

  it('--log-format=json: every log line is one JSON object with its time, level, event and fields', async () => {
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'executor/info', params: {} })}\n`;
    const result = await run(['--stdio', '--log-format=json', ...homeArgs()], envOf(), request);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.split('\n')[0] ?? '')).toMatchObject({ id: 1, result: { executor: 'wework-desktop-executor' } });
    const lines = result.stderr.trim().split('\n').map((line) => JSON.parse(line) as { time: string; level: string; event: string; fields: Record<string, unknown> });
    for (const line of lines) {
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
      expect(['debug', 'info', 'warn', 'error']).toContain(line.level);
    }
    expect(lines.find((line) => line.event === 'codex version')).toMatchObject({ level: 'info', fields: { version: '0.171.0' } });
  });

  it('serves an older Codex from the registry (WEWORK_CODEX_PATH) with a warning, and refuses it with --require-supported-codex', async () => {
    const older = await olderCodexBinary();
    const host = await startExecutorHost({ transport: 'stdio', ...dirs, env: envOf({ WEWORK_CODEX_PATH: older }), cards: () => ({ action: 'cancel' }) });
    try {
      const info = await host.request('executor/info', {});
      expect(info).toMatchObject({ right: { codexUserAgent: expect.stringContaining(`/${OLDER_CODEX_VERSION}`) } });
      await expect.poll(() => host.stderr(), { timeout: 10_000 }).toMatch(new RegExp(` warn codex version not supported check="Codex ${OLDER_CODEX_VERSION.replace(/\./g, '\\.')} is outside the supported versions`));
    } finally {
      await host.close();
    }
    const refused = await run(['--stdio', `--codex=${older}`, '--require-supported-codex', ...homeArgs()], envOf());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The executor did not start: Codex ${OLDER_CODEX_VERSION} is outside the supported versions (0.171.0 up to 0.172.0, not included); it was refused because --require-supported-codex was given`);
    // The pinned Codex with the same flag starts.
    const pinned = await run(['--stdio', '--require-supported-codex', ...homeArgs()], envOf());
    expect(pinned.code, pinned.stderr).toBe(0);
  }, 600_000);

  it('runs the forms demo (npm start) against the older Codex given with --codex: the same transcript, with the warning', async () => {
    const older = await olderCodexBinary();
    const transcriptOf = (result: Run): string => {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('⚙ forms.echo {"text":"Hello from the sample plugin"} → Hello from the sample plugin');
      expect(result.stdout).toContain('‹ codex: The sample plugin answered: "Hello from the sample plugin".');
      expect(result.stdout).toMatch(/✓ turn completed/);
      return result.stdout;
    };
    const withOlder = await run([`--codex=${older}`], envOf(), undefined, demo);
    expect(transcriptOf(withOlder)).toContain(`real codex app-server ${OLDER_CODEX_VERSION}, embedded scripted model`);
    expect(withOlder.stderr).toContain(`warning: Codex ${OLDER_CODEX_VERSION} is outside the supported versions (0.171.0 up to 0.172.0, not included)`);
    const pinned = await run([], envOf(), undefined, demo);
    expect(transcriptOf(pinned)).toContain('real codex app-server 0.171.0, embedded scripted model');
    expect(pinned.stderr).not.toContain('warning:');
    expect(await run(['--help'], envOf(), undefined, demo)).toMatchObject({ code: 0, stdout: expect.stringContaining('usage: npm start -- [--codex=PATH]') });
  }, 600_000);
});
