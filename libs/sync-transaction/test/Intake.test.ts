/**
 * The intake rules as laws: what the type bits say an entry is, which entries are admitted (regular
 * files with one link and directories only, within every limit), that a tally only grows by what
 * was admitted, and that a file growing past its limits while copied is caught.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INTAKE_LIMITS, admitCopiedBytes, admitEntry, emptyTally, entryKindOf, intakeLimits, sameIdentity, type EntryStat, type IntakeLimits } from '../src/Intake.js';
import { normalizedDirectoryMode, normalizedFileMode } from '../src/Package.js';

const TYPES = { file: 0o100000, directory: 0o040000, symlink: 0o120000, fifo: 0o010000, socket: 0o140000, characterDevice: 0o020000, blockDevice: 0o060000 } as const;

const statArbitrary: fc.Arbitrary<EntryStat> = fc.record({
  mode: fc.tuple(fc.constantFrom(...Object.values(TYPES), 0o030000, 0), fc.integer({ min: 0, max: 0o7777 })).map(([type, perm]) => type | perm),
  nlink: fc.integer({ min: 0, max: 4 }),
  size: fc.integer({ min: 0, max: 2_000 }),
  dev: fc.bigInt({ min: 0n, max: 3n }),
  ino: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
});

const limitsArbitrary: fc.Arbitrary<IntakeLimits> = fc.record({
  maxFileBytes: fc.integer({ min: 1, max: 1_500 }),
  maxTotalBytes: fc.integer({ min: 1, max: 3_000 }),
  maxEntries: fc.integer({ min: 1, max: 20 }),
  maxDepth: fc.integer({ min: 1, max: 6 }),
  operationTimeoutMs: fc.constant(1_000),
  totalTimeoutMs: fc.constant(10_000),
});

describe('entryKindOf', () => {
  it('names every POSIX type and nothing else', () => {
    for (const [kind, bits] of Object.entries(TYPES)) expect(entryKindOf(bits | 0o644)).toBe(kind);
    fc.assert(fc.property(fc.integer({ min: 0, max: 0o7777 }), (perm) => entryKindOf(perm) === 'unknown' && entryKindOf(0o030000 | perm) === 'unknown'));
  });
});

describe('admitEntry', () => {
  it('admits only directories and single-link regular files within the limits; the tally counts exactly what was admitted', () => {
    fc.assert(
      fc.property(limitsArbitrary, fc.array(fc.tuple(statArbitrary, fc.integer({ min: 1, max: 8 })), { maxLength: 30 }), (limits, entries) => {
        let tally = emptyTally;
        for (const [i, [stat, depth]] of entries.entries()) {
          const kind = entryKindOf(stat.mode);
          const admitted = admitEntry(limits, tally, { path: `e${i}`, depth, stat });
          const ok =
            (kind === 'directory' || (kind === 'file' && stat.nlink <= 1 && stat.size <= limits.maxFileBytes && tally.bytes + stat.size <= limits.maxTotalBytes)) &&
            tally.entries < limits.maxEntries &&
            depth <= limits.maxDepth;
          expect(E.isRight(admitted)).toBe(ok);
          if (E.isRight(admitted)) {
            expect(admitted.right.kind).toBe(kind);
            expect(admitted.right.tally).toEqual({ entries: tally.entries + 1, bytes: tally.bytes + (kind === 'file' ? stat.size : 0) });
            tally = admitted.right.tally;
          } else expect(admitted.left).toMatchObject({ _tag: 'PackageRefused', entry: `e${i}` });
          expect(tally.entries).toBeLessThanOrEqual(limits.maxEntries);
          expect(tally.bytes).toBeLessThanOrEqual(limits.maxTotalBytes);
        }
      }),
    );
  });

  it('names the reason: links, special files, hard links, sizes, counts, depth', () => {
    const limits = intakeLimits({ maxFileBytes: 10, maxTotalBytes: 15, maxEntries: 2, maxDepth: 2 });
    const stat = (type: number, extra: Partial<EntryStat> = {}): EntryStat => ({ mode: type | 0o644, nlink: 1, size: 0, dev: 1n, ino: 1n, ...extra });
    const reason = (s: EntryStat, tally = emptyTally, depth = 1) => {
      const admitted = admitEntry(limits, tally, { path: 'x', depth, stat: s });
      return E.isLeft(admitted) ? admitted.left.reason : null;
    };
    expect(reason(stat(TYPES.symlink))).toBe('Symlink');
    for (const type of [TYPES.fifo, TYPES.socket, TYPES.characterDevice, TYPES.blockDevice, 0]) expect(reason(stat(type))).toBe('SpecialFile');
    expect(reason(stat(TYPES.file, { nlink: 2 }))).toBe('Hardlink');
    expect(reason(stat(TYPES.directory, { nlink: 5 }))).toBeNull();
    expect(reason(stat(TYPES.file, { size: 11 }))).toBe('FileTooLarge');
    expect(reason(stat(TYPES.file, { size: 6 }), { entries: 1, bytes: 10 })).toBe('PackageTooLarge');
    expect(reason(stat(TYPES.file), { entries: 2, bytes: 0 })).toBe('TooManyEntries');
    expect(reason(stat(TYPES.directory), emptyTally, 3)).toBe('TooDeep');
  });
});

describe('admitCopiedBytes', () => {
  it('refuses exactly the copies past the per-file or the total limit', () => {
    fc.assert(
      fc.property(limitsArbitrary, fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 0, max: 3_000 }), (limits, before, copied) => {
        const result = admitCopiedBytes(limits, { entries: 0, bytes: before }, 'f', copied);
        const ok = copied <= limits.maxFileBytes && before + copied <= limits.maxTotalBytes;
        expect(E.isRight(result)).toBe(ok);
      }),
    );
  });
});

describe('intakeLimits', () => {
  it('takes positive safe integers and keeps the defaults for anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 1 }), fc.integer({ max: 0 }), fc.double(), fc.constant(Number.NaN)), (value) => {
        const limits = intakeLimits({ maxFileBytes: value, maxEntries: value });
        const valid = Number.isSafeInteger(value) && value > 0;
        expect(limits.maxFileBytes).toBe(valid ? value : DEFAULT_INTAKE_LIMITS.maxFileBytes);
        expect(limits.maxEntries).toBe(valid ? value : DEFAULT_INTAKE_LIMITS.maxEntries);
        expect(limits.maxDepth).toBe(DEFAULT_INTAKE_LIMITS.maxDepth);
      }),
    );
  });
});

describe('sameIdentity', () => {
  it('is device and inode equality', () => {
    fc.assert(fc.property(statArbitrary, statArbitrary, (a, b) => sameIdentity(a, b) === (a.dev === b.dev && a.ino === b.ino)));
  });
});

describe('published modes', () => {
  it('a file is never broader than its source (owner read aside), never group- or world-writable or set-id', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0o7777 }), (mode) => {
        const out = normalizedFileMode(mode);
        expect(out & 0o7022).toBe(0);
        expect(out & ~mode & ~0o400).toBe(0);
        expect(out & 0o400).toBe(0o400);
      }),
    );
  });

  it('a directory keeps rwx for its owner and never gives write to group or others', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0o7777 }), (mode) => {
        const out = normalizedDirectoryMode(mode);
        expect(out & 0o700).toBe(0o700);
        expect(out & 0o7022).toBe(0);
        expect(out & 0o077 & ~mode).toBe(0);
      }),
    );
  });
});
