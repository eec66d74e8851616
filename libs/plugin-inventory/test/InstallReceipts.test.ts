import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeReceipts,
  dropReceipt,
  encodeReceipts,
  mergeInventory,
  pruneReceipts,
  RECEIPT_WINDOW_MS,
  recordReceipt,
  samePlugin,
  type InstallReceipt,
  type PluginRef,
} from '../src/index.js';
import { receiptActive, type InventoryEntry } from '../src/InstallReceipts.js';
import { makeFakeClock, pluginRefArbitrary, receiptArbitrary, timeArbitrary } from '../src/testing.js';

const ref = (name: string, marketplace = 'wegent'): PluginRef => ({ name, marketplace }) as PluginRef;
const FIVE_MIN = 5 * 60 * 1000;

/** A few refs so inventory entries and receipts collide. */
const smallRef = fc.constantFrom(ref('notes'), ref('sites'), ref('notes', 'wework'), ref('mail', 'wework-personal'));
const inventoryArbitrary = fc.uniqueArray(fc.record({ ref: smallRef, installed: fc.boolean() }), { selector: (entry) => `${entry.ref.name}@${entry.ref.marketplace}` });

describe('install receipts', () => {
  it('bridge the race for five minutes from acceptedAt, then stop', () => {
    const clock = makeFakeClock();
    const receipts = recordReceipt([], { ref: ref('notes'), acceptedAt: clock.now() }, clock.now());
    const inventory: InventoryEntry[] = [];
    expect(mergeInventory(inventory, receipts, clock.now()).plugins).toMatchObject([{ _tag: 'Bridged', installed: true, entry: null }]);
    expect(mergeInventory(inventory, receipts, clock.now()).nextChangeAt).toBe(clock.now() + FIVE_MIN);
    clock.advance(FIVE_MIN - 1);
    expect(mergeInventory(inventory, receipts, clock.now()).plugins).toHaveLength(1);
    clock.advance(1);
    expect(mergeInventory(inventory, receipts, clock.now()).plugins).toEqual([]);
    expect(mergeInventory(inventory, receipts, clock.now()).nextChangeAt).toBeNull();
  });

  it('a bridged plugin is never shown beyond five minutes after its acceptedAt (property)', () => {
    fc.assert(
      fc.property(inventoryArbitrary, fc.array(receiptArbitrary(smallRef), { maxLength: 6 }), timeArbitrary, (inventory, receipts, now) => {
        const merged = mergeInventory(inventory, receipts, now);
        for (const shown of merged.plugins) {
          if (shown._tag !== 'Bridged') continue;
          expect(shown.acceptedAt).toBeLessThanOrEqual(now);
          expect(now).toBeLessThan(shown.acceptedAt + RECEIPT_WINDOW_MS);
          expect(shown.expiresAt).toBe(shown.acceptedAt + RECEIPT_WINDOW_MS);
          expect(receipts.some((receipt) => samePlugin(receipt.ref, shown.ref) && receipt.acceptedAt === shown.acceptedAt)).toBe(true);
        }
        const bridged = merged.plugins.filter((shown) => shown._tag === 'Bridged');
        expect(merged.nextChangeAt).toBe(bridged.length === 0 ? null : Math.min(...bridged.map((shown) => shown.expiresAt)));
      }),
    );
  });

  it('legacy receipts never override inventory (property)', () => {
    fc.assert(
      fc.property(inventoryArbitrary, fc.array(smallRef, { maxLength: 6 }), timeArbitrary, (inventory, refs, now) => {
        const legacy: InstallReceipt[] = refs.map((r) => ({ ref: r, acceptedAt: null }));
        expect(mergeInventory(inventory, legacy, now)).toEqual({
          plugins: inventory.map((entry) => ({ _tag: 'Listed', ref: entry.ref, installed: entry.installed, entry })),
          nextChangeAt: null,
        });
      }),
    );
  });

  it('keeps inventory order, never hides an installed plugin, and lists each plugin once (property)', () => {
    fc.assert(
      fc.property(inventoryArbitrary, fc.array(receiptArbitrary(smallRef), { maxLength: 6 }), timeArbitrary, (inventory, receipts, now) => {
        const merged = mergeInventory(inventory, receipts, now);
        expect(merged.plugins.slice(0, inventory.length).map((shown) => shown.ref)).toEqual(inventory.map((entry) => entry.ref));
        inventory.forEach((entry, index) => {
          const shown = merged.plugins[index];
          if (entry.installed) expect(shown).toEqual({ _tag: 'Listed', ref: entry.ref, installed: true, entry });
          else expect(shown?.installed).toBe(receipts.some((receipt) => samePlugin(receipt.ref, entry.ref) && receiptActive(receipt, now)));
        });
        const keys = merged.plugins.map((shown) => `${shown.ref.name}@${shown.ref.marketplace}`);
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });

  it('re-saving never extends the window (model-based, fake clock)', () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3 * 60 * 1000 }) }),
      fc.record({ op: fc.constant('resave' as const), ms: fc.constant(0) }),
      fc.record({ op: fc.constant('resaveOriginal' as const), ms: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const clock = makeFakeClock();
        const target = ref('notes');
        let receipts = recordReceipt([], { ref: target, acceptedAt: clock.now() }, clock.now());
        // The model: the start of the current window. A re-save only starts a new one after the old expired.
        let windowStart = clock.now();
        for (const { op, ms } of steps) {
          if (op === 'advance') clock.advance(ms);
          else {
            const now = clock.now();
            const stored = receipts.find((receipt) => samePlugin(receipt.ref, target));
            const acceptedAt = op === 'resave' ? now : (stored?.acceptedAt ?? now);
            if (now >= windowStart + FIVE_MIN) windowStart = acceptedAt;
            receipts = recordReceipt(receipts, { ref: target, acceptedAt }, now);
          }
          const merged = mergeInventory([{ ref: target, installed: false }], receipts, clock.now());
          const shown = merged.plugins[0];
          expect(receipts).toHaveLength(1);
          expect(shown?.installed).toBe(clock.now() < windowStart + FIVE_MIN);
          if (shown?._tag === 'Bridged') expect(shown.expiresAt).toBe(windowStart + FIVE_MIN);
        }
      }),
    );
  });

  it('prunes expired, legacy and confirmed receipts; drops on uninstall', () => {
    const now = 1_700_000_000_000;
    const receipts: InstallReceipt[] = [
      { ref: ref('a'), acceptedAt: now - 1000 },
      { ref: ref('b'), acceptedAt: now - FIVE_MIN },
      { ref: ref('c'), acceptedAt: null },
      { ref: ref('d'), acceptedAt: now - 10 },
    ];
    expect(pruneReceipts(receipts, [{ ref: ref('d'), installed: true }], now)).toEqual([receipts[0]]);
    expect(dropReceipt(receipts, ref('a'))).toEqual(receipts.slice(1));
  });

  it('a receipt from the future does not bridge', () => {
    const now = 1_700_000_000_000;
    expect(mergeInventory([], [{ ref: ref('a'), acceptedAt: now + 1 }], now).plugins).toEqual([]);
  });

  it('stored receipts: decode never throws, invalid timestamps become legacy, round trip keeps valid ones', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const decoded = decodeReceipts(value);
        for (const receipt of decoded) expect(receipt.acceptedAt === null || Number.isFinite(receipt.acceptedAt)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.array(receiptArbitrary(pluginRefArbitrary)), (receipts) => {
        expect(decodeReceipts(JSON.parse(JSON.stringify(encodeReceipts(receipts))))).toEqual(receipts);
      }),
    );
    expect(decodeReceipts([{ ref: 'plugin://a@wegent', acceptedAt: 'yesterday' }, { ref: 'nope' }, { ref: 'plugin://b@wegent' }])).toEqual([
      { ref: ref('a'), acceptedAt: null },
      { ref: ref('b'), acceptedAt: null },
    ]);
  });
});
