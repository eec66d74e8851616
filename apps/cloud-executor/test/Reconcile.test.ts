import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryDelay } from '@wework/plugin-inventory';
import { pluginKey } from '@wework/plugin-inventory';
import { emptyManifest, withRecord, type Homes, type Manifest, type ManifestRecord } from '@wework/sync-transaction';
import type { DesiredPlugin } from '../src/DesiredState.js';
import { afterRemovalAttempt, emptySchedule, nextRetryAt, planReconcile, pruneSchedule } from '../src/Reconcile.js';

const homes: Homes = { codexHome: '/h/codex', claudeHome: '/h/claude', stateDirectory: '/h/codex/wework-plugins', runtimeTarget: 'codex' };
const want = (name: string, version: string): DesiredPlugin => ({ name, marketplace: 'wegent', version, package: { path: `/downloads/${name}-${version}` } });
const record = (status: ManifestRecord['status'], version: string | null, claude = false): ManifestRecord => ({
  status,
  version,
  digest: version === null ? null : 'd',
  caches: [
    { home: 'codex', path: `plugins/cache/wegent/x/${version ?? '1'}` },
    ...(claude ? [{ home: 'claude' as const, path: `plugins/cache/wegent/x/${version ?? '1'}` }] : []),
  ],
  updatedAt: 't',
});
const manifestOf = (records: Record<string, ManifestRecord>): Manifest =>
  Object.entries(records).reduce((m, [key, r]) => withRecord(m, { name: key.split('@')[0] as string, marketplace: key.split('@')[1] as string }, r), emptyManifest);
const now = 1_700_000_000_000;

describe('planReconcile', () => {
  it('installs missing, outdated and re-desired plugins; removes ours that are no longer desired; leaves the rest', () => {
    const manifest = manifestOf({
      'same@wegent': record('installed', '1.0.0'),
      'old@wegent': record('installed', '1.0.0'),
      'gone@wegent': record('installed', '1.0.0'),
      'back@wegent': record('uninstalled', null),
      'tomb@wegent': record('uninstalled', null),
    });
    const actions = planReconcile({ desired: [want('same', '1.0.0'), want('old', '2.0.0'), want('new', '1.0.0'), want('back', '3.0.0')], manifest, homes, schedule: emptySchedule, now });
    expect(actions).toEqual([
      { _tag: 'Remove', plugin: { name: 'gone', marketplace: 'wegent' }, reason: 'NotDesired' },
      { _tag: 'Install', plugin: { name: 'back', marketplace: 'wegent' }, version: '3.0.0', packagePath: '/downloads/back-3.0.0', reason: 'Reinstalled' },
      { _tag: 'Install', plugin: { name: 'new', marketplace: 'wegent' }, version: '1.0.0', packagePath: '/downloads/new-1.0.0', reason: 'Missing' },
      { _tag: 'Install', plugin: { name: 'old', marketplace: 'wegent' }, version: '2.0.0', packagePath: '/downloads/old-2.0.0', reason: 'Outdated' },
    ]);
  });

  it('in Codex-only mode, an uninstalled plugin with recorded Claude caches is removed again to clean them; in dual mode it is not', () => {
    const manifest = manifestOf({ 'stale@wegent': record('uninstalled', null, true), 'clean@wegent': record('uninstalled', null) });
    expect(planReconcile({ desired: [], manifest, homes, schedule: emptySchedule, now })).toEqual([
      { _tag: 'Remove', plugin: { name: 'stale', marketplace: 'wegent' }, reason: 'StaleClaudeState' },
    ]);
    expect(planReconcile({ desired: [], manifest, homes: { ...homes, runtimeTarget: 'dual' }, schedule: emptySchedule, now })).toEqual([]);
  });

  it('never acts on a plugin the manifest does not record as ours, and removes only what it records', () => {
    const key = fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('wegent', 'wework'));
    fc.assert(
      fc.property(
        fc.dictionary(key.map(([n, m]) => `${n}@${m}`), fc.constantFrom<ManifestRecord>(record('installed', '1.0.0'), record('uninstalled', null), record('uninstalled', null, true), record('installed', '2.0.0', true))),
        fc.uniqueArray(fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), marketplace: fc.constantFrom('wegent', 'wework'), version: fc.constantFrom('1.0.0', '2.0.0') }), { selector: (p) => `${p.name}@${p.marketplace}` }),
        (records, desired) => {
          const manifest = manifestOf(records);
          const wanted = desired.map((p) => ({ ...p, package: { path: '/p' } }));
          const actions = planReconcile({ desired: wanted, manifest, homes, schedule: emptySchedule, now });
          const wantedKeys = new Set(desired.map((p) => pluginKey(p)));
          for (const action of actions) {
            const k = pluginKey(action.plugin);
            if (action._tag === 'Install') expect(wantedKeys.has(k)).toBe(true);
            else {
              expect(records[k]).toBeDefined();
              expect(wantedKeys.has(k)).toBe(false);
            }
          }
          // Every desired plugin ends up installed at its version: installed already, or installed now.
          for (const p of desired) {
            const r = records[pluginKey(p)];
            const installing = actions.some((a) => a._tag === 'Install' && pluginKey(a.plugin) === pluginKey(p) && a.version === p.version);
            expect(installing || (r?.status === 'installed' && r.version === p.version)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('failed removals back off', () => {
  const plugin = { name: 'gone', marketplace: 'wegent' };
  const manifest = manifestOf({ 'gone@wegent': record('installed', '1.0.0') });

  it('the first attempt is immediate; each failure defers the next by the plugin-inventory backoff; success forgets it', () => {
    let schedule = emptySchedule;
    let t = now;
    for (let failures = 1; failures <= 8; failures++) {
      expect(planReconcile({ desired: [], manifest, homes, schedule, now: t })).toEqual([{ _tag: 'Remove', plugin, reason: 'NotDesired' }]);
      schedule = afterRemovalAttempt(schedule, plugin, false, t);
      const due = t + retryDelay(failures);
      expect(nextRetryAt(schedule)).toBe(due);
      expect(planReconcile({ desired: [], manifest, homes, schedule, now: due - 1 })).toEqual([{ _tag: 'RemovalDeferred', plugin, reason: 'NotDesired', nextAttemptAt: due }]);
      t = due;
    }
    expect(retryDelay(8)).toBe(3_600_000);
    schedule = afterRemovalAttempt(schedule, plugin, true, t);
    expect(nextRetryAt(schedule)).toBeNull();
  });

  it('a plugin desired again drops out of the schedule', () => {
    const schedule = afterRemovalAttempt(emptySchedule, plugin, false, now);
    const actions = planReconcile({ desired: [want('gone', '1.0.0')], manifest, homes, schedule, now });
    expect(actions).toEqual([]);
    expect(pruneSchedule(schedule, actions).size).toBe(0);
  });
});
