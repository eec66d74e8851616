/**
 * Crash safety with real processes: a child process runs a multi-file transaction and is SIGKILLed
 * before each of its file-system mutations in turn; restart recovery then leaves both homes byte for
 * byte in the old or the new state, and its report says which. Two processes committing to the same
 * plugin at once serialise on the manifest lock.
 *
 * The child runs the built library (`dist/`; nx builds it before `test`).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginKey, type PluginRef } from '@wework/plugin-inventory';
import { recoverAll, type RecoveryReport } from '../src/Recovery.js';
import { commitChange, type SyncChange } from '../src/Transaction.js';
import { createNodePorts } from '../src/node/index.js';
import { childEntries, runChild, type ChildChange, type ChildRun, type ChildStep } from './support/child.js';
import { pluginPackage, sandboxAt, sourceOf, type Sandbox } from './support/homes.js';
import { hashTrees } from '@wework/test-support';

const plugin: PluginRef = { name: 'forms', marketplace: 'wework' };
const key = pluginKey(plugin);
const ports = createNodePorts({ durability: 'none' });

let scratch = '';
beforeAll(() => {
  if (!existsSync(new URL('../dist/node/index.js', import.meta.url))) throw new Error('build the library first (nx runs build before test)');
  scratch = mkdtempSync(join(tmpdir(), 'sync-tx-crash-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const install = (version: string, extraFiles = 0): ChildChange => ({ _tag: 'Install', plugin, version, at: `2025-03-0${version[0]}T00:00:00.000Z`, entries: childEntries(pluginPackage(version, extraFiles)) });
/** The same change, run in this process. */
const inProcess = (change: ChildChange): SyncChange =>
  change._tag === 'Remove' ? change : { ...change, source: sourceOf(pluginPackage(change.version, change.entries.length - pluginPackage(change.version).length)) };

interface Scenario {
  readonly name: string;
  /** Builds the old state at `root`. */
  readonly setUp: (root: string) => Promise<Sandbox>;
  readonly change: ChildChange;
}

const scenarios: ReadonlyArray<Scenario> = [
  {
    name: 'update 1.0.0 → 2.0.0 of a plugin the user disabled (both homes, old cache removed)',
    setUp: async (root) => {
      const box = sandboxAt(root);
      await commitChange(ports, box.homes, inProcess(install('1.0.0', 6)))();
      const config = join(box.homes.codexHome, 'config.toml');
      writeFileSync(config, readFileSync(config, 'utf8').replace('[plugins."forms@wework"]\nenabled = true', '[plugins."forms@wework"]\nenabled = false'));
      return box;
    },
    change: install('2.0.0', 6),
  },
  {
    name: 'first install into homes with user content',
    setUp: async (root) => sandboxAt(root),
    change: install('1.0.0', 6),
  },
  {
    name: 'uninstall',
    setUp: async (root) => {
      const box = sandboxAt(root);
      await commitChange(ports, box.homes, inProcess(install('1.0.0')))();
      return box;
    },
    change: { _tag: 'Remove', plugin, at: '2025-04-01T00:00:00.000Z' },
  },
  {
    name: 'Codex-only uninstall of a plugin installed for both runtimes (Claude registration, enablement and cache removed)',
    setUp: async (root) => {
      const box = sandboxAt(root);
      await commitChange(ports, box.homes, inProcess(install('1.0.0', 6)))();
      return { ...box, homes: { ...box.homes, runtimeTarget: 'codex' } };
    },
    change: { _tag: 'Remove', plugin, at: '2025-04-01T00:00:00.000Z' },
  },
];

const outcomeOf = (report: RecoveryReport): string => report.plugins.find((p) => p.plugin === key)?.outcome._tag ?? 'Nothing';

const isJournalRename = (step: ChildStep): boolean => step.operation === 'rename' && step.path.endsWith(`/journal.${key}.json`);

