/**
 * Every mutation of the library, tested the way SQLite tests its writes: count the file-system
 * mutations of a clean run, then run it once per step with that step failing (`ENOSPC`, `EIO`,
 * `EDQUOT`) — every step with every code over the in-memory port, steps and codes picked by fast-check
 * over the real one (a run there costs many times more). After each failed run the whole sandbox
 * (Codex home with the state directory and package store, Claude home) is the old tree or the new
 * one, byte for byte — the new one exactly when the mutation answered success — with no temporary
 * file, and the same mutation run again succeeds and gives the new tree.
 *
 * Start-up recovery is tested from the state a crash leaves: a recovery that itself fails at any step
 * leaves a state the next recovery completes to the old or the new tree.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { PluginRef } from '@wework/plugin-inventory';
import type { FileSystemPort } from '@wework/ports';
import { nodeFileSystem } from '@wework/ports/node';
import { DISK_FAULT_CODES, MemoryFileSystem, failingAt, instrumentFileSystem, rightOf, snapshotTree, temporaryPathsIn, type Mutation, type TreeEntry, type TreeSnapshot } from '@wework/ports/testing';
import { upgradeBundled } from '../src/BundledUpgrade.js';
import type { HostPort } from '../src/HostPort.js';
import { cacheDirectoryOf, type Homes } from '../src/Layout.js';
import type { PackageEntry } from '../src/Package.js';
import { recoverDirectories } from '../src/RecoverDirectories.js';
import { recoverAll } from '../src/Recovery.js';
import { commitChange, type PackageSource, type SyncChange, type TransactionPorts } from '../src/Transaction.js';
import { pluginPackage, sandboxThrough, sourceOf } from './support/homes.js';

const plugin: PluginRef = { name: 'forms', marketplace: 'wework' };
const other: PluginRef = { name: 'notes', marketplace: 'wework' };

/** The pid of this (live) process; every other owner of a lock is dead (a process that crashed). */
const LIVE = 1;

/** A deterministic host: fresh ids count up, time moves only when it sleeps, only `LIVE` runs. */
const testHost = (pid: number): HostPort => {
  let ids = 0;
  let now = 0;
  return {
    self: { pid, startTime: 7 },
    isAlive: (owner) => async () => owner.pid === LIVE,
    now: () => now,
    sleep: (ms) => async () => void (now += ms),
    freshId: () => `p${pid}n${(ids++).toString(36)}`,
  };
};

const portsOf = (fs: FileSystemPort, pid = LIVE): TransactionPorts => ({ fs, host: testHost(pid) });

/** The fixture package cut to one entry of each kind (explicit and implied directory, file, executable, link): fewer steps, every kind of step. */
const KEPT = new Set(['.codex-plugin', '.codex-plugin/plugin.json', 'bin/run.sh', 'bin/latest']);
const smallPackage = (variant: string): ReadonlyArray<PackageEntry> => pluginPackage(variant).filter((entry) => KEPT.has(entry.path));

const install = (version: string, variant = version, which: PluginRef = plugin): SyncChange => ({
  _tag: 'Install',
  plugin: which,
  version,
  source: sourceOf(smallPackage(variant)),
  at: `2025-03-0${version[0] ?? '1'}T00:00:00.000Z`,
});
const remove: SyncChange = { _tag: 'Remove', plugin, at: '2025-04-01T00:00:00.000Z' };

const withStore = (homes: Homes): Homes => ({ ...homes, packageStore: join(homes.stateDirectory, 'packages') });
const codexOnly = (homes: Homes): Homes => ({ ...homes, runtimeTarget: 'codex' });

