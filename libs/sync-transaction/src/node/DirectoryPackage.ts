/**
 * A plugin package that arrived as a directory (downloaded and unpacked by the caller, for example from
 * the Wework backend or object storage), taken in once: every entry is opened without following links
 * (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`, so a FIFO can never hang the walk), the `fstat`
 * of the opened descriptor decides what it is (`Intake.ts` rules), and regular files are streamed into
 * a private staging directory while their SHA-256 is computed. The transaction validates and publishes
 * the staged copy; the source is never read again.
 *
 * On Linux each directory is listed and each child opened through `/proc/self/fd/<fd>/<name>`, that is
 * relative to the directory descriptor already held, so swapping a directory of the package for a link
 * during the walk cannot redirect it. Elsewhere, children are opened by path and the identity (device
 * and inode) of every directory on the way is checked again after each open; a change refuses the
 * package. Every operation is bounded by a timeout, the walk by a total one.
 */
import { createHash } from 'node:crypto';
import { constants, existsSync, type BigIntStats } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { forEachChunk } from '@wework/ports/node';
import {
  admitCopiedBytes,
  admitEntry,
  emptyTally,
  entryKindOf,
  intakeLimits,
  packageRefused,
  sameIdentity,
  type EntryStat,
  type IntakeLimits,
  type IntakeTally,
  type PackageRefused,
} from '../Intake.js';
import type { PackageEntry } from '../Package.js';
import type { ExtractionFailed, PackageSource } from '../Transaction.js';
import { createNodeHost } from './NodePorts.js';

/** Options of {@link directoryPackageSource}. */
export interface DirectoryPackageOptions {
  /** An existing directory in which the intake creates its private staging directory; default the OS temp directory. */
  readonly stagingParent?: string;
  /** Limits overriding {@link DEFAULT_INTAKE_LIMITS}. */
  readonly limits?: Partial<IntakeLimits>;
}

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = constants;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const CHUNK = 1024 * 1024;
const VIA_PROC = process.platform === 'linux' && existsSync('/proc/self/fd');

class Refusal extends Error {
  constructor(readonly refused: PackageRefused) {
    super(refused.reason);
  }
}

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'EIO';

const statOf = (s: BigIntStats): EntryStat => ({
  mode: Number(s.mode),
  nlink: Number(s.nlink),
  size: Number(s.size),
  dev: s.dev,
  ino: s.ino,
});

interface Walk {
  readonly limits: IntakeLimits;
  readonly deadline: number;
  readonly staging: string;
  readonly buffer: Buffer;
  tally: IntakeTally;
  staged: number;
  readonly out: PackageEntry[];
}

/**
 * Runs one operation within the operation timeout and the intake's deadline. An operation that times
 * out may still finish later; a file handle it opens then is closed at once.
 */
const bounded = <A>(walk: Walk, entry: string, run: () => Promise<A>): Promise<A> => {
  const left = Math.min(walk.limits.operationTimeoutMs, walk.deadline - Date.now());
  if (left <= 0) return Promise.reject(new Refusal(packageRefused('TimedOut', entry)));
  return new Promise<A>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new Refusal(packageRefused('TimedOut', entry)));
    }, left);
    run().then(
      (value) => {
        clearTimeout(timer);
        if (!timedOut) return resolve(value);
        if (value instanceof Object && 'close' in value && typeof value.close === 'function') void (value as unknown as fs.FileHandle).close().catch(() => undefined);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      }
    );
  });
};

const openRefusal = (error: unknown, entry: string): Refusal =>
  error instanceof Refusal ? error : new Refusal(packageRefused(codeOf(error) === 'ELOOP' ? 'Symlink' : codeOf(error) === 'ENOTDIR' ? 'EntryChanged' : 'Unreadable', entry));