describe('a transaction SIGKILLed at every step', () => {
  it.each(scenarios)('$name: recovery leaves the old or the new tree, byte for byte, and says which', async (scenario) => {
    const root = join(scratch, 'homes');
    // The new state, and the steps of a complete run.
    const full = await runChild((await scenario.setUp(root)).homes, scenario.change, { announce: true });
    expect(full.result, full.stderr).toMatchObject({ _tag: 'Right', right: { outcome: 'Committed' } });
    const newHash = hashTrees(root);
    const oldHash = (await scenario.setUp(root)).hash();
    expect(newHash).not.toBe(oldHash);

    const steps = full.steps;
    const journalRenames = steps.filter(isJournalRename).map((s) => s.index);
    expect(journalRenames).toHaveLength(2);
    const [prepared, committed] = journalRenames as [number, number];
    const journalRemoved = steps.find((s) => s.operation === 'removeTree' && s.path.endsWith(`/journal.${key}.json`))?.index as number;
    expect(journalRemoved).toBeGreaterThan(committed);

    const seen: Record<string, number[]> = {};
    for (let k = 0; k <= steps.length; k++) {
      const box = await scenario.setUp(root);
      const run: ChildRun = await runChild(box.homes, scenario.change, { killAt: k });
      if (k < steps.length) expect(run.signal, `step ${k}`).toBe('SIGKILL');
      else expect(run.result).toMatchObject({ _tag: 'Right' });
      const report = await recoverAll(ports.fs, ports.host, box.homes)();
      if (E.isLeft(report)) throw new Error(`recovery after kill at ${k}: ${JSON.stringify(report.left)}`);
      const outcome = outcomeOf(report.right);
      const journalOnDisk = k > prepared && k <= journalRemoved;
      const expectedOutcome = !journalOnDisk ? 'Nothing' : k <= committed ? 'RolledBack' : 'Finished';
      const hash = box.hash();
      expect({ k, step: steps[k]?.operation, outcome, state: hash === oldHash ? 'old' : hash === newHash ? 'new' : 'MIXED' }).toEqual({
        k,
        step: steps[k]?.operation,
        outcome: expectedOutcome,
        state: k <= committed ? 'old' : 'new',
      });
      (seen[outcome] ??= []).push(k);
    }
    expect(Object.keys(seen).sort()).toEqual(['Finished', 'Nothing', 'RolledBack']);
    console.log(`${scenario.name}: killed at each of ${steps.length} steps; recovery ${Object.entries(seen).map(([o, ks]) => `${o} ×${ks.length}`).join(', ')}`);
  }, 600_000);
});

describe('two processes committing to one plugin', () => {
  const at = (root: string): Promise<Sandbox> => scenarios[0]?.setUp(root) as Promise<Sandbox>;
  const first = install('2.0.0', 40);
  const second = install('3.0.0', 40);

  /** The tree after applying `changes` in order, in process, from the old state at `root`. */
  const sequential = async (root: string, changes: ReadonlyArray<ChildChange>): Promise<string> => {
    const box = await at(root);
    for (const change of changes) expect(await commitChange(ports, box.homes, inProcess(change))()).toMatchObject({ right: { outcome: 'Committed' } });
    return box.hash();
  };

  it('serialise: the second waits for the lock while the first holds it, and the result is both in order', async () => {
    const root = join(scratch, 'concurrent');
    const expected = await sequential(root, [first, second]);
    const box = await at(root);
    let secondRun: Promise<ChildRun> | null = null;
    const firstRun = runChild(box.homes, first, {
      whileLocked: async () => {
        // The first holds the lock and is paused: start the second, and hold on until it has found the
        // lock taken and tried again (however slowly the machine starts it).
        let tries = 0;
        let retried: () => void = () => undefined;
        const secondRetried = new Promise<void>((resolve) => (retried = resolve));
        secondRun = runChild(box.homes, second, {
          lockTried: () => {
            if (++tries === 2) retried();
          },
        });
        await secondRetried;
      },
    });
    const a = await firstRun;
    const b = await (secondRun as unknown as Promise<ChildRun>);
    expect(a.result, a.stderr).toMatchObject({ _tag: 'Right', right: { outcome: 'Committed', lock: { waitedMs: 0, attempts: 1 } } });
    expect(b.result, b.stderr).toMatchObject({ _tag: 'Right', right: { outcome: 'Committed' } });
    const waited = (b.result as { right: { lock: { waitedMs: number; attempts: number } } }).right.lock;
    expect(waited.waitedMs).toBeGreaterThan(0);
    expect(waited.attempts).toBeGreaterThan(1);
    console.log(`lock wait of the second process: ${waited.waitedMs.toFixed(0)} ms over ${waited.attempts} attempts`);
    expect(box.hash()).toBe(expected);
  }, 120_000);

  it('started at the same instant, both complete and the final tree is one of the two orders, never a mix', async () => {
    const root = join(scratch, 'race');
    const orders = new Set([await sequential(root, [first, second]), await sequential(root, [second, first])]);
    expect(orders.size).toBe(2);
    const waits: string[] = [];
    for (let round = 0; round < 3; round++) {
      const box = await at(root);
      const [a, b] = await Promise.all([runChild(box.homes, first), runChild(box.homes, second)]);
      for (const run of [a, b]) expect(run.result, run.stderr).toMatchObject({ _tag: 'Right', right: { outcome: 'Committed' } });
      expect(orders.has(box.hash())).toBe(true);
      for (const run of [a, b]) {
        const lock = (run.result as { right: { lock: { waitedMs: number; attempts: number } } }).right.lock;
        waits.push(`${lock.waitedMs.toFixed(0)} ms/${lock.attempts}`);
      }
    }
    console.log(`lock waits (ms/attempts) per process, 3 rounds: ${waits.join(', ')}`);
  }, 120_000);
});
