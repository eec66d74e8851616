import { describe, expect, it } from 'vitest';
import { linkNativeAuth } from '../src/index.js';
import { apiKeyAuthJson } from '../src/testing.js';
import { MemoryFileSystem } from '@wework/ports/testing';
import { leftOf, rightOf, testLayout } from './support.js';

const layout = testLayout();
const native = apiKeyAuthJson('sk-native');

const withNative = (): MemoryFileSystem => new MemoryFileSystem().addDirectory(layout.home, 0o700).addFile(layout.nativeAuthFile, native, 0o600);

describe('linkNativeAuth on Unix', () => {
  it('links the native auth.json into the Wework home without writing the native home', async () => {
    const fs = withNative();
    const before = fs.tree(layout.nativeHome);
    expect(await rightOf(linkNativeAuth(fs, layout))).toEqual({ _tag: 'Linked', replacedStaleLink: false });
    expect(fs.entryAt(layout.authFile)).toEqual({ kind: 'symlink', target: layout.nativeAuthFile });
    expect(fs.textAt(layout.authFile)).toBe(native);
    expect(fs.tree(layout.nativeHome)).toEqual(before);
    expect(await rightOf(linkNativeAuth(fs, layout))).toEqual({ _tag: 'AlreadyLinked', target: layout.nativeAuthFile });
  });

  it('removes and recreates a stale link', async () => {
    const fs = withNative().addSymlink('/old/place/auth.json', layout.authFile);
    expect(await rightOf(linkNativeAuth(fs, layout))).toEqual({ _tag: 'Linked', replacedStaleLink: true });
    expect(fs.entryAt(layout.authFile)).toEqual({ kind: 'symlink', target: layout.nativeAuthFile });
  });

  it('removes a stale link when there is nothing to link to', async () => {
    const fs = new MemoryFileSystem().addDirectory(layout.home).addSymlink(layout.nativeAuthFile, layout.authFile);
    expect(await rightOf(linkNativeAuth(fs, layout))).toEqual({ _tag: 'NoNativeAuth', removedStaleLink: true });
    expect(fs.entryAt(layout.authFile)).toBeUndefined();
  });

  it('keeps a sign-in made in Wework and a live link elsewhere', async () => {
    const own = withNative().addFile(layout.authFile, apiKeyAuthJson('sk-wework'), 0o600);
    expect(await rightOf(linkNativeAuth(own, layout))).toEqual({ _tag: 'OwnAuth' });
    expect(own.textAt(layout.authFile)).toBe(apiKeyAuthJson('sk-wework'));
    const elsewhere = withNative().addFile('/vault/auth.json', 'x').addSymlink('/vault/auth.json', layout.authFile);
    expect(await rightOf(linkNativeAuth(elsewhere, layout))).toEqual({ _tag: 'AlreadyLinked', target: '/vault/auth.json' });
  });

  it('reports a home without native auth and an occupied auth path', async () => {
    expect(await rightOf(linkNativeAuth(new MemoryFileSystem().addDirectory(layout.home), layout))).toEqual({ _tag: 'NoNativeAuth', removedStaleLink: false });
    const occupied = withNative().addDirectory(layout.authFile);
    expect(await leftOf(linkNativeAuth(occupied, layout))).toEqual({ _tag: 'AuthPathOccupied', path: layout.authFile });
  });
});

describe('linkNativeAuth on Windows', () => {
  it('copies the native auth.json', async () => {
    const windows = testLayout('windows');
    const fs = new MemoryFileSystem('windows').addDirectory(windows.home).addFile(windows.nativeAuthFile, native, 0o666);
    expect(await rightOf(linkNativeAuth(fs, windows))).toEqual({ _tag: 'Copied' });
    expect(fs.entryAt(windows.authFile)).toMatchObject({ kind: 'file' });
    expect(fs.textAt(windows.authFile)).toBe(native);
    expect(await rightOf(linkNativeAuth(fs, windows))).toEqual({ _tag: 'OwnAuth' });
  });
});