/** Streams the open file into a new staging file; returns the staged content. */
const copyFile = async (walk: Walk, handle: fs.FileHandle, path: string, tallyBefore: IntakeTally): Promise<{ path: string; size: number; sha256: string }> => {
  const target = join(walk.staging, String(walk.staged++));
  const out = await bounded(walk, path, () => fs.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600));
  const hash = createHash('sha256');
  let size = 0;
  try {
    // Reads go through the descriptor opened with O_NOFOLLOW | O_NONBLOCK, never through the path again.
    size = await forEachChunk(
      handle,
      walk.buffer,
      async (chunk, total) => {
        const admitted = admitCopiedBytes(walk.limits, tallyBefore, path, total);
        if (E.isLeft(admitted)) throw new Refusal(admitted.left);
        hash.update(chunk);
        let written = 0;
        while (written < chunk.length) written += (await bounded(walk, path, () => out.write(chunk, written, chunk.length - written))).bytesWritten;
      },
      { length: (total) => Math.max(Math.min(CHUNK, walk.limits.maxFileBytes + 1 - total), 1), around: (run) => bounded(walk, path, run) },
    );
  } finally {
    await out.close();
  }
  walk.tally = { entries: walk.tally.entries, bytes: tallyBefore.bytes + size };
  return { path: target, size, sha256: hash.digest('hex') };
};

/** The path through which a child of an open directory is reached. */
const childRef = (dir: { readonly handle: fs.FileHandle; readonly absolute: string }, name: string): string =>
  VIA_PROC ? `/proc/self/fd/${dir.handle.fd}/${name}` : join(dir.absolute, name);

/** Off Linux: every directory on the way must still be the one opened. */
const checkAncestors = async (walk: Walk, chain: ReadonlyArray<{ readonly absolute: string; readonly stat: EntryStat }>, entry: string): Promise<void> => {
  if (VIA_PROC) return;
  for (const dir of chain) {
    const now = statOf(await bounded(walk, entry, () => fs.lstat(dir.absolute, { bigint: true })));
    if (!sameIdentity(now, dir.stat) || entryKindOf(now.mode) !== 'directory') throw new Refusal(packageRefused('EntryChanged', entry));
  }
};

/** The names in a directory, read in batches: refused as soon as they alone would pass the entry limit. */
const listNames = async (walk: Walk, listing: string, relative: string): Promise<string[]> => {
  const dir = await bounded(walk, relative, () => fs.opendir(listing, { bufferSize: 64 })).catch((error: unknown) => Promise.reject(openRefusal(error, relative)));
  const names: string[] = [];
  try {
    for (;;) {
      const entry = await bounded(walk, relative, () => dir.read());
      if (entry === null) return names;
      names.push(entry.name);
      if (walk.tally.entries + names.length > walk.limits.maxEntries) throw new Refusal(packageRefused('TooManyEntries', relative));
    }
  } finally {
    await dir.close().catch(() => undefined);
  }
};

type OpenDirectory = {
  readonly handle: fs.FileHandle;
  readonly absolute: string;
  readonly stat: EntryStat;
};

