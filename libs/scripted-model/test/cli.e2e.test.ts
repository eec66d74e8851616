/**
 * The `wework-scripted-model` command end to end: the committed bin (which runs the built
 * `dist/node/cli.js`; `nx test` builds it first) spawned as a host in another language would, its
 * ready line read from stdout, requests made to it, and its exit codes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { functionCallOutputs, modelProviderSettings, type RecordedRequest } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'wework-scripted-model.js');
const SCRIPT = join(here, 'fixtures', 'hello.script.json');
const responsesBody = JSON.stringify({ model: 'mock-model', stream: true, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  /** The first stdout line (the ready line), or null when the command ended without one. */
  readonly firstLine: Promise<string | null>;
  readonly ended: Promise<Ended>;
}

const running = new Set<ChildProcessWithoutNullStreams>();

function command(args: ReadonlyArray<string>): Running {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const lines = createInterface({ input: child.stdout });
  const firstLine = new Promise<string | null>((resolve) => {
    lines.once('line', resolve);
    lines.once('close', () => resolve(null));
  });
  lines.on('line', (line) => void (stdout += `${line}\n`));
  const ended = new Promise<Ended>((resolve) => {
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, firstLine, ended };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scripted-model-cli-'));
});
afterEach(async () => {
  for (const child of running) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('wework-scripted-model', { timeout: 60_000 }, () => {
  it('serves the script file, writes the Codex home keeping what is there, and exits 0 on SIGTERM', async () => {
    const codexHome = join(dir, 'executor', 'codex');
    const mine = '# my settings\napproval_policy = "on-request" # asked\n\n[mcp_servers.forms]\ncommand = "node"\nargs = ["forms.js"]\n';
    const run = command(['--script', SCRIPT, '--codex-home', codexHome, '--json', '--model', 'gpt-5.5', '--provider-id', 'mock']);
    // A home that does not exist yet is created, with a config.toml naming the model.
    const ready = JSON.parse((await run.firstLine) ?? 'null') as { url: string; port: number; configPath: string };
    expect(ready.url).toBe(`http://127.0.0.1:${ready.port}/v1`);
    expect(ready.configPath).toBe(join(codexHome, 'config.toml'));
    expect(parse(await readFile(ready.configPath, 'utf8'))).toMatchObject({ model: 'gpt-5.5', model_provider: 'mock', model_providers: { mock: { base_url: ready.url } } });
    run.child.kill('SIGTERM');
    expect((await run.ended).code).toBe(0);

    // An existing config keeps every line; the scripted model's keys are added.

    await writeFile(join(codexHome, 'config.toml'), mine);
    const second = command(['--script', SCRIPT, '--codex-home', codexHome]);
    const line = (await second.firstLine) ?? '';
    expect(line).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const url = line.slice('listening '.length);

    const written = await readFile(join(codexHome, 'config.toml'), 'utf8');
    expect(parse(written)).toEqual({
      approval_policy: 'on-request',
      model_provider: 'scripted',
      model: 'mock-model',
      mcp_servers: { forms: { command: 'node', args: ['forms.js'] } },
      model_providers: { scripted: modelProviderSettings({ baseUrl: url }) },
      features: { unbounded_connection_retries: false, plugins: false },
    });
    for (const kept of mine.split('\n')) expect(written.split('\n')).toContain(kept);
    expect((await stat(join(codexHome, 'config.toml'))).mode & 0o777).toBe(0o600);

    const answer = await fetch(`${url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: responsesBody });
    expect(answer.status).toBe(200);
    const events = await answer.text();
    expect(events).toContain('"delta":"Hello "');
    expect(events).toContain('"text":"Hello from the script file."');
    const refused = await fetch(`${url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: responsesBody });
    expect(refused.status).toBe(400);

    second.child.kill('SIGTERM');
    const ended = await second.ended;
    expect(ended).toMatchObject({ code: 0, signal: null });
    expect(ended.stdout).toBe(`${line}\n`);
    expect(ended.stderr).toContain('request 1: POST /v1/responses answered from script[0]');
  });

  it('exits 0 when its stdin pipe closes, and --record holds every request, credentials redacted', async () => {
    const record = join(dir, 'requests.json');
    const run = command(['--script', SCRIPT, '--record', record]);
    const url = ((await run.firstLine) ?? '').slice('listening '.length);
    const answer = await fetch(`${url}/responses`, { method: 'POST', headers: { authorization: 'Bearer sk-secret', 'content-type': 'application/json' }, body: responsesBody });
    await answer.text();
    run.child.stdin.end();
    expect((await run.ended).code).toBe(0);
    const requests = JSON.parse(await readFile(record, 'utf8')) as ReadonlyArray<RecordedRequest>;
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/responses', headers: { authorization: '[redacted]' }, outcome: { _tag: 'Answered', responseIndex: 0 } });
    expect(functionCallOutputs(requests[0]!)).toEqual([]);
  });

  it('refuses a bad script file with exit 2 and where it is wrong, never its content', async () => {
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      ['[\n  {"steps": [{"say": "sk-secret-1"}]},\n  {"steps": [}\n]', /bad\.json: script is not valid JSON: line 3, column 14: expected /],
      ['[{"steps": [{"sya": "sk-secret-2"}]}]', /bad\.json: script\[0\]\.steps\[0\]: unknown step "sya"/],
      ['{"steps": "sk-secret-3"}', /bad\.json: script: /],
    ];
    for (const [content, message] of cases) {
      await writeFile(join(dir, 'bad.json'), content);
      const ended = await command(['--script', join(dir, 'bad.json')]).ended;
      expect(ended.code).toBe(2);
      expect(ended.stdout).toBe('');
      expect(ended.stderr).toMatch(message);
      expect(ended.stderr).not.toContain('sk-secret');
    }
    const missing = await command(['--script', join(dir, 'missing.json')]).ended;
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('the script file cannot be read (ENOENT)');
  });

  it('refuses a config.toml that is not TOML with exit 1, leaving it as it was', async () => {
    const codexHome = join(dir, 'codex');
    const run = command(['--script', SCRIPT, '--codex-home', codexHome]);
    await run.firstLine;
    run.child.kill('SIGTERM');
    await run.ended;
    await writeFile(join(codexHome, 'config.toml'), 'token = "sk-secret\n');
    const ended = await command(['--script', SCRIPT, '--codex-home', codexHome]).ended;
    expect(ended).toMatchObject({ code: 1, stdout: '' });
    expect(ended.stderr).toContain("the Codex home's config.toml is not valid TOML (line 1");
    expect(ended.stderr).not.toContain('sk-secret');
    expect(await readFile(join(codexHome, 'config.toml'), 'utf8')).toBe('token = "sk-secret\n');
  });

  it('answers --help and --version with exit 0, and bad usage with exit 2 and the usage', async () => {
    const help = await command(['--help']).ended;
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('usage: wework-scripted-model --script FILE');
    const version = await command(['--version']).ended;
    const { version: packageVersion } = JSON.parse(await readFile(join(here, '..', 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
    for (const args of [['--script', SCRIPT, '--frobnicate'], [], ['--script', SCRIPT, '--host', '0.0.0.0'], ['--script', SCRIPT, '--port', '70000'], ['--script', SCRIPT, '--model', 'm']]) {
      const ended = await command(args).ended;
      expect(ended.code, args.join(' ')).toBe(2);
      expect(ended.stdout).toBe('');
      expect(ended.stderr).toContain('usage: wework-scripted-model');
    }
  });
});
