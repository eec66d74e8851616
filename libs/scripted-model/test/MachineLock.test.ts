import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdMachineLock, withMachineLock } from '../src/node/index.js';

const lockName = (label: string): string => `test-${label}-${process.pid}`;

describe('holdMachineLock', () => {
  it('lets one holder in at a time: the next one waits for the release', async () => {
    const name = lockName('turns');
    const order: string[] = [];
    const first = await holdMachineLock(name);
    const second = holdMachineLock(name).then((release) => {
      order.push('second');
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    order.push('first done');
    await first();
    await (await second)();
    expect(order).toEqual(['first done', 'second']);
    expect(existsSync(join(tmpdir(), `wework-machine-lock-${name}`))).toBe(false);
  });

  it('breaks a lock whose holder was killed', async () => {
    const name = lockName('killed');
    const holder = spawn(process.execPath, ['-e', `require('node:fs').mkdirSync(${JSON.stringify(join(tmpdir(), `wework-machine-lock-${name}`))}); require('node:fs').writeFileSync(${JSON.stringify(join(tmpdir(), `wework-machine-lock-${name}`, 'owner'))}, String(process.pid)); setInterval(() => {}, 1000);`], { stdio: 'ignore' });
    const owner = join(tmpdir(), `wework-machine-lock-${name}`, 'owner');
    while (!existsSync(owner) || readFileSync(owner, 'utf8') === '') await new Promise((resolve) => setTimeout(resolve, 20));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const release = await holdMachineLock(name, { timeoutMs: 5_000 });
    await release();
  });

  it('gives up after its timeout while a live process holds the lock, and refuses a name that is not one', async () => {
    const name = lockName('held');
    const release = await holdMachineLock(name);
    try {
      await expect(holdMachineLock(name, { timeoutMs: 100 })).rejects.toThrow(`the machine lock "${name}" is still held after the wait`);
    } finally {
      await release();
    }
    await expect(holdMachineLock('../elsewhere')).rejects.toThrow('a machine lock name is letters, digits and "-"');
  });

  it('withMachineLock releases the lock when its work fails', async () => {
    const name = lockName('fails');
    await expect(withMachineLock(name, async () => Promise.reject(new Error('the work failed')))).rejects.toThrow('the work failed');
    expect(await withMachineLock(name, async () => 'next', { timeoutMs: 1_000 })).toBe('next');
  });
});