/** A package source that reads a package directory through the port (files, directories, links). */
const portPackage =
  (fs: FileSystemPort) =>
  (root: string): PackageSource => ({
    extract: () => async () => {
      const entries: PackageEntry[] = [];
      const walk = async (relative: string): Promise<void> => {
        for (const name of await rightOf(fs.listDirectory(join(root, relative)))) {
          const path = relative === '' ? name : `${relative}/${name}`;
          const stat = await rightOf(fs.lstat(join(root, path)));
          if (stat === null) continue;
          if (stat.kind === 'directory') {
            entries.push({ kind: 'directory', path, mode: stat.mode });
            await walk(path);
          } else if (stat.kind === 'symlink') entries.push({ kind: 'symlink', path, target: await rightOf(fs.readLink(join(root, path))) });
          else entries.push({ kind: 'file', path, mode: stat.mode, bytes: await rightOf(fs.readFile(join(root, path), { followSymlink: false })) });
        }
      };
      try {
        await walk('');
        return E.right(entries);
      } catch {
        return E.left({ _tag: 'ExtractionFailed', detail: 'unreadable package' });
      }
    },
  });

/** Where a scenario runs: a port and the sandbox root it snapshots. */
interface World {
  readonly fs: FileSystemPort;
  readonly root: string;
  readonly homes: Homes;
  /** Files outside the sandbox a package is staged in (what an intake would have copied). */
  readonly staging: string;
}

/** A mutation, from the old state its `setUp` builds. */
interface Scenario {
  readonly name: string;
  readonly homes?: (homes: Homes) => Homes;
  /** Builds the old state with clean mutations. */
  readonly setUp?: (world: World) => Promise<void>;
  /** Runs the mutation: `true` when it answered success (the new state), `false` for a failure. */
  readonly run: (ports: TransactionPorts, world: World) => Promise<boolean>;
}

const committed = async (run: Promise<E.Either<unknown, { readonly outcome: string }>>): Promise<boolean> => {
  const result = await run;
  return E.isRight(result) && result.right.outcome !== 'SkippedUninstalled';
};

const setUpInstall = (...changes: ReadonlyArray<SyncChange>) => async (world: World): Promise<void> => {
  for (const change of changes) expect(await commitChange(portsOf(world.fs), world.homes, change)()).toMatchObject({ right: { outcome: 'Committed' } });
};

const disableIn = async (world: World, key: string): Promise<void> => {
  const path = join(world.homes.codexHome, 'config.toml');
  const text = new TextDecoder().decode(await rightOf(world.fs.readFile(path, { followSymlink: false })));
  await rightOf(world.fs.removeFile(path));
  await rightOf(world.fs.writeFiles([{ path, bytes: new TextEncoder().encode(text.replace(`[plugins."${key}"]\nenabled = true`, `[plugins."${key}"]\nenabled = false`)), mode: 0o640 }]));
};

/** `entries` as an intake stages them in `directory`: each file's bytes copied to `f<index>` there. */
const stagedEntries = (fs: FileSystemPort, directory: string, entries: ReadonlyArray<PackageEntry>): ReadonlyArray<PackageEntry> =>
  entries.map((entry, i) =>
    entry.kind === 'file' && 'bytes' in entry
      ? { kind: 'file', path: entry.path, mode: entry.mode, staged: { path: join(directory, `f${i}`), size: entry.bytes.length, sha256: fs.digest(entry.bytes) } }
      : entry,
  );

/** Writes the staged copies {@link stagedEntries} names. */
const stageFiles = async (fs: FileSystemPort, directory: string, entries: ReadonlyArray<PackageEntry>): Promise<void> => {
  await rightOf(fs.makeDirectory(directory, 0o700));
  const files = entries.flatMap((entry, i) => (entry.kind === 'file' && 'bytes' in entry ? [{ path: join(directory, `f${i}`), bytes: entry.bytes, mode: 0o600 }] : []));
  await rightOf(fs.writeFiles(files));
};

