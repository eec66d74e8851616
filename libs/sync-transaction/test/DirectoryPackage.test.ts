/**
 * `directoryPackageSource`: an unpacked package directory taken in once into a private staging
 * directory — regular files and directories only, each opened without following links and without
 * blocking, files streamed with their SHA-256, limits enforced — and a missing directory as
 * `ExtractionFailed`. The transaction publishes the staged copy and releases it.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { PackageEntry } from '../src/Package.js';
import { commitChange } from '../src/Transaction.js';
import { cacheDirectoryOf } from '../src/Layout.js';
import { createNodePorts, directoryPackageSource } from '../src/node/index.js';
import { sandbox } from './support/homes.js';
import { listTree } from '@wework/test-support';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
const scratch = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'sync-tx-dir-'));
  roots.push(root);
  return root;
};
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A package directory and a staging parent beside it. */
const packageBox = (): { readonly root: string; readonly staging: string } => {
  const base = scratch();
  const root = join(base, 'package');
  const staging = join(base, 'staging');
  mkdirSync(root);
  mkdirSync(staging);
  return { root, staging };
};

describe('directoryPackageSource', () => {
  it('stages files with their modes and digests, directories with their modes, sorted, relative to the root; release removes the staging copy', async () => {
    const { root, staging } = packageBox();
    mkdirSync(join(root, 'skills/fill'), { recursive: true });
    writeFileSync(join(root, 'skills/fill/SKILL.md'), 'fill');
    writeFileSync(join(root, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(root, 'run.sh'), 0o755);
    const source = directoryPackageSource(root, { stagingParent: staging });
    const entries = await source.extract()();
    expect(entries).toEqual(
      E.right([
        { kind: 'file', path: 'run.sh', mode: 0o755, staged: { path: expect.any(String), size: 10, sha256: sha('#!/bin/sh\n') } },
        { kind: 'directory', path: 'skills', mode: expect.any(Number) },
        { kind: 'directory', path: 'skills/fill', mode: expect.any(Number) },
        { kind: 'file', path: 'skills/fill/SKILL.md', mode: expect.any(Number), staged: { path: expect.any(String), size: 4, sha256: sha('fill') } },
      ]),
    );
    expect(readdirSync(staging)).toHaveLength(1);
    await source.release?.()();
    expect(readdirSync(staging)).toEqual([]);
  });

  it.each([
    ['a symbolic link (even one that stays inside)', (root: string) => symlinkSync('run.sh', join(root, 'latest')), 'Symlink'],
    ['an escaping symbolic link', (root: string) => symlinkSync('../../etc', join(root, 'out')), 'Symlink'],
    ['a FIFO', (root: string) => execFileSync('mkfifo', [join(root, 'pipe')]), 'SpecialFile'],
    ['a hard link to a file outside', (root: string) => linkSync(join(root, '..', 'secret'), join(root, 'copy')), 'Hardlink'],
  ])('refuses %s before reading anything from it', async (_name, plant, reason) => {
    const { root, staging } = packageBox();
    writeFileSync(join(root, '..', 'secret'), 'token');
    writeFileSync(join(root, 'run.sh'), 'x');
    plant(root);
    const source = directoryPackageSource(root, { stagingParent: staging });
    expect(await source.extract()()).toMatchObject({ left: { _tag: 'PackageRefused', reason } });
    await source.release?.()();
    expect(readdirSync(staging)).toEqual([]);
  });

  it('refuses a package root that is a link', async () => {
    const { root, staging } = packageBox();
    const link = join(root, '..', 'link');
    symlinkSync(root, link);
    expect(await directoryPackageSource(link, { stagingParent: staging }).extract()()).toMatchObject({ left: { _tag: 'PackageRefused', reason: 'NotADirectory' } });
  });

  it('enforces the per-file, total-size, entry-count and depth limits', async () => {
    const { root, staging } = packageBox();
    writeFileSync(join(root, 'a'), '12345');
    writeFileSync(join(root, 'b'), '12345');
    mkdirSync(join(root, 'd/e'), { recursive: true });
    const extract = (limits: Parameters<typeof directoryPackageSource>[1]) => directoryPackageSource(root, { stagingParent: staging, ...limits }).extract()();
    expect(await extract({ limits: { maxFileBytes: 4 } })).toMatchObject({ left: { reason: 'FileTooLarge', entry: 'a' } });
    expect(await extract({ limits: { maxTotalBytes: 9 } })).toMatchObject({ left: { reason: 'PackageTooLarge', entry: 'b' } });
    expect(await extract({ limits: { maxEntries: 3 } })).toMatchObject({ left: { reason: 'TooManyEntries' } });
    expect(await extract({ limits: { maxDepth: 1 } })).toMatchObject({ left: { reason: 'TooDeep', entry: 'd/e' } });
    expect(E.isRight(await extract({ limits: { maxFileBytes: 5, maxTotalBytes: 10, maxEntries: 4, maxDepth: 2 } }))).toBe(true);
  });

  it('streams a large sparse file (bounded memory) and refuses it over the limit', async () => {
    const { root, staging } = packageBox();
    writeFileSync(join(root, 'big'), '');
    truncateSync(join(root, 'big'), 64 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const source = directoryPackageSource(root, { stagingParent: staging });
    const entries = await source.extract()();
    expect(entries).toMatchObject({ right: [{ kind: 'file', path: 'big', staged: { size: 64 * 1024 * 1024 } }] });
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
    await source.release?.()();
    expect(await directoryPackageSource(root, { stagingParent: staging, limits: { maxFileBytes: 32 * 1024 * 1024 } }).extract()()).toMatchObject({ left: { reason: 'FileTooLarge' } });
  });

  it('a directory swapped for a link to a secret during repeated intakes: never a byte of the secret is staged', async () => {
    const { root, staging } = packageBox();
    const secretHome = join(root, '..', 'fake-codex');
    mkdirSync(secretHome);
    writeFileSync(join(secretHome, 'auth.json'), '{"token":"secret-canary"}');
    mkdirSync(join(root, 'skills'));
    writeFileSync(join(root, 'skills', 'auth.json'), '{"token":"harmless"}');
    // [0]: stop flag; [1]: swaps completed (the directory replaced by the link and put back).
    const shared = new SharedArrayBuffer(8);
    const counters = new Int32Array(shared);
    const swapper = new Worker(
      `const { renameSync, symlinkSync, rmSync } = require('node:fs'); const { workerData } = require('node:worker_threads');
       const { dir, real, secret, shared } = workerData; const counters = new Int32Array(shared);
       while (Atomics.load(counters, 0) === 0) { try { renameSync(dir, real); symlinkSync(secret, dir); rmSync(dir); renameSync(real, dir); Atomics.add(counters, 1, 1); } catch {} }`,
      { eval: true, workerData: { dir: join(root, 'skills'), real: join(root, '..', 'skills-real'), secret: secretHome, shared } },
    );
    const outcomes = { accepted: 0, refused: 0, intakes: 0, racedBySwaps: 0 };
    // The swapping has begun before the first intake (waited for as an event, not a time).
    while (Atomics.load(counters, 1) === 0) await new Promise((resolve) => setImmediate(resolve));
    try {
      // At least 200 intakes, and on until the race was seen: intakes during which the swapper completed
      // a swap, and intakes it made refuse; bounded by a count, not by time.
      while (outcomes.intakes < 200 || ((outcomes.racedBySwaps === 0 || outcomes.refused === 0) && outcomes.intakes < 20_000)) {
        const swapsBefore = Atomics.load(counters, 1);
        const source = directoryPackageSource(root, { stagingParent: staging });
        const entries = await source.extract()();
        if (Atomics.load(counters, 1) > swapsBefore) outcomes.racedBySwaps++;
        outcomes.intakes++;
        if (E.isLeft(entries)) {
          expect(entries.left).toMatchObject({ _tag: 'PackageRefused' });
          outcomes.refused++;
        } else {
          outcomes.accepted++;
          for (const entry of entries.right as ReadonlyArray<PackageEntry>) if (entry.kind === 'file' && 'staged' in entry) expect(entry.staged.sha256).toBe(sha('{"token":"harmless"}'));
        }
        await source.release?.()();
      }
    } finally {
      Atomics.store(counters, 0, 1);
      await swapper.terminate();
    }
    if (!existsSync(join(root, 'skills'))) renameSync(join(root, '..', 'skills-real'), join(root, 'skills'));
    expect(outcomes.accepted + outcomes.refused).toBe(outcomes.intakes);
    expect(outcomes.racedBySwaps).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(readdirSync(staging)).toEqual([]);
  });

  it('a staging directory left by a process killed mid-intake is removed by the next intake; a live one is kept', async () => {
    const { root, staging } = packageBox();
    writeFileSync(join(root, 'a'), 'a');
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
    mkdirSync(join(staging, `.intake-${dead}-abc`));
    writeFileSync(join(staging, `.intake-${dead}-abc`, '0'), 'left over');
    mkdirSync(join(staging, `.intake-${process.ppid}-live`));
    const source = directoryPackageSource(root, { stagingParent: staging });
    expect(E.isRight(await source.extract()())).toBe(true);
    expect(readdirSync(staging).sort()).toEqual([`.intake-${process.pid}-`, `.intake-${process.ppid}-live`].sort().map((n) => (n.endsWith('-') ? expect.stringMatching(/^\.intake-\d+-.+/) : n)));
    await source.release?.()();
    expect(readdirSync(staging)).toEqual([`.intake-${process.ppid}-live`]);
  });

  it('the whole intake is bounded by its total timeout', async () => {
    const { root, staging } = packageBox();
    writeFileSync(join(root, 'big'), '');
    truncateSync(join(root, 'big'), 64 * 1024 * 1024);
    expect(await directoryPackageSource(root, { stagingParent: staging, limits: { totalTimeoutMs: 1 } }).extract()()).toMatchObject({ left: { _tag: 'PackageRefused', reason: 'TimedOut' } });
  });

  it('a missing directory, or a missing staging parent, is ExtractionFailed with its error code', async () => {
    const { root, staging } = packageBox();
    expect(await directoryPackageSource(join(root, 'absent'), { stagingParent: staging }).extract()()).toEqual(E.left({ _tag: 'ExtractionFailed', detail: 'ENOENT' }));
    expect(await directoryPackageSource(root, { stagingParent: join(staging, 'absent') }).extract()()).toEqual(E.left({ _tag: 'ExtractionFailed', detail: 'ENOENT' }));
  });

  it('installs into the caches exactly the tree it read, never broader modes than the source, and leaves no staging copy', async () => {
    const { root, staging } = packageBox();
    mkdirSync(join(root, '.codex-plugin'));
    writeFileSync(join(root, '.codex-plugin/plugin.json'), '{"name":"forms"}');
    writeFileSync(join(root, 'private.txt'), 'p');
    chmodSync(join(root, 'private.txt'), 0o600);
    writeFileSync(join(root, 'shared.txt'), 's');
    chmodSync(join(root, 'shared.txt'), 0o666);
    const box = sandbox();
    roots.push(box.root);
    const plugin = { name: 'forms', marketplace: 'wework' };
    const source = directoryPackageSource(root, { stagingParent: staging });
    expect(await commitChange(createNodePorts({ durability: 'none' }), box.homes, { _tag: 'Install', plugin, version: '1.0.0', source, at: 'x' })()).toMatchObject({
      right: { outcome: 'Committed' },
    });
    const cache = join(box.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'));
    expect(listTree(cache).filter((line) => line.startsWith('private.txt') || line.startsWith('shared.txt'))).toEqual([
      expect.stringMatching(/^private\.txt .*600/),
      expect.stringMatching(/^shared\.txt .*644/),
    ]);
    expect(readdirSync(staging)).toEqual([]);
  });
});
