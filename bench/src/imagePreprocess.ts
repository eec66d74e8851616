/**
 * The cost of preparing image attachments for non-official models (`@wework/image-preprocess`),
 * each against a baseline measured in the same run, interleaved so both see the same machine
 * load: interleaved pairs, reported as the median of the per-pair ratios with its spread, batches
 * repeated until two agree within ±5 %.
 *
 * (a) `prepare` of a 4000×3000 JPEG (header read, plan, decode + orient + resize to 960×720,
 *     write into the turn directory) vs the bare sharp call on the same bytes already in memory,
 *     `sharp(buf).rotate().resize(960, 720).jpeg({ quality: 90 })` (goal ≤ 1.1×).
 * (b) the same `prepare` vs jimp (pure JavaScript) read + resize + JPEG encode (goal ≥ 20× faster).
 * (c) `prepare` of a 1000×700 JPEG, which only reads the header and passes the original through,
 *     vs a full decode + resize of that image with sharp (goal ≤ 0.02×).
 *
 * sharp's operation cache is off so repeated work is not served from memory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { Jimp } from 'jimp';
import sharp from 'sharp';
import { createTurnImageStore, type TurnImageStore } from '@wework/image-preprocess/node';
import { comparePaired, sidesLine, verdictLine, type Plan } from './stats.js';

const RESIZE_PLAN: Plan = { pairs: Number(process.env['BENCH_IMAGE_PAIRS'] ?? 10), warmup: 2, maxBatches: 4 };
const JIMP_PLAN: Plan = { pairs: Number(process.env['BENCH_IMAGE_JIMP_PAIRS'] ?? 3), warmup: 1, maxBatches: 3 };
const HEADER_PLAN: Plan = { pairs: Number(process.env['BENCH_IMAGE_HEADER_PAIRS'] ?? 30), warmup: 3, maxBatches: 4 };

/** Keeps results alive so that no work can be skipped. */
let sink = 0;

const time = async (op: () => Promise<void>): Promise<number> => {
  const t0 = performance.now();
  await op();
  return performance.now() - t0;
};

/** A photo-like image: noise does not compress away, so decoding costs what a photo costs. */
const photo = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(1.5)
    .jpeg({ quality: 90 })
    .toBuffer();

/** One `prepare` in its own turn; the turn's cleanup is not timed. */
const timedPrepare = async (store: TurnImageStore, path: string, expected: 'Original' | 'Resized'): Promise<number> => {
  const turn = store.beginTurn('bench');
  let tag = '';
  const ms = await time(async () => {
    const result = await turn.prepare(path, 'nonOfficial');
    if (E.isLeft(result)) throw new Error(`prepare failed: ${result.left._tag}`);
    tag = result.right._tag;
    sink += result.right.bytes;
  });
  await turn.end();
  if (tag !== expected) throw new Error(`expected ${expected}, got ${tag}`);
  return ms;
};

/** Runs the benchmark and returns the lines to print. */
export async function benchImagePreprocess(): Promise<string[]> {
  const previousCache = sharp.cache(false);
  const work = await mkdtemp(join(tmpdir(), 'wework-bench-images-'));
  try {
    const big = await photo(4000, 3000);
    const small = await photo(1000, 700);
    const bigPath = join(work, 'photo.jpg');
    const smallPath = join(work, 'small.jpg');
    await writeFile(bigPath, big);
    await writeFile(smallPath, small);
    const store = createTurnImageStore({ root: join(work, 'model-inputs') });

    const prepareBig = (): Promise<number> => timedPrepare(store, bigPath, 'Resized');
    const sharpDirect = (): Promise<number> =>
      time(async () => {
        sink += (await sharp(big).rotate().resize(960, 720).jpeg({ quality: 90 }).toBuffer()).length;
      });
    const jimpResize = (): Promise<number> =>
      time(async () => {
        const image = await Jimp.read(big);
        image.resize({ w: 960, h: 720 });
        sink += (await image.getBuffer('image/jpeg', { quality: 90 })).length;
      });
    const passThroughSmall = (): Promise<number> => timedPrepare(store, smallPath, 'Original');
    const decodeSmall = (): Promise<number> =>
      time(async () => {
        sink += (await sharp(small).rotate().resize(720, 504).jpeg({ quality: 90 }).toBuffer()).length;
      });

    const a = await comparePaired(prepareBig, sharpDirect, RESIZE_PLAN);
    // Pair = (jimp, prepare): the ratio is how many times faster prepare is.
    const b = await comparePaired(jimpResize, prepareBig, JIMP_PLAN);
    const c = await comparePaired(passThroughSmall, decodeSmall, HEADER_PLAN);
    return [
      `image preprocessing (sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}); JPEG 4000×3000 ${(big.length / 1e6).toFixed(2)} MB, 1000×700 ${(small.length / 1e3).toFixed(0)} kB`,
      verdictLine('(a) prepare 4000×3000 → 960×720 file / sharp(buf).rotate().resize().jpeg()', a, { atMost: 1.1 }),
      sidesLine('prepare', 'direct sharp', a),
      verdictLine('(b) speed-up of prepare over jimp read + resize + JPEG encode', b, { atLeast: 20 }, 1),
      sidesLine('jimp', 'prepare', b),
      verdictLine('(c) prepare 1000×700 header-only pass-through / sharp decode + resize', c, { atMost: 0.02 }, 4),
      sidesLine('pass-through', 'decode+resize', c),
      ...(sink === 0 ? ['  (no work was measured)'] : []),
    ];
  } finally {
    sharp.cache(previousCache.memory.max > 0 ? { memory: previousCache.memory.max, files: previousCache.files.max, items: previousCache.items.max } : false);
    await rm(work, { recursive: true, force: true });
  }
}
