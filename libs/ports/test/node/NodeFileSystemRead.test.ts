import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_READ_MAX_BYTES } from '../../src/FileSystemPort.js';
import { nodeFileSystem } from '../../src/node/index.js';
import { leftOf, rightOf } from '../../src/testing.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'port-read-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const fs = nodeFileSystem({ durability: 'none' });

describe('the Node port: readFile is bounded and never waits for a writer', () => {
  it('returns the whole file when it fits its bound, and refuses a longer one with EFBIG', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 9000 }), fc.nat({ max: 9100 }), fc.boolean(), async (content, maxBytes, followSymlink) => {
        const path = join(work, `bounded-${n++}`);
        await writeFile(path, content);
        const read = await fs.readFile(path, { followSymlink, maxBytes })();
        if (content.length <= maxBytes) expect(read).toEqual({ _tag: 'Right', right: content });
        else expect(read).toMatchObject({ _tag: 'Left', left: { _tag: 'FileSystemError', operation: 'readFile', code: 'EFBIG' } });
      }),
      { numRuns: 60 },
    );
  });

  it('bounds a read the caller gave no bound to at 16 MiB', async () => {
    const path = join(work, 'large');
    await writeFile(path, new Uint8Array(DEFAULT_READ_MAX_BYTES + 1));
    expect(await leftOf(fs.readFile(path, { followSymlink: false }))).toMatchObject({ code: 'EFBIG' });
    const fits = join(work, 'fits');
    await writeFile(fits, new Uint8Array(DEFAULT_READ_MAX_BYTES));
    expect((await rightOf(fs.readFile(fits, { followSymlink: false }))).length).toBe(DEFAULT_READ_MAX_BYTES);
  });

  it('refuses a named pipe at once (through a followed link too), a device and a directory', async () => {
    const pipe = join(work, 'auth.json');
    execFileSync('mkfifo', [pipe]);
    // A plain open would hold one of libuv's pool threads here until something wrote to the pipe.
    expect(await leftOf(fs.readFile(pipe, { followSymlink: false }))).toMatchObject({ code: 'EINVAL' });
    expect(await leftOf(fs.readFile(pipe, { followSymlink: true }))).toMatchObject({ code: 'EINVAL' });
    expect(await leftOf(fs.readFile('/dev/zero', { followSymlink: true }))).toMatchObject({ code: 'EINVAL' });
    const directory = join(work, 'folder');
    await mkdir(directory);
    expect(await leftOf(fs.readFile(directory, { followSymlink: true }))).toMatchObject({ code: 'EISDIR' });
    expect(await leftOf(fs.readFile(join(work, 'missing'), { followSymlink: true }))).toMatchObject({ code: 'ENOENT' });
  });

  it('copyFile refuses a named pipe as its source instead of waiting for a writer, and creates nothing', async () => {
    const pipe = join(work, 'package-file');
    execFileSync('mkfifo', [pipe]);
    const to = join(work, 'copied');
    expect(await leftOf(fs.copyFile(pipe, to, 0o644))).toMatchObject({ operation: 'copyFile', code: 'EINVAL' });
    await expect(readFile(to)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
