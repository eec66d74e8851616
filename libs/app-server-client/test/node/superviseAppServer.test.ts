/**
 * The supervisor's crash loop against a stand-in server (test/fixtures/fake-app-server.mjs) that
 * initializes, writes a credential to stderr and exits: every end is reported `restarting` with its exit
 * code and a redacted stderr tail, the crash-loop limit ends in `failed`, and no secret is ever shown.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { superviseAppServer, type RuntimeStatus } from '../../src/node/index.js';

const fakeServer = fileURLToPath(new URL('../fixtures/fake-app-server.mjs', import.meta.url));
const SECRET = 'sk-proj-CANARY0123456789abcdef';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('superviseAppServer crash loop', () => {
  it('reports each crash with its exit code and a redacted stderr tail, then fails at the limit', async () => {
    const root = await mkdtemp(join(tmpdir(), 'supervise-fake-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const statuses: RuntimeStatus[] = [];
    let failed: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (failed = resolve));
    const started = await superviseAppServer({
      launch: { codexHome: root, home: root, cwd: root, env: { PATH: process.env['PATH'], FAKE_SECRET: SECRET }, command: process.execPath, args: [fakeServer, '--crash-after-initialize=7'] },
      policy: { initialDelayMs: 10, maxDelayMs: 20, crashLoopLimit: 3, crashLoopWindowMs: 60_000 },
    });
    if (E.isLeft(started)) throw new Error(started.left._tag);
    cleanups.push(() => started.right.dispose());
    started.right.onStatus((status) => {
      statuses.push(status);
      if (status.state === 'failed') failed();
    });
    await done;
    expect(statuses.map((status) => status.state)).toEqual(['restarting', 'ready', 'restarting', 'ready', 'failed']);
    for (const status of statuses.filter((s) => s.state !== 'ready')) {
      expect(status).toMatchObject({ exitCode: 7, signal: null, reason: 'the app-server exited (code 7, signal null)' });
      expect(status.stderrTail).toContain('Authorization: Bearer [redacted]');
    }
    expect(statuses.map((status) => status.retryInMs)).toEqual([10, null, 20, null, null]);
    expect(JSON.stringify(statuses)).not.toContain(SECRET);
    expect(started.right.current()).toBeNull();
  });

  it('ends a server that closed its output but hangs on, and restarts it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'supervise-hung-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const statuses: RuntimeStatus[] = [];
    let restarted: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (restarted = resolve));
    const started = await superviseAppServer({
      launch: {
        codexHome: root,
        home: root,
        cwd: root,
        env: { PATH: process.env['PATH'] },
        command: process.execPath,
        args: [fakeServer, '--close-stdout-after-initialize', '--ignore-sigterm', '--stay-after-stdin-end'],
        shutdownGraceMs: 100,
      },
      policy: { initialDelayMs: 10, maxDelayMs: 20, crashLoopLimit: 5, crashLoopWindowMs: 60_000 },
    });
    if (E.isLeft(started)) throw new Error(started.left._tag);
    cleanups.push(() => started.right.dispose());
    const firstPid = started.right.current()?.pid;
    started.right.onStatus((status) => {
      statuses.push(status);
      if (status.state === 'ready') restarted();
    });
    await done;
    expect(statuses.map((status) => status.state)).toEqual(['restarting', 'ready']);
    // The hung process was ended by a signal (SIGKILL, as it ignores SIGTERM), not left running.
    expect(statuses[0]).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(firstPid).toBeTypeOf('number');
    expect(() => process.kill(firstPid as number, 0)).toThrow();
    expect(started.right.current()?.pid).not.toBe(firstPid);
  }, 20_000);
});
