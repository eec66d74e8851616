import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSmallFile } from '../../src/node/index.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'small-file-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('readSmallFile', () => {
  it('reads a file whole, or its first maxBytes and says it is not complete', async () => {
    const path = join(work, 'plugin.json');
    await writeFile(path, '{"name":"notes"}');
    expect(await readSmallFile(path, { maxBytes: 16 })).toEqual(E.right({ bytes: new TextEncoder().encode('{"name":"notes"}'), complete: true }));
    const cut = await readSmallFile(path, { maxBytes: 15 });
    expect(E.isRight(cut) && { text: text(cut.right.bytes), complete: cut.right.complete }).toEqual({ text: '{"name":"notes"', complete: false });
  });

  it('returns exactly min(size, maxBytes) bytes, complete exactly when the file fits', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.nat({ max: 320 }), async (content, maxBytes) => {
        const path = join(work, `property-${n++}`);
        await writeFile(path, content);
        const read = await readSmallFile(path, { maxBytes });
        expect(read).toEqual(E.right({ bytes: content.subarray(0, Math.min(content.length, maxBytes)), complete: content.length <= maxBytes }));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a named pipe at once instead of waiting for a writer', async () => {
    const pipe = join(work, 'pipe.json');
    execFileSync('mkfifo', [pipe]);
    // A plain open would wait here until something opened the pipe for writing.
    expect(await readSmallFile(pipe, { maxBytes: 1024, followLinks: true })).toEqual(E.left({ _tag: 'NotAFile' }));
  });

  it('refuses a directory and a device, and tells a missing path apart', async () => {
    const directory = join(work, 'folder.json');
    await mkdir(directory);
    expect(await readSmallFile(directory, { maxBytes: 1024 })).toEqual(E.left({ _tag: 'NotAFile' }));
    expect(await readSmallFile('/dev/zero', { maxBytes: 1024, followLinks: true })).toEqual(E.left({ _tag: 'NotAFile' }));
    expect(await readSmallFile(join(work, 'missing.json'), { maxBytes: 1024 })).toEqual(E.left({ _tag: 'Missing' }));
    expect(await readSmallFile(join(work, 'missing-dir', 'plugin.json'), { maxBytes: 1024 })).toEqual(E.left({ _tag: 'Missing' }));
  });

  it('follows a link only when asked, and never to a pipe', async () => {
    const target = join(work, 'target.json');
    await writeFile(target, '{}');
    const link = join(work, 'link.json');
    await symlink(target, link);
    expect(await readSmallFile(link, { maxBytes: 1024 })).toEqual(E.left({ _tag: 'NotAFile' }));
    expect(await readSmallFile(link, { maxBytes: 1024, followLinks: true })).toEqual(E.right({ bytes: new TextEncoder().encode('{}'), complete: true }));
    const pipe = join(work, 'linked-pipe');
    execFileSync('mkfifo', [pipe]);
    const pipeLink = join(work, 'pipe-link.json');
    await symlink(pipe, pipeLink);
    expect(await readSmallFile(pipeLink, { maxBytes: 1024, followLinks: true })).toEqual(E.left({ _tag: 'NotAFile' }));
  });

  it('answers a link that loops as a link when links are not followed, and as unreadable when they are', async () => {
    const loop = join(work, 'loop.json');
    await symlink(loop, loop);
    expect(await readSmallFile(loop, { maxBytes: 1024 })).toEqual(E.left({ _tag: 'NotAFile' }));
    expect(await readSmallFile(loop, { maxBytes: 1024, followLinks: true })).toEqual(E.left({ _tag: 'Unreadable', code: 'ELOOP' }));
  });
});
