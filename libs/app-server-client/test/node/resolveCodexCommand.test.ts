import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { nativeBinaryLocation, resolveCodexCommand } from '../../src/node/index.js';

describe('nativeBinaryLocation', () => {
  it('maps every platform the npm wrapper supports', () => {
    expect(nativeBinaryLocation('linux', 'x64')).toEqual({ targetTriple: 'x86_64-unknown-linux-musl', packageName: '@openai/codex-linux-x64', executable: 'codex' });
    expect(nativeBinaryLocation('linux', 'arm64')?.targetTriple).toBe('aarch64-unknown-linux-musl');
    expect(nativeBinaryLocation('darwin', 'arm64')).toEqual({ targetTriple: 'aarch64-apple-darwin', packageName: '@openai/codex-darwin-arm64', executable: 'codex' });
    expect(nativeBinaryLocation('win32', 'x64')).toEqual({ targetTriple: 'x86_64-pc-windows-msvc', packageName: '@openai/codex-win32-x64', executable: 'codex.exe' });
    expect(nativeBinaryLocation('freebsd', 'x64')).toBeUndefined();
    expect(nativeBinaryLocation('linux', 'ia32')).toBeUndefined();
  });
});

describe('resolveCodexCommand', () => {
  it('finds the installed native binary and its codex-path directory', () => {
    const resolved = resolveCodexCommand();
    expect(E.isRight(resolved)).toBe(true);
    if (E.isLeft(resolved)) return;
    expect(resolved.right.source).toBe('native');
    expect(basename(resolved.right.command)).toBe('codex');
    expect(basename(dirname(resolved.right.command))).toBe('bin');
    expect(existsSync(resolved.right.command)).toBe(true);
    expect(resolved.right.pathPrepend.map((dir) => basename(dir))).toEqual(['codex-path']);
  });

  it('falls back to the npm wrapper when the platform package is missing', () => {
    const resolved = resolveCodexCommand({ platform: 'freebsd' });
    expect(resolved).toMatchObject(E.right({ source: 'wrapper', command: process.execPath, pathPrepend: [] }));
    if (E.isRight(resolved)) expect(basename(resolved.right.args[0] ?? '')).toBe('codex.js');
  });

  it('reports CodexNotFound when @openai/codex is not installed', () => {
    const resolved = resolveCodexCommand({
      resolvePackageJson: () => {
        throw new Error('Cannot find module');
      },
    });
    expect(resolved).toMatchObject(E.left({ _tag: 'CodexNotFound' }));
  });
});
