import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImageError, PreparedImage } from '../src/index.js';
import { createTurnImageStore, type TurnImages } from '../src/node/index.js';
import { orientedJpeg, pngDeclaring, sha256, solid } from './images.js';

let work: string;
let inputs: string;
const files: Record<string, string> = {};
const turns: TurnImages[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'image-preprocess-'));
  inputs = join(work, 'attachments');
  await mkdir(inputs);
  const write = async (name: string, data: Buffer | string): Promise<void> => {
    files[name] = join(inputs, name);
    await writeFile(files[name], data);
  };
  const bigJpeg = await solid(4000, 3000).jpeg().toBuffer();
  await write('photo.jpg', bigJpeg);
  await write('panorama.png', await solid(6000, 800).png().toBuffer());
  await write('tall.webp', await solid(800, 6000).webp().toBuffer());
  await write('small.png', await solid(1000, 700).png().toBuffer());
  await write('rotated.jpg', await orientedJpeg(3000, 4000, 6));
  await write('empty.png', Buffer.alloc(0));
  await write('truncated.jpg', bigJpeg.subarray(0, Math.floor(bigJpeg.length / 2)));
  await write('header-only.jpg', bigJpeg.subarray(0, 10));
  await write('notes.png', 'this is a text file, not a picture\n');
  await write('bomb.png', pngDeclaring(100_000, 100_000));
});

