/**
 * `enableCompileCache` over a stand-in for `node:module`: each status Node answers, a Node without the
 * function, and a call that throws; none of them throws, and only a failure is logged as a warning.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheLogEntry, enableCompileCache, enableCompileCacheIn, type CompileCacheApi } from '../src/runtime/CompileCache.js';

const compileCacheStatus = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 };
const answering = (result: ReturnType<NonNullable<CompileCacheApi['enableCompileCache']>>): CompileCacheApi & { readonly calls: string[] } => {
  const calls: string[] = [];
  return {
    calls,
    constants: { compileCacheStatus },
    enableCompileCache: (directory) => {
      calls.push(directory);
      return result;
    },
  };
};

describe('enableCompileCache', () => {
  it('enables the cache in the directory given', () => {
    const api = answering({ status: compileCacheStatus.ENABLED, directory: '/home/x/cache/node-compile' });
    expect(enableCompileCache('/home/x/cache/node-compile', api)).toEqual({ _tag: 'Enabled', directory: '/home/x/cache/node-compile' });
    expect(api.calls).toEqual(['/home/x/cache/node-compile']);
  });

  it("keeps the user's own NODE_COMPILE_CACHE: already enabled, in the user's directory", () => {
    expect(enableCompileCache('/home/x/cache/node-compile', answering({ status: compileCacheStatus.ALREADY_ENABLED, directory: '/users/own' }))).toEqual({ _tag: 'AlreadyEnabled', directory: '/users/own' });
  });

  it('is disabled when NODE_DISABLE_COMPILE_CACHE says so', () => {
    expect(enableCompileCache('/d', answering({ status: compileCacheStatus.DISABLED }))).toEqual({ _tag: 'Disabled' });
  });

  it('fails as a value when Node cannot use the directory, or the call throws', () => {
    expect(enableCompileCache('/d', answering({ status: compileCacheStatus.FAILED, message: 'Cannot create cache directory /d: ENOTDIR' }))).toEqual({ _tag: 'Failed', code: 'FAILED' });
    expect(enableCompileCache('/d', answering({ status: 9, message: 'something new at /d' }))).toEqual({ _tag: 'Failed', code: 'status 9' });
    const throwing = (error: unknown): CompileCacheApi => ({
      constants: { compileCacheStatus },
      enableCompileCache: () => {
        throw error;
      },
    });
    expect(enableCompileCache('/d', throwing(Object.assign(new Error("EACCES: permission denied, mkdir '/d'"), { code: 'EACCES' })))).toEqual({ _tag: 'Failed', code: 'EACCES' });
    expect(enableCompileCache('/d', throwing(new TypeError('/d is not usable')))).toEqual({ _tag: 'Failed', code: 'TypeError' });
    expect(enableCompileCache('/d', throwing({ code: '/d: no' }))).toEqual({ _tag: 'Failed', code: 'Thrown' });
  });

  it('does nothing on a Node without the compile cache (before 22.1)', () => {
    expect(enableCompileCache('/d', {})).toEqual({ _tag: 'Unsupported' });
  });

  it('logs a failure as a warning and the rest as debug detail: the status, a code and the Node version, never the directory', () => {
    expect(compileCacheLogEntry({ _tag: 'Failed', code: 'ENOTDIR' }, 'v24.1.0')).toEqual({ event: 'compile cache unavailable', fields: { status: 'Failed', code: 'ENOTDIR', node: 'v24.1.0' }, level: 'warn' });
    expect(compileCacheLogEntry({ _tag: 'Enabled', directory: '/d' }, 'v24.1.0')).toEqual({ event: 'compile cache', fields: { status: 'Enabled', node: 'v24.1.0' }, level: 'debug' });
    expect(compileCacheLogEntry({ _tag: 'AlreadyEnabled', directory: '/users/own' }, 'v24.1.0')).toEqual({ event: 'compile cache', fields: { status: 'AlreadyEnabled', node: 'v24.1.0' }, level: 'debug' });
    expect(compileCacheLogEntry({ _tag: 'Unsupported' }, 'v20.19.0')).toEqual({ event: 'compile cache', fields: { status: 'Unsupported', node: 'v20.19.0' }, level: 'debug' });
  });
});

describe('enableCompileCacheIn', () => {
  it('creates a missing executor home private to the user before enabling the cache in it', () => {
    const root = mkdtempSync(join(tmpdir(), 'compile-cache-home-'));
    try {
      const home = join(root, 'a', 'executor');
      const api = answering({ status: compileCacheStatus.ENABLED, directory: 'd' });
      expect(enableCompileCacheIn(home, api)).toEqual({ _tag: 'Enabled', directory: 'd' });
      expect(api.calls).toEqual([join(home, 'cache', 'node-compile')]);
      expect(statSync(home).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('answers Failed with the error code, and enables nothing, when the home cannot be made', () => {
    const root = mkdtempSync(join(tmpdir(), 'compile-cache-home-'));
    try {
      writeFileSync(join(root, 'file'), 'not a directory\n');
      const api = answering({ status: compileCacheStatus.ENABLED, directory: 'd' });
      expect(enableCompileCacheIn(join(root, 'file', 'executor'), api)).toEqual({ _tag: 'Failed', code: 'ENOTDIR' });
      expect(api.calls).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
