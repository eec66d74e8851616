import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_CHUNK_BYTES, MAX_HEADER_BYTES, readHeader } from '../src/node/HeaderRead.js';
import { measureImage } from '../src/node/index.js';
import { orientedJpeg, solid } from './images.js';

let work: string;

/** A JPEG with `count` APP2 segments of `size` payload bytes each before its frame header. */
const withPadding = (jpeg: Buffer, count: number, size: number): Buffer => {
  const segment = Buffer.alloc(4 + size, 0x20);
  segment.writeUInt16BE(0xffe2, 0);
  segment.writeUInt16BE(size + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: count }, () => segment), jpeg.subarray(2)]);
};

const sharpMeasure = async (path: string, bytes: number): Promise<unknown> => {
  const m = await sharp(path, { limitInputPixels: false }).metadata();
  return { format: m.format, width: m.width, height: m.height, orientation: m.orientation, bytes };
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'image-header-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('readHeader and measureImage', () => {
  it('read a header that lies past the first chunk, up to the bound', async () => {
    const jpeg = withPadding(await orientedJpeg(300, 200, 6), 2, 60_000);
    expect(jpeg.length).toBeGreaterThan(FIRST_CHUNK_BYTES);
    const path = join(work, 'big-header.jpg');
    await writeFile(path, jpeg);
    const read = await readHeader(path);
    expect(read).toEqual({ _tag: 'Read', bytes: jpeg.length, header: E.right({ format: 'jpeg', width: 300, height: 200, orientation: 6 }) });
    expect(await measureImage(path)).toEqual(E.right(await sharpMeasure(path, jpeg.length)));
  });

  it('fall back to sharp when the header lies past the bound', async () => {
    const jpeg = withPadding(await orientedJpeg(300, 200, 3), 20, 60_000);
    expect(jpeg.length).toBeGreaterThan(MAX_HEADER_BYTES);
    const path = join(work, 'huge-header.jpg');
    await writeFile(path, jpeg);
    const read = await readHeader(path);
    expect(read).toMatchObject({ _tag: 'Read', header: E.left({ _tag: 'Incomplete', format: 'jpeg' }) });
    expect(await measureImage(path)).toEqual(E.right({ format: 'jpeg', width: 300, height: 200, orientation: 3, bytes: jpeg.length }));
  });

  it('measure other formats with sharp, as before', async () => {
    const tiff = await solid(40, 30).tiff().toBuffer();
    const path = join(work, 'scan.tiff');
    await writeFile(path, tiff);
    expect(await readHeader(path)).toMatchObject({ _tag: 'Read', header: E.left({ _tag: 'Unrecognized' }) });
    expect(await measureImage(path)).toEqual(E.right(await sharpMeasure(path, tiff.length)));
    expect(await measureImage(path)).toMatchObject(E.right({ format: 'tiff', width: 40, height: 30 }));
  });

  it('agree with sharp for every format the parser reads', async () => {
    const images: Array<[string, Buffer]> = [
      ['a.jpg', await orientedJpeg(1000, 700, 8)],
      ['b.png', await solid(640, 481).png().toBuffer()],
      ['c.webp', await solid(333, 222).webp().toBuffer()],
      ['d.gif', await solid(17, 500).gif().toBuffer()],
    ];
    for (const [name, data] of images) {
      const path = join(work, name);
      await writeFile(path, data);
      expect((await readHeader(path)) as { header: unknown }).toMatchObject({ _tag: 'Read', header: { _tag: 'Right' } });
      expect(await measureImage(path)).toEqual(E.right(await sharpMeasure(path, data.length)));
    }
  });

  it('tell a missing path and a directory apart from a file', async () => {
    expect(await readHeader(join(work, 'missing.png'))).toEqual({ _tag: 'Unopened' });
    const directory = join(work, 'folder.png');
    await mkdir(directory);
    expect(await readHeader(directory)).toEqual({ _tag: 'NotAFile' });
  });

  it('answer a named pipe nobody writes to as not a file, without waiting for a writer', async () => {
    const pipe = join(work, 'pipe.png');
    execFileSync('mkfifo', [pipe]);
    // Opened blocking, the pipe would hold a pool thread (and this test) until a writer came.
    expect(await readHeader(pipe)).toEqual({ _tag: 'NotAFile' });
    expect(await measureImage(pipe)).toEqual(E.left({ _tag: 'NotFound', path: pipe }));
  });

  it('read a file smaller than the first chunk whole, and an empty one as unrecognized', async () => {
    const png = await solid(3, 2).png().toBuffer();
    expect(png.length).toBeLessThan(FIRST_CHUNK_BYTES);
    const small = join(work, 'small.png');
    await writeFile(small, png);
    expect(await readHeader(small)).toEqual({ _tag: 'Read', bytes: png.length, header: E.right({ format: 'png', width: 3, height: 2, orientation: undefined }) });
    const empty = join(work, 'empty.png');
    await writeFile(empty, '');
    expect(await readHeader(empty)).toEqual({ _tag: 'Read', bytes: 0, header: E.left({ _tag: 'Unrecognized' }) });
  });
});