afterEach(async () => {
  await Promise.all(turns.splice(0).map((turn) => turn.end()));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const newTurn = (root = join(work, 'model-inputs'), maxPixels?: number): TurnImages => {
  const turn = createTurnImageStore(maxPixels === undefined ? { root } : { root, maxPixels }).beginTurn('turn-1');
  turns.push(turn);
  return turn;
};

const prepared = (result: E.Either<ImageError, PreparedImage>): PreparedImage => {
  if (E.isLeft(result)) throw new Error(`unexpected ${JSON.stringify(result.left)}`);
  return result.right;
};

describe('TurnImages.prepare', () => {
  it('reduces a 4000×3000 JPEG to 960×720 JPEG in the turn directory, original bytes unchanged', async () => {
    const before = await sha256(files['photo.jpg']!);
    const turn = newTurn();
    const image = prepared(await turn.prepare(files['photo.jpg']!, 'nonOfficial'));
    expect(image).toMatchObject({ _tag: 'Resized', width: 960, height: 720, format: 'jpeg', modelCategory: 'nonOfficial' });
    expect(image.path.startsWith(turn.directory)).toBe(true);
    expect(image.bytes).toBe((await stat(image.path)).size);
    const written = await sharp(image.path).metadata();
    expect([written.format, written.width, written.height]).toEqual(['jpeg', 960, 720]);
    expect(await sha256(files['photo.jpg']!)).toBe(before);
  });

  it('reduces a 6000×800 PNG to 5400×720 PNG and an 800×6000 WebP to 720×5400 WebP', async () => {
    const turn = newTurn();
    const panorama = prepared(await turn.prepare(files['panorama.png']!, 'nonOfficial'));
    expect(panorama).toMatchObject({ _tag: 'Resized', width: 5400, height: 720, format: 'png' });
    expect(await sharp(panorama.path).metadata()).toMatchObject({ format: 'png', width: 5400, height: 720 });
    const tall = prepared(await turn.prepare(files['tall.webp']!, 'nonOfficial'));
    expect(await sharp(tall.path).metadata()).toMatchObject({ format: 'webp', width: 720, height: 5400 });
  });

  it('passes a 1000×700 image through: same path, bytes unchanged, nothing written', async () => {
    const before = await sha256(files['small.png']!);
    const turn = newTurn();
    const image = prepared(await turn.prepare(files['small.png']!, 'nonOfficial'));
    expect(image).toEqual({ _tag: 'Original', path: files['small.png'], width: 1000, height: 700, format: 'png', bytes: (await stat(files['small.png']!)).size, modelCategory: 'nonOfficial' });
    expect(await sha256(files['small.png']!)).toBe(before);
    expect(existsSync(turn.directory)).toBe(false);
  });

  it('gives official models the original, however large', async () => {
    const before = await sha256(files['photo.jpg']!);
    const turn = newTurn();
    const image = prepared(await turn.prepare(files['photo.jpg']!, 'official'));
    expect(image).toMatchObject({ _tag: 'Original', path: files['photo.jpg'], width: 4000, height: 3000 });
    expect(await sha256(files['photo.jpg']!)).toBe(before);
    expect(existsSync(turn.directory)).toBe(false);
  });

  it('applies EXIF orientation 6 of a stored 3000×4000 JPEG: 960×720 upright, tag removed', async () => {
    const turn = newTurn();
    const image = prepared(await turn.prepare(files['rotated.jpg']!, 'nonOfficial'));
    expect(image).toMatchObject({ _tag: 'Resized', width: 960, height: 720 });
    const meta = await sharp(image.path).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([960, 720, undefined]);
    // Orientation 6 turns the stored image 90° clockwise: the stored top (red) becomes the right half.
    const { data, info } = await sharp(image.path).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number): number[] => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const [rightR, , rightB] = pixel(900, 360);
    const [leftR, , leftB] = pixel(60, 360);
    expect(rightR! > 200 && rightB! < 60).toBe(true);
    expect(leftB! > 200 && leftR! < 60).toBe(true);
  });

  it.each([
    ['missing.png', { _tag: 'NotFound' }],
    ['empty.png', { _tag: 'Empty' }],
    ['truncated.jpg', { _tag: 'Truncated' }],
    ['header-only.jpg', { _tag: 'Truncated' }],
    ['notes.png', { _tag: 'UnsupportedFormat', format: null }],
    ['bomb.png', { _tag: 'TooManyPixels', width: 100_000, height: 100_000, pixels: 10_000_000_000, limit: 100_000_000 }],
  ])('%s → a typed error, never a throw', async (name, expected) => {
    const path = files[name] ?? join(inputs, name);
    const before = existsSync(path) ? await sha256(path) : null;
    const turn = newTurn();
    const result = await turn.prepare(path, 'nonOfficial');
    expect(result).toEqual(E.left(expect.objectContaining({ ...expected, path })));
    if (before !== null) expect(await sha256(path)).toBe(before);
    await turn.end();
    expect(existsSync(turn.directory)).toBe(false);
  });

  it('a directory is NotFound', async () => {
    expect(await newTurn().prepare(inputs, 'official')).toEqual(E.left({ _tag: 'NotFound', path: inputs }));
  });

  it('applies a configured pixel limit', async () => {
    const result = await newTurn(join(work, 'model-inputs'), 1_000_000).prepare(files['photo.jpg']!, 'nonOfficial');
    expect(result).toEqual(E.left({ _tag: 'TooManyPixels', path: files['photo.jpg'], width: 4000, height: 3000, pixels: 12_000_000, limit: 1_000_000 }));
  });

  it('WriteFailed when the root cannot be created', async () => {
    const blocker = join(work, 'a-file');
    await writeFile(blocker, 'x');
    const result = await newTurn(join(blocker, 'root')).prepare(files['photo.jpg']!, 'nonOfficial');
    expect(result).toEqual(E.left(expect.objectContaining({ _tag: 'WriteFailed' })));
  });
});

describe('turn lifetime', () => {
  it('end() removes every model-input file of the turn; later prepare calls are refused', async () => {
    const turn = newTurn();
    const a = prepared(await turn.prepare(files['photo.jpg']!, 'nonOfficial'));
    const b = prepared(await turn.prepare(files['photo.jpg']!, 'nonOfficial'));
    expect(a.path).not.toBe(b.path);
    expect(await readdir(turn.directory)).toHaveLength(2);
    expect(await turn.end()).toEqual(E.right(undefined));
    expect(existsSync(turn.directory)).toBe(false);
    expect(existsSync(files['photo.jpg']!)).toBe(true);
    expect(await turn.end()).toEqual(E.right(undefined));
    expect(await turn.prepare(files['photo.jpg']!, 'nonOfficial')).toEqual(E.left({ _tag: 'TurnEnded', turnId: 'turn-1' }));
  });

  it('end() during a prepare (an interrupted turn) waits for it and leaves nothing behind', async () => {
    const turn = newTurn();
    const pending = turn.prepare(files['panorama.png']!, 'nonOfficial');
    const ended = await turn.end();
    expect(ended).toEqual(E.right(undefined));
    expect(E.isRight(await pending)).toBe(true);
    expect(existsSync(turn.directory)).toBe(false);
  });

  it('turns with the same id get separate directories; untrusted ids stay inside the root', async () => {
    const root = join(work, 'ids');
    const store = createTurnImageStore({ root });
    const first = store.beginTurn('../../etc');
    const second = store.beginTurn('../../etc');
    turns.push(first, second);
    expect(first.directory).not.toBe(second.directory);
    for (const turn of [first, second]) expect(turn.directory.startsWith(join(root, 'turn-'))).toBe(true);
  });

  it('sweepLeftovers removes the turn directories of a previous run and nothing else', async () => {
    const root = join(work, 'sweep');
    const crashed = createTurnImageStore({ root });
    const left = crashed.beginTurn('crashed');
    prepared(await left.prepare(files['photo.jpg']!, 'nonOfficial'));
    await writeFile(join(root, 'keep.txt'), 'not ours');
    const restarted = createTurnImageStore({ root });
    const swept = await restarted.sweepLeftovers();
    expect(E.isRight(swept) && swept.right.length).toBe(1);
    expect(await readdir(root)).toEqual(['keep.txt']);
    expect(await createTurnImageStore({ root: join(work, 'never-created') }).sweepLeftovers()).toEqual(E.right([]));
  });

  // The superuser reads every directory, so permissions cannot make the sweep fail there.
  it.skipIf(process.getuid?.() === 0)('sweepLeftovers reports an unreadable root as a value', async () => {
    const root = join(work, 'locked');
    await mkdir(root);
    await chmod(root, 0o000);
    try {
      expect(await createTurnImageStore({ root }).sweepLeftovers()).toEqual(E.left(expect.objectContaining({ _tag: 'RemoveFailed', path: root })));
    } finally {
      await chmod(root, 0o700);
    }
  });
});
