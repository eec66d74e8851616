/**
 * The real Node entry (`dist/main.js`, built before the tests) as a child process: desired-state
 * messages on stdin, one status line per message on stdout, the log on stderr; garbage lines are
 * answered and the process keeps running; when stdin ends or on SIGTERM it stops its app-server and
 * exits, leaving no process behind; a second executor on the same executor home exits at once.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cacheDirectoryOf } from '@wework/sync-transaction';
import { baseEnv, cleanUp, desiredState, device, onCleanUp, skillPackage, type DeviceDirs } from './support/cloudBox.js';
import { listTree } from '@wework/test-support';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
beforeAll(() => {
  if (!existsSync(main)) throw new Error('build the app first (nx runs build before test)');
});
afterEach(cleanUp);

const PLUGIN = { name: 'team-skills', marketplace: 'wegent' };

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface ChildExecutor {
  readonly child: ChildProcessWithoutNullStreams;
  /** The next status line (parsed). */
  next(): Promise<Record<string, unknown>>;
  send(line: string): void;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The app-server's pid, from the log. */
  appServerPid(): number;
  stderr(): string;
}

function startChild(dirs: DeviceDirs, args: ReadonlyArray<string> = []): ChildExecutor {
  const env = { ...baseEnv(), WEWORK_EXECUTOR_HOME: dirs.executorHome, WEWORK_CLAUDE_HOME: dirs.claudeHome, WEWORK_WORKSPACE: dirs.workspace, HOME: dirs.userHome };
  const child = spawn(process.execPath, [main, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) lines.push(line);
    else waiter(line);
  });
  onCleanUp(async () => {
    const pids = [...stderr.matchAll(/app-server started(?: pid=|","fields":\{"pid":)(\d+)/g)].map((m) => Number(m[1]));
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    for (const pid of pids) if (alive(pid)) process.kill(-pid, 'SIGKILL');
  });
  return {
    child,
    exited,
    next: async () => {
      const line = lines.shift() ?? (await Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited.then(() => `{"exited":true}`)]));
      return JSON.parse(line) as Record<string, unknown>;
    },
    send: (line) => void child.stdin.write(`${line}\n`),
    appServerPid: () => {
      const match = /app-server started pid=(\d+)/.exec(stderr) ?? /"event":"app-server started","fields":\{"pid":(\d+)/.exec(stderr);
      if (match === null) throw new Error(`no app-server in the log:\n${stderr}`);
      return Number(match[1]);
    },
    stderr: () => stderr,
  };
}

describe('node dist/main.js', () => {
  it('speaks the stdin/stdout protocol, survives garbage, and ends with stdin, its app-server gone', async () => {
    const { dirs } = await device(0);
    const executor = startChild(dirs);
    executor.send('garbage');
    expect(await executor.next()).toEqual({ type: 'status', outcome: 'Rejected', ok: false, error: { _tag: 'InvalidJson' } });
    executor.send('{"type":"desiredState","revision":"one","plugins":[]}');
    expect(await executor.next()).toEqual({ type: 'status', outcome: 'Rejected', ok: false, error: { _tag: 'InvalidMessage', issues: ['revision: expected Int'] } });
    executor.send('');
    const path = await skillPackage(dirs, PLUGIN.name, '1.0.0');
    executor.send(desiredState(1, [{ ...PLUGIN, version: '1.0.0', path }]));
    expect(await executor.next()).toMatchObject({
      outcome: 'Reconciled',
      ok: true,
      revision: 1,
      actions: [{ plugin: 'team-skills@wegent', action: 'install', result: 'Committed' }],
      runtime: { _tag: 'Reloaded', skills: ['standup'] },
    });
    expect(existsSync(join(dirs.codexHome, cacheDirectoryOf(PLUGIN, '1.0.0'), 'skills/standup/SKILL.md'))).toBe(true);
    executor.send(desiredState(2, []));
    expect(await executor.next()).toMatchObject({ ok: true, revision: 2, actions: [{ action: 'remove', result: 'Committed' }] });
    expect(readFileSync(join(dirs.codexHome, 'config.toml'), 'utf8')).not.toContain('team-skills@wegent');
    // Codex-only by default: not one byte written on the Claude side.
    expect(listTree(dirs.claudeHome)).toHaveLength(1);

    const appServer = executor.appServerPid();
    expect(alive(appServer)).toBe(true);
    executor.child.stdin.end();
    expect(await executor.exited).toEqual({ code: 0, signal: null });
    expect(alive(appServer)).toBe(false);
    await expect.poll(() => executor.stderr(), { timeout: 10_000 }).toContain('cloud executor stopped');
  });

  it('stops its app-server and exits on SIGTERM', async () => {
    const { dirs } = await device(0);
    const executor = startChild(dirs);
    executor.send('{"type":"desiredState","revision":1,"plugins":[]}');
    expect(await executor.next()).toMatchObject({ outcome: 'Reconciled', ok: true, actions: [] });
    const appServer = executor.appServerPid();
    executor.child.kill('SIGTERM');
    expect(await executor.exited).toEqual({ code: 0, signal: null });
    expect(alive(appServer)).toBe(false);
  });

  it('one executor per home: a second one on the same executor home exits at once with code 3; the first keeps reconciling', async () => {
    const { dirs } = await device(0);
    const first = startChild(dirs);
    first.send('{"type":"desiredState","revision":1,"plugins":[]}');
    expect(await first.next()).toMatchObject({ outcome: 'Reconciled', ok: true });
    const second = startChild(dirs);
    expect(await second.exited).toEqual({ code: 3, signal: null });
    await expect.poll(() => second.stderr(), { timeout: 10_000 }).toContain(`another executor is already running on this executor home (pid ${first.child.pid})`);
    expect(second.stderr()).not.toContain('app-server started');
    const path = await skillPackage(dirs, PLUGIN.name, '1.0.0');
    first.send(desiredState(2, [{ ...PLUGIN, version: '1.0.0', path }]));
    expect(await first.next()).toMatchObject({ ok: true, revision: 2, actions: [{ action: 'install', result: 'Committed' }] });
    first.child.stdin.end();
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dirs.executorHome, 'executor.lock'))).toBe(false);
  });

  it('--help and --version print and exit 0; an unknown option exits 2 with the usage', async () => {
    const run = (args: ReadonlyArray<string>): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [main, ...args], { env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => resolve({ code, stdout, stderr }));
      });
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await run(['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('usage: wework-cloud-executor') });
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(await run(['--bogus'])).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--bogus'") });
    expect(await run(['--log-format=yaml'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--log-format needs text or json') });
  });

  it('writes its log as one JSON object per line with --log-format=json, each with its time and level', async () => {
    const { dirs } = await device(0);
    const executor = startChild(dirs, ['--log-format=json']);
    executor.send('garbage');
    expect(await executor.next()).toMatchObject({ outcome: 'Rejected' });
    executor.child.stdin.end();
    expect(await executor.exited).toEqual({ code: 0, signal: null });
    const lines = executor.stderr().trim().split('\n').map((line) => JSON.parse(line) as { time: string; level: string; event: string; fields: Record<string, unknown> });
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
      expect(['debug', 'info', 'warn', 'error']).toContain(line.level);
    }
    expect(lines.find((line) => line.event === 'app-server started')?.fields).toMatchObject({ pid: expect.any(Number), codex: '0.171.0' });
  });

  it('refuses an unknown runtime target before starting anything', async () => {
    const { dirs } = await device(0);
    const child = spawn(process.execPath, [main], { env: { ...baseEnv(), WEGENT_PLUGIN_RUNTIME_TARGET: 'claude', WEWORK_EXECUTOR_HOME: dirs.executorHome, HOME: dirs.userHome }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('WEGENT_PLUGIN_RUNTIME_TARGET must be "codex" or "dual"');
  });
});
