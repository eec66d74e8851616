import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseImageHeader, type ParsedHeader } from '../src/internal/ImageHeader.js';

/** A small image with some structure (so encoders do not take shortcuts), of the given stored size. */
const base = (width: number, height: number, alpha: boolean): Sharp =>
  sharp({ create: { width, height, channels: alpha ? 4 : 3, background: alpha ? { r: 200, g: 60, b: 20, alpha: 0.5 } : '#3a7bd5', noise: { type: 'gaussian', mean: 120, sigma: 30 } } });

type Encoding = 'jpeg' | 'jpeg-progressive' | 'png' | 'png-interlaced' | 'png-palette' | 'webp-lossy' | 'webp-lossless' | 'webp-alpha' | 'gif';
const ENCODINGS: ReadonlyArray<Encoding> = ['jpeg', 'jpeg-progressive', 'png', 'png-interlaced', 'png-palette', 'webp-lossy', 'webp-lossless', 'webp-alpha', 'gif'];

const encode = (image: Sharp, encoding: Encoding): Sharp => {
  switch (encoding) {
    case 'jpeg':
      return image.jpeg();
    case 'jpeg-progressive':
      return image.jpeg({ progressive: true });
    case 'png':
      return image.png();
    case 'png-interlaced':
      return image.png({ progressive: true });
    case 'png-palette':
      return image.png({ palette: true });
    case 'webp-lossy':
    case 'webp-alpha':
      return image.webp({ quality: 60 });
    case 'webp-lossless':
      return image.webp({ lossless: true });
    case 'gif':
      return image.gif();
  }
};

const generate = async (encoding: Encoding, width: number, height: number, orientation?: number): Promise<Buffer> => {
  const image = encode(base(width, height, encoding === 'webp-alpha'), encoding);
  return (orientation === undefined ? image : image.withMetadata({ orientation })).toBuffer();
};

/** What sharp's `metadata()` says, in the parser's terms. */
const sharpHeader = async (bytes: Buffer): Promise<ParsedHeader> => {
  const m = await sharp(bytes, { limitInputPixels: false }).metadata();
  return { format: m.format as ParsedHeader['format'], width: m.width, height: m.height, orientation: m.orientation };
};

/** A JPEG with its EXIF APP1 replaced by one whose TIFF data is big-endian (`MM`) and holds `orientation`. */
const withBigEndianExif = (jpeg: Buffer, orientation: number): Buffer => {
  const tiff = Buffer.alloc(8 + 2 + 2 * 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(2, 8);
  // XResolution-like unrelated SHORT tag first, then Orientation.
  tiff.writeUInt16BE(0x0128, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(2, 18);
  tiff.writeUInt16BE(0x0112, 22);
  tiff.writeUInt16BE(3, 24);
  tiff.writeUInt32BE(1, 26);
  tiff.writeUInt16BE(orientation, 30);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
};

const edge = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 400 }));
const runs = { numRuns: 25 };

describe('parseImageHeader', () => {
  it('never throws on arbitrary bytes, with or without a known signature', () => {
    const signatures = [[], [0xff, 0xd8, 0xff], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [...Buffer.from('RIFF\x10\0\0\0WEBPVP8X', 'latin1')], [...Buffer.from('GIF89a', 'latin1')]];
    fc.assert(
      fc.property(fc.constantFrom(...signatures), fc.uint8Array({ maxLength: 300 }), (signature, rest) => {
        const result = parseImageHeader(Uint8Array.from([...signature, ...rest]));
        expect(['Left', 'Right']).toContain(result._tag);
        if (E.isRight(result)) {
          expect(result.right.width).toBeGreaterThan(0);
          expect(result.right.height).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with sharp for generated JPEG, PNG, WebP and GIF images of many sizes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENCODINGS), edge, edge, async (encoding, width, height) => {
        const bytes = await generate(encoding, width, height);
        const parsed = parseImageHeader(bytes);
        expect(parsed).toEqual(E.right(await sharpHeader(bytes)));
        expect(parsed).toEqual(E.right({ format: encoding.split('-')[0], width, height, orientation: undefined }));
      }),
      runs,
    );
  });

  it('reads the EXIF orientation of JPEGs in little-endian (as sharp writes it) and big-endian byte order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), edge, edge, fc.boolean(), async (orientation, width, height, bigEndian) => {
        const written = await generate('jpeg', width, height, orientation);
        const bytes = bigEndian ? withBigEndianExif(await generate('jpeg', width, height), orientation) : written;
        const parsed = parseImageHeader(bytes);
        expect(parsed).toEqual(E.right(await sharpHeader(bytes)));
        expect(parsed).toEqual(E.right({ format: 'jpeg', width, height, orientation }));
      }),
      runs,
    );
  });

  it('leaves PNG and WebP files with EXIF data to the decoder, or agrees with it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Encoding>('png', 'webp-lossy', 'webp-lossless'), fc.integer({ min: 1, max: 8 }), edge, edge, async (encoding, orientation, width, height) => {
        const bytes = await generate(encoding, width, height, orientation);
        const parsed = parseImageHeader(bytes);
        if (E.isRight(parsed)) expect(parsed.right).toEqual(await sharpHeader(bytes));
        else expect(parsed.left._tag).toBe('Unsupported');
      }),
      { numRuns: 12 },
    );
  });

  it('a prefix of an image is Incomplete or already gives the full answer, never a different one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENCODINGS), edge, edge, fc.double({ min: 0, max: 1, noNaN: true }), async (encoding, width, height, fraction) => {
        const bytes = await generate(encoding, width, height);
        const full = parseImageHeader(bytes);
        const prefix = parseImageHeader(bytes.subarray(0, Math.floor(bytes.length * fraction)));
        if (E.isRight(prefix)) expect(prefix).toEqual(full);
        else expect(['Incomplete', 'Unrecognized']).toContain(prefix.left._tag);
      }),
      runs,
    );
  });

  it('does not recognise other formats or non-images', async () => {
    const tiff = await base(20, 10, false).tiff().toBuffer();
    expect(parseImageHeader(tiff)).toEqual(E.left({ _tag: 'Unrecognized' }));
    expect(parseImageHeader(Buffer.from('this is a text file, not a picture\n'))).toEqual(E.left({ _tag: 'Unrecognized' }));
    expect(parseImageHeader(new Uint8Array(0))).toEqual(E.left({ _tag: 'Unrecognized' }));
  });

  it('leaves lossless-JPEG-like and hierarchical frames, bad PNG CRCs and odd GIF screens to the decoder', async () => {
    const jpeg = await generate('jpeg', 30, 20);
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const hierarchical = Buffer.from(jpeg);
    hierarchical[sof + 1] = 0xc5;
    expect(parseImageHeader(hierarchical)).toMatchObject(E.left({ _tag: 'Unsupported', format: 'jpeg' }));

    const png = Buffer.from(await generate('png', 30, 20));
    png[29] = (png[29] ?? 0) ^ 0xff; // IHDR CRC
    expect(parseImageHeader(png)).toMatchObject(E.left({ _tag: 'Unsupported', format: 'png' }));

    const gif = Buffer.from(await generate('gif', 30, 20));
    gif.writeUInt16LE(640, 6);
    gif.writeUInt16LE(480, 8);
    expect(parseImageHeader(gif)).toMatchObject(E.left({ _tag: 'Unsupported', format: 'gif' }));
  });
});
