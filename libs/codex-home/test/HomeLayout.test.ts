import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ensureCodexHome, resolveCodexHome, type HomeEnvironment } from '../src/index.js';
import { MemoryFileSystem } from '@wework/ports/testing';
import { leftOf, rightOf } from './support.js';

const environment = (variables: Record<string, string | undefined> = {}): HomeEnvironment => ({
  variables,
  executorHome: '/home/ada/.wegent-executor',
  userHome: '/home/ada',
  platform: 'unix',
});

describe('resolveCodexHome', () => {
  it('uses the codex child of the executor home by default', () => {
    const layout = resolveCodexHome(environment());
    expect(layout).toMatchObject(
      E.right({
        home: '/home/ada/.wegent-executor/codex',
        source: 'executorHome',
        authFile: '/home/ada/.wegent-executor/codex/auth.json',
        configFile: '/home/ada/.wegent-executor/codex/config.toml',
        profilesDirectory: '/home/ada/.wegent-executor/codex/wework-account-profiles',
        accountIndexFile: '/home/ada/.wegent-executor/codex/wework-account-profiles/index.json',
        stateFile: '/home/ada/.wegent-executor/codex/wework-home.json',
        nativeHome: '/home/ada/.codex',
        nativeAuthFile: '/home/ada/.codex/auth.json',
      }),
    );
  });

  it('lets WEGENT_CODEX_HOME win; an empty value counts as unset', () => {
    expect(resolveCodexHome(environment({ WEGENT_CODEX_HOME: '/srv/wework-codex/' }))).toMatchObject(E.right({ home: '/srv/wework-codex', source: 'WEGENT_CODEX_HOME' }));
    expect(resolveCodexHome(environment({ WEGENT_CODEX_HOME: '' }))).toMatchObject(E.right({ source: 'executorHome' }));
  });

  it('ignores every other variable, CODEX_HOME included', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((k) => k !== 'WEGENT_CODEX_HOME'), fc.string()), (variables) => {
        const layout = resolveCodexHome(environment({ ...variables, CODEX_HOME: '/other' }));
        return E.isRight(layout) && layout.right.home === '/home/ada/.wegent-executor/codex';
      }),
    );
  });

  it('refuses relative paths and the native home itself', () => {
    expect(resolveCodexHome(environment({ WEGENT_CODEX_HOME: 'codex' }))).toEqual(E.left({ _tag: 'InvalidHomePath', source: 'WEGENT_CODEX_HOME', path: 'codex' }));
    expect(resolveCodexHome({ ...environment(), executorHome: 'rel' })).toEqual(E.left({ _tag: 'InvalidHomePath', source: 'executorHome', path: 'rel' }));
    expect(resolveCodexHome({ ...environment(), userHome: '~' })).toEqual(E.left({ _tag: 'InvalidHomePath', source: 'userHome', path: '~' }));
    expect(resolveCodexHome(environment({ WEGENT_CODEX_HOME: '/home/ada/.codex/' }))).toEqual(E.left({ _tag: 'HomeIsNativeHome', path: '/home/ada/.codex' }));
  });

  it('resolves Windows paths', () => {
    const layout = resolveCodexHome({ variables: {}, executorHome: 'C:\\Users\\ada\\AppData\\wegent', userHome: 'C:\\Users\\ada', platform: 'windows' });
    expect(layout).toMatchObject(E.right({ home: 'C:\\Users\\ada\\AppData\\wegent\\codex', nativeAuthFile: 'C:\\Users\\ada\\.codex\\auth.json' }));
  });
});

describe('ensureCodexHome', () => {
  const layout = resolveCodexHome(environment());
  if (E.isLeft(layout)) throw new Error('layout');

  it('creates a missing home (and parents) with mode 0700, then finds it', async () => {
    const fs = new MemoryFileSystem();
    expect(await rightOf(ensureCodexHome(fs, layout.right))).toBe('Created');
    expect(fs.entryAt(layout.right.home)).toEqual({ kind: 'directory', mode: 0o700 });
    expect(await rightOf(ensureCodexHome(fs, layout.right))).toBe('Existing');
  });

  it('accepts a home that is a link to a directory, refuses a file and a link to the native home', async () => {
    const linked = new MemoryFileSystem().addDirectory('/data/codex').addSymlink('/data/codex', layout.right.home);
    expect(await rightOf(ensureCodexHome(linked, layout.right))).toBe('Existing');
    const file = new MemoryFileSystem().addFile(layout.right.home, 'x');
    expect(await leftOf(ensureCodexHome(file, layout.right))).toEqual({ _tag: 'HomeNotADirectory', path: layout.right.home });
    const native = new MemoryFileSystem().addDirectory('/home/ada/.codex').addSymlink('/home/ada/.codex', layout.right.home);
    expect(await leftOf(ensureCodexHome(native, layout.right))).toEqual({ _tag: 'HomeIsNativeHome', path: layout.right.home });
  });
});
