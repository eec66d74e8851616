/** Test images, generated with sharp, and a few deliberately broken files. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

/** A solid-colour image of the given stored size. */
export function solid(width: number, height: number, background = '#3a7bd5'): Sharp {
  return sharp({ create: { width, height, channels: 3, background } });
}

/** A stored `width` × `height` JPEG: top half red, bottom half blue, with an EXIF orientation. */
export async function orientedJpeg(width: number, height: number, orientation: number): Promise<Buffer> {
  const half = Math.floor(height / 2);
  const red = await solid(width, half, '#ff0000').png().toBuffer();
  return solid(width, height, '#0000ff')
    .composite([{ input: red, top: 0, left: 0 }])
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();
}

const crc32 = (bytes: Buffer): number => {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
};

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A tiny PNG whose header declares `width` × `height` pixels (a decompression bomb's header). */
export function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}

/** SHA-256 of a file's bytes. */
export async function sha256(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}
