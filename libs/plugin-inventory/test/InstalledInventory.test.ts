import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleInventory, originOf, RECEIPT_WINDOW_MS, samePlugin, type ListedPlugin, type PluginRef } from '../src/index.js';
import type { InventorySources } from '../src/InstalledInventory.js';
import { makeFakeClock, pluginRefArbitrary, receiptArbitrary, timeArbitrary } from '../src/testing.js';

const ref = (name: string, marketplace: string): PluginRef => ({ name, marketplace });
const listed = (plugin: PluginRef, enabled = true): ListedPlugin => ({ ref: plugin, enabled, version: '1.0.0', description: null, presentation: null });
const none: InventorySources = { listed: [], configured: [], cloud: [], failedUpdates: [], receipts: [] };

const sourcesArbitrary: fc.Arbitrary<InventorySources> = fc.record({
  listed: fc.array(pluginRefArbitrary.chain((plugin) => fc.boolean().map((enabled) => listed(plugin, enabled))), { maxLength: 5 }),
  configured: fc.array(fc.record({ ref: pluginRefArbitrary, enabled: fc.boolean() }), { maxLength: 4 }),
  cloud: fc.array(pluginRefArbitrary, { maxLength: 3 }),
  failedUpdates: fc.array(fc.record({ ref: pluginRefArbitrary, reason: fc.constant('SyncFailed') }), { maxLength: 2 }),
  receipts: fc.array(receiptArbitrary(), { maxLength: 4 }),
});

describe('assembleInventory', () => {
  it('lists each plugin once, and every plugin Codex lists keeps its enablement and is not installing', () => {
    fc.assert(
      fc.property(sourcesArbitrary, timeArbitrary, (sources, now) => {
        const { plugins } = assembleInventory(sources, now);
        plugins.forEach((item, i) => expect(plugins.findIndex((other) => samePlugin(other.ref, item.ref))).toBe(i));
        for (const entry of sources.listed) {
          const item = plugins.find((candidate) => samePlugin(candidate.ref, entry.ref));
          expect(item).toBeDefined();
          expect(item?.status.kind === 'ok' || item?.status.kind === 'updateFailed').toBe(true);
        }
      }),
    );
  });

  it('a receipt shows an installation for at most five minutes from its acceptedAt; a legacy receipt never does (fake clock)', () => {
    const clock = makeFakeClock(1_700_000_000_000);
    const notes = ref('notes', 'alpha');
    const receipts = [{ ref: notes, acceptedAt: clock.now() }];
    clock.advance(RECEIPT_WINDOW_MS - 1);
    const bridged = assembleInventory({ ...none, receipts }, clock.now());
    expect(bridged.plugins).toEqual([
      { ref: notes, origin: 'custom', enabled: true, status: { kind: 'installing', acceptedAt: 1_700_000_000_000, expiresAt: 1_700_000_000_000 + RECEIPT_WINDOW_MS }, listed: null },
    ]);
    expect(bridged.nextChangeAt).toBe(1_700_000_000_000 + RECEIPT_WINDOW_MS);
    clock.advance(1);
    expect(assembleInventory({ ...none, receipts }, clock.now()).plugins).toEqual([]);
    expect(assembleInventory({ ...none, receipts: [{ ref: notes, acceptedAt: null }] }, clock.now()).plugins).toEqual([]);
  });

  it('a receipt never overrides what Codex lists', () => {
    fc.assert(
      fc.property(pluginRefArbitrary, fc.boolean(), timeArbitrary, (plugin, enabled, now) => {
        const { plugins } = assembleInventory({ ...none, listed: [listed(plugin, enabled)], receipts: [{ ref: plugin, acceptedAt: now }] }, now);
        expect(plugins).toHaveLength(1);
        expect(plugins[0]?.status).toEqual({ kind: 'ok' });
        expect(plugins[0]?.enabled).toBe(enabled);
      }),
    );
  });

  it('a configured plugin Codex no longer lists needs repair; a failed cloud update is shown on the listed plugin', () => {
    const gone = ref('notes', 'wework-personal');
    const sites = ref('sites', 'wegent');
    const { plugins } = assembleInventory({ ...none, listed: [listed(sites)], configured: [{ ref: gone, enabled: true }], cloud: [sites], failedUpdates: [{ ref: sites, reason: 'SyncFailed' }] }, 0);
    expect(plugins.map((item) => [item.ref.name, item.origin, item.status])).toEqual([
      ['sites', 'cloud', { kind: 'updateFailed', reason: 'SyncFailed' }],
      ['notes', 'personal', { kind: 'repairRequired', reason: 'MarketplaceUnavailable' }],
    ]);
  });

  it('a plugin start-up recovery could not recover is repairRequired with its reason, listed or not; the others are unaffected', () => {
    const sites = ref('sites', 'wegent');
    const notes = ref('notes', 'wegent');
    const forms = ref('forms', 'wegent');
    const { plugins } = assembleInventory(
      { ...none, listed: [listed(sites), listed(forms)], cloud: [sites, notes, forms], repairs: [{ ref: sites, reason: 'PackageMissing' }, { ref: notes, reason: 'DestinationOccupied' }] },
      0,
    );
    expect(plugins.map((item) => [item.ref.name, item.status])).toEqual([
      ['sites', { kind: 'repairRequired', reason: 'PackageMissing' }],
      ['forms', { kind: 'ok' }],
      ['notes', { kind: 'repairRequired', reason: 'DestinationOccupied' }],
    ]);
  });

  it('origins come from the marketplace identity', () => {
    expect(originOf(ref('a', 'openai-curated'), [])).toBe('official');
    expect(originOf(ref('a', 'wework-personal'), [])).toBe('personal');
    expect(originOf(ref('a', 'wegent'), [])).toBe('cloud');
    expect(originOf(ref('a', 'team'), [ref('a', 'team')])).toBe('cloud');
    expect(originOf(ref('a', 'team'), [])).toBe('custom');
  });
});
