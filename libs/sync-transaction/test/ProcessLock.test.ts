/**
 * The lock a process holds for its whole life: refused at once while another live process holds it,
 * taken again by the same process, broken when its owner is dead or its pid reused by a process with
 * another start time, and removed when the holder exits.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireProcessLock, processStartTime } from '../src/node/index.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sync-tx-plock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const distNode = fileURLToPath(new URL('../dist/node/index.js', import.meta.url));
const deadPid = (): number => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

describe('acquireProcessLock', () => {
  it('a second process is refused at once while the first holds it; the first removes it when it exits', async () => {
    const path = join(dir, 'home', 'executor.lock');
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', `const { acquireProcessLock } = await import(${JSON.stringify(distNode)}); const r = await acquireProcessLock(${JSON.stringify(path)}); console.log(r._tag); process.stdin.once('data', () => process.exit(0));`],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    expect(line).toBe('Right');
    expect(await acquireProcessLock(path)).toMatchObject({ left: { _tag: 'ProcessLockHeld', owner: { pid: child.pid } } });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.write('x\n');
    await exited;
    expect(existsSync(path)).toBe(false);
    expect(await acquireProcessLock(path)).toMatchObject({ right: { path, brokeStale: 0 } });
    expect(await acquireProcessLock(path)).toMatchObject({ right: { path } });
  });

  it.each([
    ['a dead pid', () => ({ pid: deadPid(), startTime: null })],
    ['a reused pid (this process, another start time)', () => ({ pid: process.pid, startTime: (processStartTime(process.pid) ?? 0) + 1 })],
  ])('a stale lock of %s is broken', async (_name, owner) => {
    const path = join(dir, 'executor.lock');
    writeFileSync(path, JSON.stringify({ ...owner(), token: 'stale' }));
    expect(await acquireProcessLock(path)).toMatchObject({ right: { brokeStale: 1 } });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, startTime: processStartTime(process.pid) });
  });
});