const scenarios: ReadonlyArray<Scenario> = [
  {
    name: 'first install (both runtimes, package retained)',
    homes: withStore,
    run: (ports, world) => committed(commitChange(ports, world.homes, install('1.0.0'))()),
  },
  {
    name: 'first install into homes without a state directory yet',
    homes: (homes) => ({ ...homes, stateDirectory: join(homes.codexHome, 'plugin-state', 'v2') }),
    run: (ports, world) => committed(commitChange(ports, world.homes, install('1.0.0'))()),
  },
  {
    name: 'first install of a package staged by an intake (files copied from the staging directory)',
    setUp: (world) => stageFiles(world.fs, join(world.staging, 'pkg'), smallPackage('1.0.0')),
    run: (ports, world) =>
      committed(
        commitChange(ports, world.homes, {
          _tag: 'Install',
          plugin,
          version: '1.0.0',
          source: sourceOf(stagedEntries(ports.fs, join(world.staging, 'pkg'), smallPackage('1.0.0'))),
          at: '2025-03-01T00:00:00.000Z',
        })(),
      ),
  },
  {
    name: 'update 1.0.0 → 2.0.0 of a plugin the user disabled (old cache and package removed)',
    homes: withStore,
    setUp: async (world) => {
      await setUpInstall(install('1.0.0'), install('1.0.0', '1.0.0', other))(world);
      await disableIn(world, 'forms@wework');
    },
    run: (ports, world) => committed(commitChange(ports, world.homes, install('2.0.0'))()),
  },
  {
    name: 're-install of the installed version over a tampered cache (a repair)',
    setUp: async (world) => {
      await setUpInstall(install('1.0.0'))(world);
      const cache = join(world.homes.codexHome, cacheDirectoryOf(plugin, '1.0.0'));
      await rightOf(world.fs.removeFile(join(cache, 'bin/run.sh')));
      await rightOf(world.fs.writeFiles([{ path: join(cache, 'planted.txt'), bytes: new Uint8Array([1, 2]), mode: 0o644 }]));
    },
    run: (ports, world) => committed(commitChange(ports, world.homes, install('1.0.0'))()),
  },
  {
    name: 'uninstall (both runtimes: registrations and enablement go, caches retained, tombstone)',
    homes: withStore,
    setUp: setUpInstall(install('1.0.0'), install('1.0.0', '1.0.0', other)),
    run: (ports, world) => committed(commitChange(ports, world.homes, remove)()),
  },
  {
    name: 'Codex-only install',
    homes: codexOnly,
    run: (ports, world) => committed(commitChange(ports, world.homes, install('1.0.0'))()),
  },
  {
    name: 'Codex-only uninstall of a plugin installed for both runtimes (Claude state cleaned)',
    setUp: setUpInstall(install('1.0.0')),
    run: (ports, world) => committed(commitChange(ports, codexOnly(world.homes), remove)()),
  },
  {
    name: 'bundled upgrade: a same-version content fix of a disabled plugin',
    homes: withStore,
    setUp: async (world) => {
      await setUpInstall(install('1.0.0'))(world);
      await disableIn(world, 'forms@wework');
    },
    run: async (ports, world) => {
      const result = await upgradeBundled(ports, world.homes, { plugin, version: '1.0.0', source: sourceOf(smallPackage('1.0.0-fix')), at: '2025-05-01T00:00:00.000Z' })();
      return E.isRight(result) && (result.right._tag === 'Upgraded' || result.right._tag === 'UpToDate');
    },
  },
  {
    name: 'start-up directory recovery: an incomplete cache rebuilt from its retained package',
    homes: withStore,
    setUp: async (world) => {
      await setUpInstall(install('1.0.0'), install('1.0.0', '1.0.0', other))(world);
      await rightOf(world.fs.removeTree(join(world.homes.claudeHome as string, cacheDirectoryOf(plugin, '1.0.0'), '.codex-plugin')));
    },
    run: async (ports, world) => {
      const report = await recoverDirectories({ ...ports, openPackage: portPackage(ports.fs) }, world.homes, { at: '2025-06-01T00:00:00.000Z' })();
      return E.isRight(report) && report.right.plugins.every((entry) => entry.outcome._tag === 'Rebuilt' || entry.outcome._tag === 'Unchanged');
    },
  },
];

