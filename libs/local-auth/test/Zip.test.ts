import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32, readZipEntry, type ZipLimits } from '../src/internal/Zip.js';

const limits: ZipLimits = { maxEntries: 100, maxEntryBytes: 1024 * 1024 };
const exe = strToU8('MZ this is the executable\n'.repeat(200));
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
/** Offsets of the central-directory record and the local header of the entry named `name`. */
const headersOf = (zip: Uint8Array, name: string): { central: number; local: number } => {
  const encoded = strToU8(name);
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (view(zip).getUint32(at, true) !== 0x02014b50) continue;
    const length = view(zip).getUint16(at + 28, true);
    if (length === encoded.length && zip.subarray(at + 46, at + 46 + length).every((byte, i) => byte === encoded[i])) return { central: at, local: view(zip).getUint32(at + 42, true) };
  }
  throw new Error(`no entry ${name}`);
};
/** A copy of `zip` with `edit` applied to it. */
const patched = (zip: Uint8Array, edit: (bytes: Uint8Array, data: DataView) => void): Uint8Array => {
  const copy = zip.slice();
  edit(copy, view(copy));
  return copy;
};
const rename = (zip: Uint8Array, from: string, to: string, where: 'both' | 'central' = 'both'): Uint8Array =>
  patched(zip, (bytes) => {
    const { central, local } = headersOf(zip, from);
    bytes.set(strToU8(to), central + 46);
    if (where === 'both') bytes.set(strToU8(to), local + 30);
  });

