/**
 * The built proxy (`dist/proxy/main.js`) as a real process: in front of the real sample forms
 * plugin driven by the MCP SDK client, and in front of small Node scripts that probe exit codes,
 * signals, stderr and byte-exact passthrough. Needs the builds (`nx test` builds first; by hand:
 * `npx tsc -p tsconfig.app.json` here and `npx tsc -p tsconfig.lib.json` in libs/sample-plugins).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { checkPluginBuilt, formsPluginCommand } from '@wework/sample-plugins';
import { classifyMessage, decodeProxyLog, proxiedCommand, proxyMainPath, type ProxyLogEntry } from '../../src/proxy/index.js';
import { until } from '@wework/test-support';

let dir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  if (!existsSync(proxyMainPath())) throw new Error(`${proxyMainPath()} is missing: run npx tsc -p tsconfig.app.json in apps/test-harness`);
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`${plugin.error.path} is missing: run npx tsc -p tsconfig.lib.json in libs/sample-plugins`);
  dir = await mkdtemp(join(tmpdir(), 'mcp-proxy-test-'));
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function readLog(file: string): Promise<ReadonlyArray<ProxyLogEntry>> {
  const decoded = decodeProxyLog(await readFile(file, 'utf8'));
  if (E.isLeft(decoded)) throw new Error(`bad log line ${decoded.left.line}: ${decoded.left.message}`);
  return decoded.right;
}

/** Starts `node -e <script>` behind the proxy. */
function proxyNodeScript(script: string, logFile: string): { child: ChildProcessWithoutNullStreams; exit: Promise<number | null>; stdout: () => string; stderr: () => string } {
  const { command, args } = proxiedCommand({ command: process.execPath, args: ['-e', script], logFile });
  const child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, exit, stdout: () => out, stderr: () => err };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('recording MCP proxy', () => {
  it('records the whole MCP conversation with the forms plugin, elicitation included, in order', async () => {
    const logFile = join(dir, 'forms.jsonl');
    const client = new Client({ name: 'proxy-test', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { target: 'production' } }));
    const proxied = proxiedCommand({ ...formsPluginCommand(), logFile });
    await client.connect(new StdioClientTransport({ command: proxied.command, args: [...proxied.args], stderr: 'inherit' }));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('deploy');
      const result = await client.callTool({ name: 'deploy', arguments: { service: 'api' } });
      expect(result.content).toEqual([{ type: 'text', text: 'elicitation: accept {"target":"production"}\noutcome: deployed api to production' }]);
    } finally {
      await client.close();
    }

    const entries = await readLog(logFile);
    const summary = entries.map((e) => {
      const kind = 'message' in e ? classifyMessage(e.message) : { kind: 'unparsed' };
      return `${e.direction} ${kind.kind}${'method' in kind ? ` ${kind.method}` : ''}`;
    });
    expect(summary).toEqual([
      'client-to-server request initialize',
      'server-to-client response',
      'client-to-server notification notifications/initialized',
      'client-to-server request tools/list',
      'server-to-client response',
      'client-to-server request tools/call',
      'server-to-client request elicitation/create',
      'client-to-server response',
      'server-to-client response',
    ]);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i));
    for (const e of entries) expect(new Date(e.at).toISOString()).toBe(e.at);
    const elicitation = entries[6];
    expect(elicitation && 'message' in elicitation && elicitation.message).toMatchObject({ params: { mode: 'form', message: 'Choose a deployment target' } });
    const answer = entries[7];
    expect(answer && 'message' in answer && answer.message).toMatchObject({ result: { action: 'accept', content: { target: 'production' } } });
  });

  it('passes bytes through unchanged both ways and logs non-JSON lines raw', async () => {
    const logFile = join(dir, 'echo.jsonl');
    const proxy = proxyNodeScript('process.stdin.pipe(process.stdout)', logFile);
    const sent = '{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json ✓\n{"partial":';
    proxy.child.stdin.write(sent);
    await until('the bytes echoed back', () => proxy.stdout() === sent, 20_000);
    proxy.child.stdin.end('true}\n');
    expect(await proxy.exit).toBe(0);
    expect(proxy.stdout()).toBe(`${sent}true}\n`);
    const entries = await readLog(logFile);
    const clientSide = entries.filter((e) => e.direction === 'client-to-server');
    const serverSide = entries.filter((e) => e.direction === 'server-to-client');
    for (const side of [clientSide, serverSide]) {
      expect(side.map((e) => ('message' in e ? e.message : e.raw))).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }, 'not json ✓', { partial: true }]);
    }
  });

  it('forwards stderr and exits with the server’s exit code', async () => {
    const proxy = proxyNodeScript('process.stderr.write("server says hi\\n"); process.exit(3)', join(dir, 'exit.jsonl'));
    proxy.child.stdin.end();
    expect(await proxy.exit).toBe(3);
    await expect.poll(() => proxy.stderr(), { timeout: 10_000 }).toContain('server says hi');
  });

  it('kills a server that ignores the end of its stdin once the proxy’s stdin closes', async () => {
    const proxy = proxyNodeScript('process.stdout.write(process.pid + "\\n"); setInterval(() => {}, 1000)', join(dir, 'stubborn.jsonl'));
    await until("the server's pid", () => proxy.stdout().includes('\n'), 20_000);
    const serverPid = Number(proxy.stdout().split('\n')[0]);
    expect(isAlive(serverPid), `server ${serverPid} is not running; proxy stdout ${JSON.stringify(proxy.stdout())}, stderr ${JSON.stringify(proxy.stderr())}`).toBe(true);
    proxy.child.stdin.end();
    expect(await proxy.exit).toBe(143);
    expect(isAlive(serverPid)).toBe(false);
  });

  it('passes SIGTERM on to the server and exits with its code', async () => {
    const proxy = proxyNodeScript('process.on("SIGTERM", () => process.exit(7)); process.stdout.write(process.pid + "\\n"); setInterval(() => {}, 1000)', join(dir, 'term.jsonl'));
    await until("the server's pid", () => proxy.stdout().includes('\n'), 20_000);
    const serverPid = Number(proxy.stdout().split('\n')[0]);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exit).toBe(7);
    expect(isAlive(serverPid)).toBe(false);
  });

  it('explains a bad command line and a missing command', async () => {
    const usage = spawn(process.execPath, [proxyMainPath(), '--', 'x'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    usage.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    expect(await new Promise((resolve) => usage.once('close', resolve))).toBe(2);
    expect(err).toContain('missing --log <file.jsonl>');

    const { command, args } = proxiedCommand({ command: join(dir, 'no-such-server'), args: [], logFile: join(dir, 'missing.jsonl') });
    const missing = spawn(command, [...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    let missingErr = '';
    missing.stderr.setEncoding('utf8').on('data', (c: string) => (missingErr += c));
    expect(await new Promise((resolve) => missing.once('close', resolve))).toBe(127);
    expect(missingErr).toContain('cannot start');
  });
});