const scratch = mkdtempSync(join(tmpdir(), 'sync-tx-faults-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type PortKind = 'memory' | 'disk';

/** A copy of an in-memory file system (entries are never changed in place, so they are shared). */
const cloneMemory = (from: MemoryFileSystem): MemoryFileSystem => {
  const copy = new MemoryFileSystem();
  for (const [path, entry] of from.tree('/')) {
    if (entry.kind === 'directory') copy.addDirectory(path, entry.mode);
    else if (entry.kind === 'file') copy.addFile(path, entry.bytes, entry.mode);
    else copy.addSymlink(entry.target, path);
  }
  return copy;
};

/** A copy of a world: the same state on a fresh in-memory port, or restored at the same place on disk. */
type Copier = (world: World) => World;

/** Builds the old state of `scenario` on a fresh port once; every later call returns a fresh copy of it. */
const worlds = (kind: PortKind, scenario: Scenario, index: number): (() => Promise<World>) => {
  let template: { readonly world: World; readonly copy: Copier } | null = null;
  return async () => {
    if (template === null) {
      const world = await emptyWorld(kind, index, scenario.homes ?? ((h) => h));
      await scenario.setUp?.(world);
      template = { world, copy: copierOf(kind, world, index) };
    }
    return template.copy(template.world);
  };
};

/** The sandbox with its user content, nothing installed. */
const emptyWorld = async (kind: PortKind, index: number, homesOf: (homes: Homes) => Homes): Promise<World> => {
  if (kind === 'memory') {
    const fs = new MemoryFileSystem();
    return { fs, root: '/sandbox', homes: homesOf(await sandboxThrough(fs, '/sandbox')), staging: '/staging' };
  }
  const fs = nodeFileSystem({ durability: 'none' });
  const root = join(scratch, `run-${index}`);
  const staging = join(scratch, `staging-${index}`);
  rmSync(root, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
  return { fs, root, homes: homesOf(await sandboxThrough(fs, root)), staging };
};

/** Copies a world: in memory, a clone; on disk, the tree (and staging) copied aside once and copied back each time. */
const copierOf = (kind: PortKind, world: World, index: number): Copier => {
  if (kind === 'memory') return (from) => ({ ...from, fs: cloneMemory(from.fs as MemoryFileSystem) });
  const saved = join(scratch, `template-${index}`);
  const savedStaging = join(scratch, `template-staging-${index}`);
  const copy = (from: string, to: string): void => {
    rmSync(to, { recursive: true, force: true });
    if (existsSync(from)) cpSync(from, to, { recursive: true, verbatimSymlinks: true, force: true });
  };
  copy(world.root, saved);
  copy(world.staging, savedStaging);
  return (from) => {
    copy(saved, from.root);
    copy(savedStaging, from.staging);
    return from;
  };
};

/**
 * The whole sandbox, byte for byte: `snapshotTree` through the port; on the in-memory port the same
 * snapshot read straight from its entries (checked equal to `snapshotTree` once per scenario), which is
 * many times faster.
 */
const snapshot = async (world: World): Promise<TreeSnapshot> => {
  if (!(world.fs instanceof MemoryFileSystem)) return rightOf(snapshotTree(world.fs, world.root));
  const fs = world.fs;
  return fs
    .tree(world.root)
    .filter(([path]) => path !== world.root)
    .map(([path, entry]): readonly [string, TreeEntry] => [
      path.slice(world.root.length + 1),
      entry.kind === 'file' ? { kind: 'file', mode: entry.mode, sha256: fs.digest(entry.bytes), size: entry.bytes.length } : entry.kind === 'directory' ? { kind: 'directory', mode: entry.mode } : { kind: 'symlink', target: entry.target },
    ]);
};

const describeMutation = (world: World, m: { readonly index: number; readonly operation: string; readonly path: string }): string =>
  `#${m.index} ${m.operation} ${m.path.split(world.root).join('…')}`;

/** What a scenario's clean run shows: the old and the new tree and the steps between them. */
interface Probe {
  readonly fresh: () => Promise<World>;
  readonly oldTree: TreeSnapshot;
  readonly newTree: TreeSnapshot;
  readonly steps: ReadonlyArray<Mutation>;
}

const probeOf = async (kind: PortKind, scenario: Scenario, index: number): Promise<Probe> => {
  const fresh = worlds(kind, scenario, index);
  const world = await fresh();
  const oldTree = await snapshot(world);
  const counted = failingAt(world.fs, -1, 'EIO');
  expect(await scenario.run(portsOf(counted.fs), world)).toBe(true);
  const newTree = await snapshot(world);
  expect(await rightOf(snapshotTree(world.fs, world.root))).toEqual(newTree);
  expect(newTree).not.toEqual(oldTree);
  expect(temporaryPathsIn(newTree)).toEqual([]);
  expect(counted.mutations().length).toBeGreaterThan(5);
  return { fresh, oldTree, newTree, steps: counted.mutations() };
};

/**
 * Runs the scenario from its old state with `step` failing with `code`: no temporary file, the new tree
 * when it answered success and the old one when it answered failure, and a retry that gives the new
 * tree. Whether it answered success.
 */
const checkStep = async (scenario: Scenario, probe: Probe, step: Mutation, code: string): Promise<boolean> => {
  const world = await probe.fresh();
  const faulty = failingAt(world.fs, step.index, code);
  const succeeded = await scenario.run(portsOf(faulty.fs), world);
  const label = `${describeMutation(world, step)} failing with ${code}`;
  expect(faulty.fired(), label).toBe(true);
  const tree = await snapshot(world);
  expect(temporaryPathsIn(tree), label).toEqual([]);
  expect(tree, `${label}: ${succeeded ? 'answered success' : 'answered failure'}`).toEqual(succeeded ? probe.newTree : probe.oldTree);
  expect(await scenario.run(portsOf(world.fs), world), `retry after ${label}`).toBe(true);
  expect(await snapshot(world), `retry after ${label}`).toEqual(probe.newTree);
  return succeeded;
};

describe('every mutation with each step failing with each code (in-memory file system)', () => {
  it.each(scenarios.map((scenario, index) => [scenario.name, scenario, index] as const))('%s', async (_name, scenario, index) => {
    const probe = await probeOf('memory', scenario, index);
    const outcomes = { failed: 0, succeeded: 0 };
    for (const step of probe.steps)
      for (const code of DISK_FAULT_CODES) outcomes[(await checkStep(scenario, probe, step, code)) ? 'succeeded' : 'failed']++;
    // Faults before the commit mark fail the mutation; a fault in its cleanup does not undo it.
    expect(outcomes.failed).toBeGreaterThan(0);
    expect(outcomes.succeeded).toBeGreaterThan(0);
  }, 120_000);
});

describe('every mutation with a step failing (real file system)', () => {
  // A run on disk costs many times one in memory: here fast-check picks the mutation, the step and the code.
  const probes = new Map<number, Promise<Probe>>();
  const probed = (index: number): Promise<Probe> => {
    let probe = probes.get(index);
    if (probe === undefined) probes.set(index, (probe = probeOf('disk', scenarios[index] as Scenario, index)));
    return probe;
  };

  it('the old tree or the new one, byte for byte, no temporary file, and the retry succeeds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: scenarios.length - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.constantFrom(...DISK_FAULT_CODES), async (index, at, code) => {
        const probe = await probed(index);
        await checkStep(scenarios[index] as Scenario, probe, probe.steps[Math.floor(at * probe.steps.length)] as Mutation, code);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});

describe.each(['memory', 'disk'] as const)('start-up recovery with each step failing (%s file system)', (kind) => {
  const scenario = scenarios[2] as Scenario;
  const change = install('2.0.0');

  it('from a crash at any step of an update, a recovery failing at a step leaves what the next recovery completes to the old or the new tree', async () => {
    const fresh = worlds(kind, scenario, 100);
    const probe = await fresh();
    const oldTree = await snapshot(probe);
    const counted = failingAt(probe.fs, -1, 'EIO');
    expect(await committed(commitChange(portsOf(counted.fs), probe.homes, change)())).toBe(true);
    const newTree = await snapshot(probe);
    const steps = counted.mutations();
    const commitMark = steps.filter((m) => m.operation === 'rename' && m.path.includes('/journal.forms@wework.json')).map((m) => m.index)[1] as number;
    expect(commitMark).toBeGreaterThan(0);

    /** The state a process that crashed before its mutation `crash` left (its lock included). */
    const crashed = async (crash: number): Promise<World> => {
      const world = await fresh();
      const dead = instrumentFileSystem(world.fs, (m) => m.index < crash || 'EIO');
      await commitChange(portsOf(dead, 2), world.homes, change)();
      return world;
    };

    /** Recovery of the crash at `crash` with its step `step` failing with `code`, then a clean recovery and the next mutation. */
    const recoverWithFault = async (crash: number, expected: TreeSnapshot, step: Mutation, code: string): Promise<void> => {
      const world = await crashed(crash);
      const faulty = failingAt(world.fs, step.index, code);
      const failed = await recoverAll(faulty.fs, testHost(LIVE), world.homes)();
      const label = `crash at ${crash}, recovery ${describeMutation(world, step)} failing with ${code}`;
      expect(faulty.fired(), label).toBe(true);
      if (E.isRight(failed) && failed.right.plugins.every((p) => p.outcome._tag !== 'Conflict')) expect(await snapshot(world), label).toEqual(expected);
      expect(await recoverAll(world.fs, testHost(LIVE), world.homes)(), label).toMatchObject({ _tag: 'Right' });
      const tree = await snapshot(world);
      expect(temporaryPathsIn(tree), label).toEqual([]);
      expect(tree, label).toEqual(expected);
      expect(await commitChange(portsOf(world.fs), world.homes, install('3.0.0'))(), `next mutation after ${label}`).toMatchObject({ right: { outcome: 'Committed' } });
    };

    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: steps.length - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.constantFrom(...DISK_FAULT_CODES), async (crash, at, code) => {
        const expected = crash <= commitMark ? oldTree : newTree;
        const probeWorld = await crashed(crash);
        const recovering = failingAt(probeWorld.fs, -1, 'EIO');
        expect(await recoverAll(recovering.fs, testHost(LIVE), probeWorld.homes)()).toMatchObject({ _tag: 'Right' });
        expect(await snapshot(probeWorld), `crash at ${crash}`).toEqual(expected);
        const recoverySteps = recovering.mutations();
        // In memory every step of the recovery with every code; on disk one step and code fast-check picks.
        if (kind === 'memory') for (const step of recoverySteps) for (const each of DISK_FAULT_CODES) await recoverWithFault(crash, expected, step, each);
        else await recoverWithFault(crash, expected, recoverySteps[Math.floor(at * recoverySteps.length)] as Mutation, code);
      }),
      { numRuns: kind === 'memory' ? 3 : 4 },
    );
  }, 120_000);
});

// The in-memory port and the real one agree on what a mutation writes.
describe('the two ports', () => {
  it('an update writes the same tree on both', async () => {
    const trees: TreeSnapshot[] = [];
    for (const kind of ['memory', 'disk'] as const) {
      const world = await worlds(kind, scenarios[2] as Scenario, 200)();
      expect(await committed(commitChange(portsOf(world.fs), world.homes, install('2.0.0'))())).toBe(true);
      trees.push(await snapshot(world));
    }
    // Registries record absolute paths: compare with the roots taken out.
    const [memory, disk] = trees.map((tree) => tree.map(([path, entry]) => [path, entry.kind]));
    expect(disk).toEqual(memory);
  });
});
