/**
 * Reads one regular file out of an uncompressed tar archive (ustar, GNU long names, pax `path`).
 * Pure: bytes in, bytes or `undefined` out; never throws on malformed input.
 */

const BLOCK = 512;

const text = (bytes: Uint8Array): string => {
  let end = bytes.indexOf(0);
  if (end < 0) end = bytes.length;
  let out = '';
  for (const byte of bytes.subarray(0, end)) out += String.fromCharCode(byte);
  return out;
};

const utf8 = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: false }).decode(bytes);

const octal = (bytes: Uint8Array): number | undefined => {
  const digits = text(bytes).trim();
  if (!/^[0-7]+$/.test(digits)) return digits === '' ? 0 : undefined;
  return parseInt(digits, 8);
};

const normalize = (path: string): string => path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');

const paxPath = (bytes: Uint8Array): string | undefined => {
  for (const record of utf8(bytes).split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
};

/**
 * The content of the regular file at `path` (leading `./` ignored), or `undefined` when the archive
 * holds no such file or is malformed.
 */
export function readTarEntry(archive: Uint8Array, path: string): Uint8Array | undefined {
  const wanted = normalize(path);
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return undefined;
    const size = octal(header.subarray(124, 136));
    if (size === undefined) return undefined;
    const type = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > archive.length) return undefined;
    const data = archive.subarray(dataStart, dataEnd);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') {
      longName = text(data);
      continue;
    }
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    const prefix = text(header.subarray(345, 500));
    const name = longName ?? (prefix === '' ? text(header.subarray(0, 100)) : `${prefix}/${text(header.subarray(0, 100))}`);
    longName = undefined;
    if ((type === '0' || type === '\u0000') && normalize(name) === wanted) return data;
  }
  return undefined;
}

/** Builds a ustar archive of regular files (for tests and fixtures). */
export function writeTar(files: ReadonlyArray<{ readonly path: string; readonly content: Uint8Array; readonly mode?: number }>): Uint8Array {
  const blocks: Uint8Array[] = [];
  const put = (header: Uint8Array, at: number, value: string): void => {
    for (let index = 0; index < value.length; index++) header[at + index] = value.charCodeAt(index) & 0xff;
  };
  for (const file of files) {
    const header = new Uint8Array(BLOCK);
    put(header, 0, file.path.slice(0, 100));
    put(header, 100, `${(file.mode ?? 0o755).toString(8).padStart(7, '0')}\u0000`);
    put(header, 108, '0000000\u0000');
    put(header, 116, '0000000\u0000');
    put(header, 124, `${file.content.length.toString(8).padStart(11, '0')}\u0000`);
    put(header, 136, '00000000000\u0000');
    put(header, 148, '        ');
    put(header, 156, '0');
    put(header, 257, 'ustar\u000000');
    let sum = 0;
    for (const byte of header) sum += byte;
    put(header, 148, `${sum.toString(8).padStart(6, '0')}\u0000 `);
    blocks.push(header);
    const padded = new Uint8Array(Math.ceil(file.content.length / BLOCK) * BLOCK);
    padded.set(file.content);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(BLOCK * 2));
  const out = new Uint8Array(blocks.reduce((total, block) => total + block.length, 0));
  let at = 0;
  for (const block of blocks) {
    out.set(block, at);
    at += block.length;
  }
  return out;
}
