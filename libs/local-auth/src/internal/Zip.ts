/**
 * Reads one regular file out of a zip archive, refusing what a hostile archive could do: more entries
 * than allowed, an entry larger than allowed, a name declared twice, a local header that names another
 * file than the central directory, content larger or smaller than declared (a zip bomb is stopped as
 * soon as it inflates past its declared size), a CRC-32 that does not match, encryption, ZIP64 and
 * compression methods other than stored and deflate. Only the entry whose name is exactly `path`
 * (leading `./` ignored) is inflated: names with `..`, absolute names, drive letters or backslashes
 * never match a declared path.
 *
 * Pure: bytes in, bytes or a refusal out; never throws on malformed input. Inflating is fflate's.
 */
import * as E from 'fp-ts/lib/Either.js';
import { Inflate } from 'fflate';

/** The bounds of {@link readZipEntry}. */
export interface ZipLimits {
  /** Entries the central directory may list. */
  readonly maxEntries: number;
  /** Bytes the entry may inflate to. */
  readonly maxEntryBytes: number;
}

/** Why an archive was refused. */
export type ZipRefusal =
  | 'not_zip'
  | 'too_many_entries'
  | 'entry_missing'
  | 'duplicate_entry'
  | 'entry_too_large'
  | 'unsupported'
  | 'size_mismatch'
  | 'checksum_mismatch'
  | 'corrupt';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** Compressed bytes handed to the inflater at once: bounds what one step may inflate to (~1032:1). */
const INFLATE_STEP = 16 * 1024;

const u16 = (bytes: Uint8Array, at: number): number => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
const u32 = (bytes: Uint8Array, at: number): number => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 (ISO-HDLC, as zip uses) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, index) => byte === b[index]);

const findEndOfDirectory = (archive: Uint8Array): number | undefined => {
  // The record is 22 bytes plus a comment of at most 65 535.
  for (let at = archive.length - 22; at >= 0 && at >= archive.length - 22 - 0xffff; at--) if (u32(archive, at) === END_OF_DIRECTORY) return at;
  return undefined;
};

interface Entry {
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
  readonly name: Uint8Array;
}

const inflateBounded = (compressed: Uint8Array, size: number): E.Either<ZipRefusal, Uint8Array> => {
  const out = new Uint8Array(size);
  let written = 0;
  let overflow = false;
  const inflater = new Inflate((chunk) => {
    if (overflow || written + chunk.length > size) {
      overflow = true;
      return;
    }
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    for (let at = 0; at < compressed.length && !overflow; at += INFLATE_STEP) {
      const end = Math.min(at + INFLATE_STEP, compressed.length);
      inflater.push(compressed.subarray(at, end), end === compressed.length);
    }
    if (compressed.length === 0) inflater.push(new Uint8Array(0), true);
  } catch {
    return E.left('corrupt');
  }
  if (overflow || written !== size) return E.left('size_mismatch');
  return E.right(out);
};

/**
 * The content of the regular file named `path` (leading `./` ignored) in the zip `archive`, or why the
 * archive was refused.
 *
 * @example
 * ```ts
 * readZipEntry(zipSync({ 'bin/glab.exe': exe }), 'bin/glab.exe', { maxEntries: 10_000, maxEntryBytes: 256 * 2 ** 20 }); // Right(exe)
 * ```
 */
export function readZipEntry(archive: Uint8Array, path: string, limits: ZipLimits): E.Either<ZipRefusal, Uint8Array> {
  const end = findEndOfDirectory(archive);
  if (end === undefined) return E.left('not_zip');
  const count = u16(archive, end + 10);
  const directorySize = u32(archive, end + 12);
  const directoryOffset = u32(archive, end + 16);
  // ZIP64 marks its counts and offsets with all-ones; a tool's executable never needs it.
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff || u16(archive, end + 4) !== 0 || u16(archive, end + 6) !== 0) return E.left('unsupported');
  if (count > limits.maxEntries) return E.left('too_many_entries');
  if (directoryOffset + directorySize > end) return E.left('corrupt');

  const wanted = new TextEncoder().encode(path.replace(/^(\.\/)+/, ''));
  const leadingDotSlash = (name: Uint8Array): Uint8Array => {
    let at = 0;
    while (name[at] === 0x2e && name[at + 1] === 0x2f) at += 2;
    return name.subarray(at);
  };
  let found: Entry | undefined;
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > directoryOffset + directorySize || u32(archive, at) !== DIRECTORY_ENTRY) return E.left('corrupt');
    const nameLength = u16(archive, at + 28);
    const next = at + 46 + nameLength + u16(archive, at + 30) + u16(archive, at + 32);
    if (next > directoryOffset + directorySize) return E.left('corrupt');
    const name = archive.subarray(at + 46, at + 46 + nameLength);
    if (sameBytes(leadingDotSlash(name), wanted)) {
      if (found !== undefined) return E.left('duplicate_entry');
      found = { flags: u16(archive, at + 8), method: u16(archive, at + 10), crc: u32(archive, at + 16), compressedSize: u32(archive, at + 20), size: u32(archive, at + 24), localOffset: u32(archive, at + 42), name };
    }
    at = next;
  }
  if (found === undefined) return E.left('entry_missing');
  // Bit 0: encrypted; bit 6: strong encryption.
  if ((found.flags & 0x41) !== 0 || (found.method !== 0 && found.method !== 8)) return E.left('unsupported');
  if (found.size === 0xffffffff || found.compressedSize === 0xffffffff || found.localOffset === 0xffffffff) return E.left('unsupported');
  if (found.size > limits.maxEntryBytes) return E.left('entry_too_large');

  const local = found.localOffset;
  if (local + 30 > directoryOffset || u32(archive, local) !== LOCAL_HEADER) return E.left('corrupt');
  const localNameLength = u16(archive, local + 26);
  const dataStart = local + 30 + localNameLength + u16(archive, local + 28);
  const dataEnd = dataStart + found.compressedSize;
  if (dataEnd > directoryOffset) return E.left('corrupt');
  // The local header must name the same file the central directory does (no second, hidden name).
  if (!sameBytes(archive.subarray(local + 30, local + 30 + localNameLength), found.name)) return E.left('corrupt');
  const data = archive.subarray(dataStart, dataEnd);

  const content = found.method === 0 ? (found.compressedSize === found.size ? E.right(data.slice()) : E.left<ZipRefusal>('size_mismatch')) : inflateBounded(data, found.size);
  if (E.isLeft(content)) return content;
  return crc32(content.right) === found.crc ? content : E.left('checksum_mismatch');
}
