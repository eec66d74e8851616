/**
 * `@wework/sync-transaction/testing`: fast-check arbitraries of package entries — well-formed and
 * hostile — so hosts can property-test what they feed to `validatePackage` (the fault-injecting
 * file-system port is `@wework/ports/testing`'s `instrumentFileSystem`). Needs
 * `fast-check` (an optional peer dependency).
 */
import * as fc from 'fast-check';
import type { PackageEntry } from './Package.js';

const NAMES = ['a', 'b', 'c', 'skills', 'SKILL.md', 'bin', 'x.js', 'A', '.hidden', 'data'];

/** A plausible relative path of 1–4 segments from a small alphabet (so collisions happen). */
export const relativePathArbitrary: fc.Arbitrary<string> = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

/** A path that is hostile or malformed: absolute, `..`, backslashes, NUL, empty, drive letters. */
export const hostilePathArbitrary: fc.Arbitrary<string> = fc.oneof(
  relativePathArbitrary.map((p) => `/${p}`),
  relativePathArbitrary.map((p) => `../${p}`),
  relativePathArbitrary.map((p) => `${p}/../../x`),
  relativePathArbitrary.map((p) => `${p}\\..\\x`),
  relativePathArbitrary.map((p) => `${p}\u0000`),
  fc.constantFrom('', '.', './', 'C:/x', 'c:\\x', '..'),
);

/** A symbolic link target: relative within or beyond the package, absolute, or through other links. */
export const linkTargetArbitrary: fc.Arbitrary<string> = fc.oneof(
  relativePathArbitrary,
  fc.array(fc.constantFrom('..', '.', ...NAMES), { minLength: 1, maxLength: 5 }).map((s) => s.join('/')),
  relativePathArbitrary.map((p) => `/${p}`),
);

const bytes = fc.uint8Array({ maxLength: 64 });
const mode = fc.constantFrom(0o644, 0o755, 0o600, 0o777, 0o4755);

/** Any entry, mostly well-formed, sometimes hostile (paths, links, special files). */
export const packageEntryArbitrary: fc.Arbitrary<PackageEntry> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('file' as const), path: relativePathArbitrary, mode, bytes }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('directory' as const), path: relativePathArbitrary, mode }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('symlink' as const), path: relativePathArbitrary, target: linkTargetArbitrary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('file' as const), path: hostilePathArbitrary, mode, bytes }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('other' as const), path: relativePathArbitrary, description: fc.constantFrom('block device', 'character device', 'fifo', 'socket') }) },
);

/** A package of up to `maxEntries` entries (default 12). */
export const packageArbitrary = (maxEntries = 12): fc.Arbitrary<ReadonlyArray<PackageEntry>> => fc.array(packageEntryArbitrary, { maxLength: maxEntries });
