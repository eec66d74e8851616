import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_MAX_BYTES } from '../src/FileSystemPort.js';
import { MemoryFileSystem } from '../src/testing.js';
import { leftOf, rightOf } from '../src/testing.js';

describe('the in-memory file system behaves like POSIX where the library relies on it', () => {
  it('follows links in directories, and the last one only when asked', async () => {
    const fs = new MemoryFileSystem().addFile('/real/dir/file', 'x').addSymlink('/real/dir', '/alias').addSymlink('/alias/file', '/link');
    expect(await rightOf(fs.stat('/link'))).toEqual({ kind: 'file', mode: 0o644 });
    expect(await rightOf(fs.lstat('/link'))).toEqual({ kind: 'symlink', mode: 0o777 });
    expect(await rightOf(fs.realPath('/link'))).toBe('/real/dir/file');
    expect(await leftOf(fs.readFile('/link', { followSymlink: false }))).toMatchObject({ code: 'ELOOP' });
    expect(new TextDecoder().decode(await rightOf(fs.readFile('/alias/file', { followSymlink: false })))).toBe('x');
  });

  it('bounds a read as the Node port does: EFBIG beyond maxBytes, 16 MiB by default', async () => {
    const fs = new MemoryFileSystem().addFile('/state.json', '0123456789');
    expect(await rightOf(fs.readFile('/state.json', { followSymlink: false, maxBytes: 10 }))).toHaveLength(10);
    expect(await leftOf(fs.readFile('/state.json', { followSymlink: false, maxBytes: 9 }))).toMatchObject({ operation: 'readFile', code: 'EFBIG' });
    fs.addFile('/large', new Uint8Array(DEFAULT_READ_MAX_BYTES + 1));
    expect(await leftOf(fs.readFile('/large', { followSymlink: true }))).toMatchObject({ code: 'EFBIG' });
  });

  it('reports link loops and dangling links', async () => {
    const fs = new MemoryFileSystem().addSymlink('/b', '/a').addSymlink('/a', '/b').addSymlink('/a/x', '/c').addSymlink('/missing', '/d');
    expect(await leftOf(fs.stat('/a'))).toMatchObject({ code: 'ELOOP' });
    expect(await leftOf(fs.realPath('/c'))).toMatchObject({ code: 'ELOOP' });
    expect(await rightOf(fs.stat('/d'))).toBeNull();
    expect(await leftOf(fs.realPath('/d'))).toMatchObject({ code: 'ENOENT' });
  });

  it('renames over a link without following it', async () => {
    const fs = new MemoryFileSystem().addFile('/outside', 'keep').addSymlink('/outside', '/dir/target').addFile('/dir/new', 'new');
    await rightOf(fs.rename('/dir/new', '/dir/target'));
    expect(fs.entryAt('/dir/target')).toMatchObject({ kind: 'file' });
    expect(fs.textAt('/outside')).toBe('keep');
  });

  it('renames a directory with everything below it, never into itself', async () => {
    const fs = new MemoryFileSystem().addFile('/a/stage/x/y.txt', 'y', 0o600).addSymlink('y.txt', '/a/stage/x/link').addDirectory('/a/stage/empty', 0o700);
    await rightOf(fs.rename('/a/stage', '/a/dest'));
    expect(fs.tree('/a').map(([path, entry]) => [path, entry.kind])).toEqual([
      ['/a', 'directory'],
      ['/a/dest', 'directory'],
      ['/a/dest/empty', 'directory'],
      ['/a/dest/x', 'directory'],
      ['/a/dest/x/link', 'symlink'],
      ['/a/dest/x/y.txt', 'file'],
    ]);
    expect(fs.textAt('/a/dest/x/link')).toBe('y');
    expect(fs.entryAt('/a/dest/empty')).toEqual({ kind: 'directory', mode: 0o700 });
    expect(await leftOf(fs.rename('/a/dest', '/a/dest/inner'))).toMatchObject({ code: 'EINVAL' });
    expect(fs.tree('/a/dest')).toHaveLength(5);
  });

  it('renames a directory beside a sibling whose name it prefixes, leaving the sibling', async () => {
    const fs = new MemoryFileSystem().addFile('/staging/w/bin/glab', 'x', 0o755).addFile('/staging/w-sibling', 'y').addDirectory('/tools/glab');
    await rightOf(fs.rename('/staging/w', '/tools/glab/1'));
    expect(fs.textAt('/tools/glab/1/bin/glab')).toBe('x');
    expect(fs.entryAt('/staging/w/bin/glab')).toBeUndefined();
    expect(fs.textAt('/staging/w-sibling')).toBe('y');
    expect(await leftOf(fs.rename('/tools/glab', '/tools/glab/1/inner'))).toMatchObject({ code: 'EINVAL' });
  });

  it('creates directories with the mode asked and fails on files in the way', async () => {
    const fs = new MemoryFileSystem().addFile('/f', 'x');
    await rightOf(fs.makeDirectory('/a/b/c', 0o700));
    expect(fs.entryAt('/a/b')).toEqual({ kind: 'directory', mode: 0o700 });
    expect(await leftOf(fs.makeDirectory('/f/g', 0o700))).toMatchObject({ code: 'ENOTDIR' });
    expect(await leftOf(fs.makeDirectory('/f', 0o700))).toMatchObject({ code: 'EEXIST' });
    expect(await rightOf(fs.listDirectory('/a'))).toEqual(['b']);
  });
});