describe('readZipEntry', () => {
  it.each([
    ['deflated', 6],
    ['stored', 0],
  ] as const)('reads the declared entry, %s', (_, level) => {
    const zip = zipSync({ 'README.md': strToU8('readme'), bin: { 'glab.exe': exe }, './lib/tool': exe }, { level });
    expect(readZipEntry(zip, 'bin/glab.exe', limits)).toEqual(E.right(exe));
    expect(readZipEntry(zip, './bin/glab.exe', limits)).toEqual(E.right(exe));
    expect(readZipEntry(zip, 'lib/tool', limits)).toEqual(E.right(exe));
    expect(readZipEntry(zip, 'bin/other', limits)).toEqual(E.left('entry_missing'));
    expect(readZipEntry(zip, 'bin', limits)).toEqual(E.left('entry_missing'));
  });

  it('reads an empty entry', () => {
    expect(readZipEntry(zipSync({ empty: new Uint8Array(0) }), 'empty', limits)).toEqual(E.right(new Uint8Array(0)));
    expect(readZipEntry(zipSync({ empty: new Uint8Array(0) }, { level: 0 }), 'empty', limits)).toEqual(E.right(new Uint8Array(0)));
  });

  it('never matches an entry named with "..", an absolute path, a drive letter or backslashes', () => {
    const hostile: Zippable = { '../bin/glab': exe, '/bin/glab': exe, 'C:/bin/glab': exe, 'C:bin/glab': exe, 'bin\\glab': exe, 'bin/../bin/glab': exe, 'x/../../bin/glab': exe };
    expect(readZipEntry(zipSync(hostile), 'bin/glab', limits)).toEqual(E.left('entry_missing'));
    // With the real entry beside them, only the real entry is taken.
    const real = strToU8('the real one');
    expect(readZipEntry(zipSync({ ...hostile, 'bin/glab': real }), 'bin/glab', limits)).toEqual(E.right(real));
  });

  it('refuses more entries than allowed before reading any', () => {
    const files: Zippable = {};
    for (let i = 0; i < 11; i++) files[`f${i}`] = strToU8(String(i));
    expect(readZipEntry(zipSync(files), 'f0', { ...limits, maxEntries: 10 })).toEqual(E.left('too_many_entries'));
    expect(readZipEntry(zipSync(files), 'f0', { ...limits, maxEntries: 11 })).toEqual(E.right(strToU8('0')));
  });

  it('refuses an entry declared larger than allowed', () => {
    expect(readZipEntry(zipSync({ big: new Uint8Array(2048) }), 'big', { ...limits, maxEntryBytes: 2047 })).toEqual(E.left('entry_too_large'));
    expect(readZipEntry(zipSync({ big: new Uint8Array(2048) }), 'big', { ...limits, maxEntryBytes: 2048 })).toEqual(E.right(new Uint8Array(2048)));
  });

  it('stops a zip bomb at its declared size', () => {
    // 16 MiB of zeros deflate to some 16 KiB; the directory claims 1 KiB.
    const bomb = zipSync({ 'bin/glab': new Uint8Array(16 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { central } = headersOf(bomb, 'bin/glab');
    const small = patched(bomb, (_, data) => data.setUint32(central + 24, 1024, true));
    expect(readZipEntry(small, 'bin/glab', { ...limits, maxEntryBytes: 1024 * 1024 })).toEqual(E.left('size_mismatch'));
    // Declared truthfully, it is refused for its size before inflating.
    expect(readZipEntry(bomb, 'bin/glab', limits)).toEqual(E.left('entry_too_large'));
  });

  it('refuses content shorter than declared, stored or deflated', () => {
    for (const level of [0, 6] as const) {
      const zip = zipSync({ 'bin/glab': exe }, { level });
      const { central } = headersOf(zip, 'bin/glab');
      expect(readZipEntry(patched(zip, (_, data) => data.setUint32(central + 24, exe.length + 1, true)), 'bin/glab', limits)).toEqual(E.left('size_mismatch'));
    }
  });

  it('refuses a name listed twice, and a local header naming another file', () => {
    const zip = zipSync({ 'bin/glab': exe, 'bin/glaX': strToU8('other') });
    expect(readZipEntry(rename(zip, 'bin/glaX', 'bin/glab'), 'bin/glab', limits)).toEqual(E.left('duplicate_entry'));
    expect(readZipEntry(rename(zip, 'bin/glaX', 'bin/glaY', 'central'), 'bin/glaY', limits)).toEqual(E.left('corrupt'));
  });

  it('refuses a wrong CRC-32, encryption and unknown compression', () => {
    const zip = zipSync({ 'bin/glab': exe });
    const { central } = headersOf(zip, 'bin/glab');
    expect(crc32(exe)).toBe(view(zip).getUint32(central + 16, true));
    expect(readZipEntry(patched(zip, (_, data) => data.setUint32(central + 16, crc32(exe) ^ 1, true)), 'bin/glab', limits)).toEqual(E.left('checksum_mismatch'));
    expect(readZipEntry(patched(zip, (_, data) => data.setUint16(central + 8, 1, true)), 'bin/glab', limits)).toEqual(E.left('unsupported'));
    expect(readZipEntry(patched(zip, (_, data) => data.setUint16(central + 10, 12, true)), 'bin/glab', limits)).toEqual(E.left('unsupported'));
    expect(readZipEntry(patched(zip, (_, data) => data.setUint32(central + 24, 0xffffffff, true)), 'bin/glab', limits)).toEqual(E.left('unsupported'));
  });

  it('refuses what is not a zip, or a broken one', () => {
    expect(readZipEntry(new Uint8Array(0), 'x', limits)).toEqual(E.left('not_zip'));
    expect(readZipEntry(strToU8('not a zip at all, just text that is long enough'), 'x', limits)).toEqual(E.left('not_zip'));
    const zip = zipSync({ 'bin/glab': exe });
    const { central } = headersOf(zip, 'bin/glab');
    // Compressed data cut short: the entry's data runs into the central directory.
    expect(readZipEntry(patched(zip, (_, data) => data.setUint32(central + 20, exe.length * 10, true)), 'bin/glab', limits)).toEqual(E.left('corrupt'));
    // The local header moved somewhere else.
    expect(readZipEntry(patched(zip, (_, data) => data.setUint32(central + 42, 7, true)), 'bin/glab', limits)).toEqual(E.left('corrupt'));
    // The deflate stream garbled.
    const garbled = patched(zip, (bytes) => bytes.fill(0xff, headersOf(zip, 'bin/glab').local + 30 + 8, headersOf(zip, 'bin/glab').local + 30 + 40));
    expect(E.isLeft(readZipEntry(garbled, 'bin/glab', limits))).toBe(true);
  });

  const names = fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8}){0,2}$/);
  const contents = fc.uint8Array({ maxLength: 4096 });

  it('returns exactly what was zipped, for any files', () => {
    fc.assert(
      fc.property(fc.dictionary(names, contents, { minKeys: 1, maxKeys: 8 }), fc.constantFrom(0, 1, 6, 9), (files, level) => {
        // Paths that are a prefix directory of another path are not files of their own.
        const entries = Object.entries(files).filter(([name]) => !Object.keys(files).some((other) => other.startsWith(`${name}/`)));
        const zip = zipSync(Object.fromEntries(entries), { level: level as 0 | 1 | 6 | 9 });
        for (const [name, content] of entries) expect(readZipEntry(zip, name, limits)).toEqual(E.right(content));
      }),
    );
  });

  it('never throws on corrupted archives, and returns the original content or a refusal', () => {
    const zip = zipSync({ 'bin/glab': exe, 'README.md': strToU8('readme') });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: zip.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.nat({ max: zip.length }), (edits, cut) => {
        const broken = patched(zip, (bytes) => edits.forEach(([at, value]) => (bytes[at] = value))).subarray(0, zip.length - (cut % 64));
        const result = readZipEntry(broken, 'bin/glab', limits);
        if (E.isRight(result)) expect(text(result.right)).toBe(text(exe));
      }),
    );
    fc.assert(fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => void readZipEntry(bytes, 'bin/glab', limits)));
  });
});