const walkDirectory = async (walk: Walk, chain: ReadonlyArray<OpenDirectory>, relative: string, depth: number): Promise<void> => {
  const dir = chain[chain.length - 1] as OpenDirectory;
  const listing = VIA_PROC ? `/proc/self/fd/${dir.handle.fd}` : dir.absolute;
  const names = (await listNames(walk, listing, relative)).sort();
  await checkAncestors(walk, chain, relative);
  for (const name of names) {
    const path = relative === '' ? name : `${relative}/${name}`;
    const ref = childRef(dir, name);
    // lstat first: a link, FIFO or device is refused without ever being opened.
    const before = statOf(await bounded(walk, path, () => fs.lstat(ref, { bigint: true })).catch((error: unknown) => Promise.reject(openRefusal(error, path))));
    const pre = admitEntry(walk.limits, walk.tally, {
      path,
      depth,
      stat: before,
    });
    if (E.isLeft(pre)) throw new Refusal(pre.left);
    const flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (pre.right.kind === 'directory' ? O_DIRECTORY : 0);
    const handle = await bounded(walk, path, () => fs.open(ref, flags)).catch((error: unknown) => Promise.reject(openRefusal(error, path)));
    try {
      await checkAncestors(walk, chain, path);
      const opened = statOf(await bounded(walk, path, () => handle.stat({ bigint: true })));
      if (!sameIdentity(before, opened)) throw new Refusal(packageRefused('EntryChanged', path));
      const admitted = admitEntry(walk.limits, walk.tally, {
        path,
        depth,
        stat: opened,
      });
      if (E.isLeft(admitted)) throw new Refusal(admitted.left);
      if (admitted.right.kind !== pre.right.kind) throw new Refusal(packageRefused('EntryChanged', path));
      if (admitted.right.kind === 'directory') {
        walk.tally = admitted.right.tally;
        walk.out.push({ kind: 'directory', path, mode: opened.mode & 0o777 });
        await walkDirectory(walk, [...chain, { handle, absolute: join(dir.absolute, name), stat: opened }], path, depth + 1);
      } else {
        const tallyBefore = walk.tally;
        walk.tally = {
          entries: walk.tally.entries + 1,
          bytes: walk.tally.bytes,
        };
        const staged = await copyFile(walk, handle, path, tallyBefore);
        walk.out.push({
          kind: 'file',
          path,
          mode: opened.mode & 0o777,
          staged,
        });
      }
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
};

const intake = async (root: string, staging: string, limits: IntakeLimits): Promise<PackageEntry[]> => {
  const walk: Walk = {
    limits,
    deadline: Date.now() + limits.totalTimeoutMs,
    staging,
    buffer: Buffer.allocUnsafe(CHUNK),
    tally: emptyTally,
    staged: 0,
    out: [],
  };
  const handle = await bounded(walk, '', () => fs.open(root, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_DIRECTORY)).catch((error: unknown) => {
    const code = codeOf(error);
    // A root that is a link or not a directory is refused; a missing or unreadable one is an extraction failure.
    return Promise.reject(error instanceof Refusal || (code !== 'ELOOP' && code !== 'ENOTDIR') ? error : new Refusal(packageRefused('NotADirectory', '')));
  });
  try {
    const stat = statOf(await bounded(walk, '', () => handle.stat({ bigint: true })));
    if (entryKindOf(stat.mode) !== 'directory') throw new Refusal(packageRefused('NotADirectory', ''));
    await walkDirectory(walk, [{ handle, absolute: root, stat }], '', 1);
    return walk.out;
  } finally {
    await handle.close().catch(() => undefined);
  }
};

const STAGING_PREFIX = '.intake-';
const STAGING_NAME = /^\.intake-(\d+)-/;

/** Removes staging directories that processes no longer running left in `parent` (killed mid-intake). */
const sweepStaging = async (parent: string): Promise<void> => {
  const host = createNodeHost();
  const names = await fs.readdir(parent).catch((): string[] => []);
  for (const name of names) {
    const pid = STAGING_NAME.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !(await host.isAlive({ pid: Number(pid), startTime: null })())) await fs.rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
  }
};

const extractionFailed = (error: unknown): ExtractionFailed | PackageRefused => (error instanceof Refusal ? error.refused : { _tag: 'ExtractionFailed', detail: codeOf(error) });

/**
 * The package in the directory `root`, taken in when the transaction asks for it: copied once into a
 * private staging directory (created under `options.stagingParent`) under the intake limits, its files
 * reported as staged content. A hostile entry is `PackageRefused` (with the reason); a missing root or
 * staging parent, or another failure, is `ExtractionFailed` with the error code. `release` removes the staging
 * directory (the transaction calls it when done); staging directories left by processes that died
 * mid-intake (`.intake-<pid>-*`) are removed by the next intake in the same parent.
 *
 * @example
 * ```ts
 * const source = directoryPackageSource(join(downloads, 'forms-1.2.0'), { stagingParent: homes.stateDirectory });
 * await commitChange(ports, homes, { _tag: 'Install', plugin, version: '1.2.0', source, at })();
 * ```
 */
export const directoryPackageSource = (root: string, options: DirectoryPackageOptions = {}): PackageSource => {
  const limits = intakeLimits(options.limits);
  let staging: string | null = null;
  return {
    extract: () =>
      TE.tryCatch(async () => {
        const parent = options.stagingParent ?? tmpdir();
        await sweepStaging(parent);
        staging = await fs.mkdtemp(join(parent, `${STAGING_PREFIX}${process.pid}-`));
        return intake(root, staging, limits);
      }, extractionFailed),
    release: () => async () => {
      if (staging !== null) await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
      staging = null;
    },
  };
};
