/**
 * The cost of committing a 5,000-file plugin package with `@wework/sync-transaction` against the
 * cheapest way to put the same tree in place: `cp -r` of the tree into a staging directory beside
 * the destination, then one rename.
 *
 * Package: 5,000 files of about 1.5 KB in 50 directories, plus a manifest and skills. The commit is
 * a first install into a Codex home only (one cache tree, config.toml, marketplace metadata, the
 * manifest, the journal and the lock) with the Node ports at their default durability (staged trees
 * flushed with one syncfs, journal and registry files fsynced). The baseline copies the same tree from
 * disk with `cp -r` and renames it into place, with no flush. Runs are interleaved pairs, so both see
 * the same machine load. Reported: the median of the per-pair ratios (goal ≤ 1.5×), and, for
 * reference, the same against a baseline that also flushes (`cp -r`, `sync -f`, rename).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { commitChange, type PackageEntry } from '@wework/sync-transaction';
import { createNodePorts } from '@wework/sync-transaction/node';
import { comparePaired, sidesLine, verdictLine } from './stats.js';

const RUNS = Number(process.env['BENCH_SYNC_RUNS'] ?? 5);
const FILES = 5_000;

/** A deterministic package of `FILES` files. */
export function benchPackage(): PackageEntry[] {
  const encoder = new TextEncoder();
  const entries: PackageEntry[] = [
    { kind: 'file', path: '.codex-plugin/plugin.json', mode: 0o644, bytes: encoder.encode('{"name":"bench","version":"1.0.0"}') },
    { kind: 'file', path: 'skills/bench/SKILL.md', mode: 0o644, bytes: encoder.encode('---\nname: bench\n---\nBench.\n') },
  ];
  for (let i = entries.length; i < FILES; i++)
    entries.push({ kind: 'file', path: `assets/d${i % 50}/f${i}.txt`, mode: i % 10 === 0 ? 0o755 : 0o644, bytes: encoder.encode(`line ${i} `.repeat(150)) });
  return entries;
}

/** Writes the package as a plain tree at `root` (the baseline's source). */
function writeTree(root: string, entries: ReadonlyArray<PackageEntry>): void {
  for (const entry of entries) {
    if (entry.kind !== 'file' || !('bytes' in entry)) continue;
    const path = join(root, entry.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, entry.bytes, { mode: entry.mode });
  }
}


/** Runs the benchmark and returns printable lines. */
export async function benchSyncCommit(): Promise<string[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'wework-bench-sync-'));
  const entries = benchPackage();
  const source = join(scratch, 'source');
  writeTree(source, entries);
  const ports = createNodePorts();
  let run = 0;

  const commitOnce = async (): Promise<number> => {
    const root = join(scratch, `commit-${run++}`);
    const codexHome = join(root, 'codex-home');
    mkdirSync(codexHome, { recursive: true });
    const homes = { codexHome, claudeHome: null, stateDirectory: join(codexHome, 'wework-plugins') };
    const t0 = performance.now();
    const result = await commitChange(ports, homes, {
      _tag: 'Install',
      plugin: { name: 'bench', marketplace: 'wework' },
      version: '1.0.0',
      source: { extract: () => TE.right(entries) },
      at: '2025-01-01T00:00:00.000Z',
    })();
    const elapsed = performance.now() - t0;
    if (E.isLeft(result) || result.right.outcome !== 'Committed') throw new Error(`commit failed: ${JSON.stringify(E.isLeft(result) ? result.left : result.right.outcome)}`);
    rmSync(root, { recursive: true, force: true });
    return elapsed;
  };

  const copyOnce = (flush: boolean): number => {
    const root = join(scratch, `copy-${run++}`);
    const parent = join(root, 'codex-home/plugins/cache/wework/bench');
    mkdirSync(parent, { recursive: true });
    const t0 = performance.now();
    execFileSync('cp', ['-r', source, join(parent, '.1.0.0.stage')]);
    if (flush) execFileSync('sync', ['-f', parent]);
    execFileSync('mv', ['-T', join(parent, '.1.0.0.stage'), join(parent, '1.0.0')]);
    const elapsed = performance.now() - t0;
    rmSync(root, { recursive: true, force: true });
    return elapsed;
  };

  try {
    const plain = await comparePaired(commitOnce, () => copyOnce(false), { pairs: RUNS, warmup: 1, maxBatches: 3 });
    const flushed = await comparePaired(commitOnce, () => copyOnce(true), { pairs: RUNS, warmup: 0, maxBatches: 2 });
    return [
      `sync transaction commit: ${FILES} files (${(entries.reduce((n, e) => n + (e.kind === 'file' && 'bytes' in e ? e.bytes.length : 0), 0) / 1e6).toFixed(1)} MB), first install into a Codex home`,
      verdictLine('commitChange (journal, lock, flush) / (cp -r + rename)', plain, { atMost: 1.5 }),
      sidesLine('commit', 'cp -r + rename', plain),
      verdictLine('commitChange / (cp -r + sync -f + rename), both durable', flushed, null),
      sidesLine('commit', 'cp -r + sync -f + rename', flushed),
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
