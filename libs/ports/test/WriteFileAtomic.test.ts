import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { fileSystemError, writeFileAtomic, type FileSystemPort } from '../src/index.js';
import { leftOf, MemoryFileSystem, rightOf } from '../src/testing.js';

/** `fs` with every rename failing as `code`. */
const renameFailing = (fs: MemoryFileSystem, code: string): FileSystemPort =>
  new Proxy(fs, {
    get: (target, key) => {
      if (key === 'rename') return (_from: string, to: string) => async () => E.left(fileSystemError('rename', to, code));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

describe('writeFileAtomic', () => {
  it('leaves exactly the new bytes and mode at the path and nothing else in the directory', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }), fc.uint8Array({ maxLength: 64 }), fc.constantFrom(0o600, 0o644), async (before, after, mode) => {
        const fs = new MemoryFileSystem().addDirectory('/state');
        if (before !== undefined) fs.addFile('/state/receipts.json', before);
        await rightOf(writeFileAtomic(fs, '/state/receipts.json', after, mode));
        expect(await rightOf(fs.readFile('/state/receipts.json', { followSymlink: false }))).toEqual(after);
        expect(await rightOf(fs.stat('/state/receipts.json'))).toEqual({ kind: 'file', mode });
        expect(await rightOf(fs.listDirectory('/state'))).toEqual(['receipts.json']);
      }),
      { numRuns: 50 },
    );
  });

  it('replaces a symbolic link at the path instead of writing through it', async () => {
    const fs = new MemoryFileSystem().addFile('/elsewhere/secret', 'kept').addDirectory('/state').addSymlink('/elsewhere/secret', '/state/receipts.json');
    await rightOf(writeFileAtomic(fs, '/state/receipts.json', new TextEncoder().encode('new'), 0o600));
    expect(new TextDecoder().decode(await rightOf(fs.readFile('/elsewhere/secret', { followSymlink: false })))).toBe('kept');
    expect(await rightOf(fs.lstat('/state/receipts.json'))).toEqual({ kind: 'file', mode: 0o600 });
  });

  it('keeps the old file and removes its temporary file when the rename fails', async () => {
    const fs = new MemoryFileSystem().addFile('/state/receipts.json', 'old');
    expect(await leftOf(writeFileAtomic(renameFailing(fs, 'EXDEV'), '/state/receipts.json', new TextEncoder().encode('new'), 0o600))).toMatchObject({ operation: 'rename', code: 'EXDEV' });
    expect(new TextDecoder().decode(await rightOf(fs.readFile('/state/receipts.json', { followSymlink: false })))).toBe('old');
    expect(await rightOf(fs.listDirectory('/state'))).toEqual(['receipts.json']);
  });
});
