import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseNameOf, isAbsolutePath, isWithin, joinPath, normalizePath, parentOf, platformOf, resolveLinkTarget, samePath } from '@wework/ports';

describe('paths on Unix', () => {
  it('joins, normalizes and splits', () => {
    expect(joinPath('unix', '/home/ada/', '.codex', 'auth.json')).toBe('/home/ada/.codex/auth.json');
    expect(normalizePath('unix', '/a//b/./c/../d/')).toBe('/a/b/d');
    expect(normalizePath('unix', '/../..')).toBe('/');
    expect(normalizePath('unix', 'a/../../b')).toBe('../b');
    expect(parentOf('unix', '/a/b')).toBe('/a');
    expect(parentOf('unix', '/')).toBe('/');
    expect(baseNameOf('unix', '/a/b.json')).toBe('b.json');
    expect(baseNameOf('unix', '/')).toBe('');
    expect(isAbsolutePath('unix', '/x')).toBe(true);
    expect(isAbsolutePath('unix', 'x')).toBe(false);
  });

  it('resolves link targets against the link directory', () => {
    expect(resolveLinkTarget('unix', '/w/codex/auth.json', '/home/ada/.codex/auth.json')).toBe('/home/ada/.codex/auth.json');
    expect(resolveLinkTarget('unix', '/w/codex/auth.json', '../../home/ada/.codex/auth.json')).toBe('/home/ada/.codex/auth.json');
  });

  it('compares and nests paths', () => {
    expect(samePath('unix', '/a/b/', '/a/./b')).toBe(true);
    expect(samePath('unix', '/a/B', '/a/b')).toBe(false);
    expect(isWithin('unix', '/a', '/a/b/c')).toBe(true);
    expect(isWithin('unix', '/a', '/ab')).toBe(false);
  });

  it('normalizing is idempotent', () => {
    const segment = fc.constantFrom('a', 'b', '.', '..', '', 'c.d');
    fc.assert(
      fc.property(fc.array(segment), fc.boolean(), (segments, absolute) => {
        const path = (absolute ? '/' : '') + segments.join('/');
        const once = normalizePath('unix', path);
        return normalizePath('unix', once) === once;
      }),
    );
  });
});

describe('paths on Windows', () => {
  it('knows drives, UNC roots and both separators', () => {
    expect(platformOf('win32')).toBe('windows');
    expect(platformOf('darwin')).toBe('unix');
    expect(isAbsolutePath('windows', 'C:\\Users')).toBe(true);
    expect(isAbsolutePath('windows', 'C:/Users')).toBe(true);
    expect(isAbsolutePath('windows', '\\\\server\\share\\x')).toBe(true);
    expect(isAbsolutePath('windows', 'C:Users')).toBe(false);
    expect(joinPath('windows', 'C:/Users/ada', '.codex', 'auth.json')).toBe('C:\\Users\\ada\\.codex\\auth.json');
    expect(normalizePath('windows', '\\\\server\\share\\a\\..\\..')).toBe('\\\\server\\share\\');
    expect(parentOf('windows', 'C:\\')).toBe('C:\\');
    expect(samePath('windows', 'C:\\Users\\ADA', 'c:/users/ada')).toBe(true);
  });
});
