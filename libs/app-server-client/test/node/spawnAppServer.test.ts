/**
 * Process management of spawnAppServer, against a small stand-in server (test/fixtures/fake-app-server.mjs)
 * that can grow a process tree on request. The real app-server is exercised in spawnAppServer.e2e.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { clientRequest } from '@wework/codex-protocol';
import type { ClientEvent } from '../../src/index.js';
import { spawnAppServer } from '../../src/node/index.js';
import type { SpawnAppServerOptions, SpawnedAppServer } from '../../src/node/index.js';
import { guardedCount, killGuardedNow } from '../../src/node/exitGuard.js';
import { groupMembers, identityOf, killStrays, stillRunning, treeSnapshot } from '../support/processes.js';
import type { ProcessIdentity } from '../../src/node/index.js';

const fakeServer = fileURLToPath(new URL('../fixtures/fake-app-server.mjs', import.meta.url));
const abruptHost = fileURLToPath(new URL('../fixtures/abrupt-host.mjs', import.meta.url));
const builtPackage = fileURLToPath(new URL('../../dist/node/index.js', import.meta.url));

const SpawnChild = clientRequest('test/spawnChild', t.undefined, t.type({ pid: t.number }));
const SpawnDetachedChild = clientRequest('test/spawnDetachedChild', t.undefined, t.type({ pid: t.number }));
const Never = clientRequest('test/never', t.undefined, t.unknown);

const servers: SpawnedAppServer[] = [];
const dirs: string[] = [];
const strays: ProcessIdentity[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.dispose()));
  await killStrays(strays.splice(0));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'app-server-client-spawn-'));
  dirs.push(dir);
  return dir;
}

async function startFake(flags: string[] = [], extra: Partial<SpawnAppServerOptions> = {}): Promise<SpawnedAppServer> {
  const dir = await tempDir();
  const spawned = await spawnAppServer({ codexHome: dir, home: dir, cwd: dir, env: { PATH: process.env['PATH'] }, command: process.execPath, args: [fakeServer, ...flags], ...extra });
  if (E.isLeft(spawned)) throw new Error(`spawn failed: ${spawned.left._tag}`);
  servers.push(spawned.right);
  return spawned.right;
}

async function childOf(server: SpawnedAppServer, descriptor: typeof SpawnChild | typeof SpawnDetachedChild): Promise<ProcessIdentity> {
  const result = await server.client.request(descriptor, undefined);
  if (E.isLeft(result)) throw new Error(`request failed: ${result.left._tag}`);
  const identity = await identityOf(result.right.pid);
  strays.push(identity);
  return identity;
}

async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('spawnAppServer errors', () => {
  it('returns CodexHomeMissing for a CODEX_HOME that does not exist', async () => {
    const dir = await tempDir();
    const missing = join(dir, 'missing');
    expect(await spawnAppServer({ codexHome: missing, home: dir, cwd: dir, env: {} })).toEqual(E.left({ _tag: 'CodexHomeMissing', path: missing }));
  });

  it('returns SpawnFailed for a command that cannot be started', async () => {
    const dir = await tempDir();
    const result = await spawnAppServer({ codexHome: dir, home: dir, cwd: dir, env: {}, command: join(dir, 'no-such-program') });
    expect(result).toMatchObject(E.left({ _tag: 'SpawnFailed', message: expect.stringContaining('ENOENT') }));
  });

  it('returns InitializeFailed with the exit and the stderr tail when the process exits at once', async () => {
    const dir = await tempDir();
    const result = await spawnAppServer({ codexHome: dir, home: dir, cwd: dir, env: {}, command: process.execPath, args: [fakeServer, '--exit-at-start=3'] });
    expect(result).toMatchObject(
      E.left({ _tag: 'InitializeFailed', error: { _tag: 'ProcessExited', code: 3, signal: null, stderrTail: expect.stringContaining('exiting at start') } }),
    );
    expect(guardedCount()).toBe(0);
  });

  it('returns InitializeTimedOut and leaves no process behind when initialize gets no answer', async () => {
    const dir = await tempDir();
    const marker = `never-answers-${process.pid}-${Date.now()}`;
    const result = await spawnAppServer({
      codexHome: dir,
      home: dir,
      cwd: dir,
      env: {},
      command: process.execPath,
      args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1000)', marker],
      initializeTimeoutMs: 300,
      shutdownGraceMs: 200,
    });
    expect(result).toMatchObject(E.left({ _tag: 'InitializeTimedOut', timeoutMs: 300 }));
    expect(await processesWithArgument(marker)).toEqual([]);
  });
});

describe('spawnAppServer lifecycle', () => {
  it('initializes, and dispose ends the group, the descendants that left it, and pending requests', async () => {
    const server = await startFake(['--ignore-sigterm', '--stay-after-stdin-end'], { shutdownGraceMs: 300 });
    expect(server.initializeResult.userAgent).toBe('fake/0.0.0');
    const child = await childOf(server, SpawnChild);
    const detached = await childOf(server, SpawnDetachedChild);
    const tree = await treeSnapshot(server.pid);
    expect(tree.map((entry) => entry.pid)).toEqual(expect.arrayContaining([server.pid, child.pid, detached.pid]));
    expect(await groupMembers(server.pid)).not.toContain(detached.pid);

    const pending = server.client.request(Never, undefined);
    await server.dispose();
    expect(await pending).toEqual(E.left({ _tag: 'Disposed' }));
    expect(await stillRunning(tree)).toEqual([]);
    expect(await groupMembers(server.pid)).toEqual([]);
    expect((await server.exited).signal).toBe('SIGKILL');
    await server.dispose();
  });

  it('surfaces a crash as a ProcessExited event, resolves pending requests with it, and kills the orphaned group', async () => {
    const server = await startFake();
    const child = await childOf(server, SpawnChild);
    const events: ClientEvent[] = [];
    server.client.onEvent((event) => events.push(event));
    const pending = server.client.request(Never, undefined);
    process.kill(server.pid, 'SIGKILL');
    const result = await pending;
    expect(result).toMatchObject(E.left({ _tag: 'ProcessExited', code: null, signal: 'SIGKILL', stderrTail: expect.stringContaining('ready') }));
    expect(events).toEqual([expect.objectContaining({ _tag: 'ProcessExited', signal: 'SIGKILL' })]);
    expect(await server.client.request(Never, undefined)).toMatchObject(E.left({ _tag: 'ProcessExited' }));
    await eventually(async () => (await stillRunning([child])).length === 0, 'the orphaned child is gone');
    await server.dispose();
    expect(await groupMembers(server.pid)).toEqual([]);
  });

  it('guards live groups at host exit while servers run, and SIGKILLs them when asked', async () => {
    const before = process.listenerCount('exit');
    const server = await startFake();
    const child = await childOf(server, SpawnChild);
    expect(process.listenerCount('exit')).toBe(before + 1);
    killGuardedNow();
    expect((await server.exited).signal).toBe('SIGKILL');
    await eventually(async () => (await stillRunning([child])).length === 0, 'the child is gone');
    await server.dispose();
    expect(process.listenerCount('exit')).toBe(before);
  });
});

describe.skipIf(!existsSync(builtPackage))('a host that ends without disposing (uses the built package)', () => {
  for (const ending of ['process.exit()', 'SIGTERM'] as const) {
    it(`leaves no app-server process behind after ${ending}`, async () => {
      const dir = await tempDir();
      const host = spawn(process.execPath, [abruptHost, ending === 'SIGTERM' ? 'wait' : 'exit', fakeServer, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
      const hostExit = new Promise<[number | null, string | null]>((resolve) => host.once('exit', (c, s) => resolve([c, s])));
      try {
        const line = await new Promise<string>((resolve) => host.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
        const pids = JSON.parse(line) as { server: number; child: number; detached: number };
        const ids = await Promise.all([pids.server, pids.child, pids.detached].map(identityOf));
        strays.push(...ids);
        if (ending === 'SIGTERM') host.kill('SIGTERM');
        else host.stdin.write('exit now\n');
        const [code, signal] = await hostExit;
        expect(ending === 'SIGTERM' ? signal : code).toBe(ending === 'SIGTERM' ? 'SIGTERM' : 0);
        await eventually(async () => (await stillRunning(ids)).length === 0, 'every process of the host tree is gone');
      } finally {
        host.kill('SIGKILL');
      }
    });
  }
});

/** Pids of processes whose command line contains `argument`. */
async function processesWithArgument(argument: string): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if ((await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').includes(argument)) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}
