/**
 * Install receipts bridge the discovery race: Codex may accept an installation before
 * `plugin/installed` lists the plugin. A receipt records when the installation was accepted
 * (`acceptedAt`, epoch ms) and, for at most five minutes from that original time, makes the UI show
 * the plugin as installed even though the authoritative inventory does not (yet). After that, or
 * for a legacy receipt without a timestamp, the inventory alone decides.
 *
 * Every function here is pure: receipts are immutable values and the time is a `now` argument.
 */
import * as t from 'io-ts';
import { PluginRefFromString, samePlugin, type PluginRef } from './PluginRef.js';

/** How long a receipt can bridge the discovery race, from its original `acceptedAt`: five minutes. */
export const RECEIPT_WINDOW_MS = 5 * 60 * 1000;

/** A receipt: the plugin whose installation was accepted and when (`null`: a legacy receipt). */
export interface InstallReceipt {
  readonly ref: PluginRef;
  /** Epoch ms of the original acceptance; `null` for legacy receipts, which never override inventory. */
  readonly acceptedAt: number | null;
}

/** Whether a receipt bridges the race at `now`: timestamped and `acceptedAt <= now < acceptedAt + 5 min`. */
export const receiptActive = (receipt: InstallReceipt, now: number): boolean =>
  receipt.acceptedAt !== null && receipt.acceptedAt <= now && now < receipt.acceptedAt + RECEIPT_WINDOW_MS;

/** When a receipt stops bridging (`acceptedAt + 5 min`), or `null` for a legacy receipt. */
export const receiptExpiresAt = (receipt: InstallReceipt): number | null =>
  receipt.acceptedAt === null ? null : receipt.acceptedAt + RECEIPT_WINDOW_MS;

/**
 * Saves a receipt into the list. Re-saving never extends a window: if an active receipt for the same
 * plugin exists, the earlier of the two `acceptedAt` values is kept. An expired or legacy receipt for
 * the plugin is replaced. Other plugins' receipts are untouched; the list keeps one receipt per plugin.
 * @example
 * ```ts
 * const once = recordReceipt([], { ref, acceptedAt: 1_000 }, 1_000);
 * recordReceipt(once, { ref, acceptedAt: 200_000 }, 200_000); // still acceptedAt 1_000
 * ```
 */
export const recordReceipt = (receipts: ReadonlyArray<InstallReceipt>, incoming: InstallReceipt, now: number): ReadonlyArray<InstallReceipt> => {
  const existing = receipts.find((receipt) => samePlugin(receipt.ref, incoming.ref));
  const others = receipts.filter((receipt) => !samePlugin(receipt.ref, incoming.ref));
  if (existing === undefined || existing.acceptedAt === null || !receiptActive(existing, now)) return [...others, incoming];
  const acceptedAt = incoming.acceptedAt === null ? existing.acceptedAt : Math.min(existing.acceptedAt, incoming.acceptedAt);
  return [...others, { ref: existing.ref, acceptedAt }];
};

/** What the authoritative inventory says about one plugin. */
export interface InventoryEntry {
  readonly ref: PluginRef;
  /** Whether `plugin/installed` (or the cloud inventory) lists it as installed. */
  readonly installed: boolean;
}

/** A plugin as the UI shows it after merging inventory and receipts. */
export type ShownPlugin<A extends InventoryEntry> =
  /** The inventory's word, unchanged. */
  | { readonly _tag: 'Listed'; readonly ref: PluginRef; readonly installed: boolean; readonly entry: A }
  /**
   * Shown as installed because of an active receipt: the inventory lists it as not installed
   * (`entry` is that entry) or does not list it at all (`entry` is `null`).
   */
  | {
      readonly _tag: 'Bridged';
      readonly ref: PluginRef;
      readonly installed: true;
      readonly entry: A | null;
      readonly acceptedAt: number;
      readonly expiresAt: number;
    };

/** The merged view and when it next changes by itself. */
export interface MergedInventory<A extends InventoryEntry> {
  readonly plugins: ReadonlyArray<ShownPlugin<A>>;
  /**
   * The earliest `expiresAt` of the bridged plugins: merge again at that time (nothing else changes
   * the view without new inventory or receipts). `null` when nothing is bridged.
   */
  readonly nextChangeAt: number | null;
}

/**
 * What the UI shows at `now`, given the authoritative inventory and the receipts:
 *
 * 1. Every inventory entry, in inventory order. An entry listed as installed is shown as installed
 *    (`Listed`). An entry listed as not installed is shown as installed (`Bridged`) only while an
 *    active receipt for the same plugin exists; otherwise `Listed` as not installed.
 * 2. Then every plugin with an active receipt that the inventory does not list at all, as `Bridged`
 *    with `entry: null`, in the receipts' order.
 *
 * A receipt is active when timestamped and `acceptedAt <= now < acceptedAt + 5 min`. Expired and
 * legacy (untimestamped) receipts are ignored: they never override the inventory. A receipt never
 * hides or uninstalls anything the inventory lists as installed.
 * @example
 * ```ts
 * const merged = mergeInventory(inventory, receipts, clock.now());
 * // merged.plugins: Listed | Bridged, merged.nextChangeAt: when to merge again (or null)
 * ```
 */
export const mergeInventory = <A extends InventoryEntry>(
  inventory: ReadonlyArray<A>,
  receipts: ReadonlyArray<InstallReceipt>,
  now: number,
): MergedInventory<A> => {
  const active = receipts.filter((receipt) => receiptActive(receipt, now));
  const activeFor = (ref: PluginRef): InstallReceipt | undefined => active.find((receipt) => samePlugin(receipt.ref, ref));
  const plugins: ShownPlugin<A>[] = [];
  const expiries: number[] = [];
  const bridged = (ref: PluginRef, entry: A | null, acceptedAt: number): ShownPlugin<A> => {
    const expiresAt = acceptedAt + RECEIPT_WINDOW_MS;
    expiries.push(expiresAt);
    return { _tag: 'Bridged', ref, installed: true, entry, acceptedAt, expiresAt };
  };
  for (const entry of inventory) {
    const acceptedAt = entry.installed ? null : (activeFor(entry.ref)?.acceptedAt ?? null);
    plugins.push(acceptedAt === null ? { _tag: 'Listed', ref: entry.ref, installed: entry.installed, entry } : bridged(entry.ref, entry, acceptedAt));
  }
  const seen: PluginRef[] = [];
  for (const receipt of active) {
    if (receipt.acceptedAt === null) continue;
    if (inventory.some((entry) => samePlugin(entry.ref, receipt.ref)) || seen.some((ref) => samePlugin(ref, receipt.ref))) continue;
    seen.push(receipt.ref);
    plugins.push(bridged(receipt.ref, null, receipt.acceptedAt));
  }
  return { plugins, nextChangeAt: expiries.length === 0 ? null : Math.min(...expiries) };
};

/**
 * The receipts still worth keeping at `now`: active ones whose plugin the inventory does not yet list
 * as installed. Expired and legacy receipts, and receipts the inventory has confirmed, are dropped.
 */
export const pruneReceipts = (
  receipts: ReadonlyArray<InstallReceipt>,
  inventory: ReadonlyArray<InventoryEntry>,
  now: number,
): ReadonlyArray<InstallReceipt> =>
  receipts.filter((receipt) => receiptActive(receipt, now) && !inventory.some((entry) => entry.installed && samePlugin(entry.ref, receipt.ref)));

/** Removes the receipt of one plugin (for example when the person uninstalls it). */
export const dropReceipt = (receipts: ReadonlyArray<InstallReceipt>, ref: PluginRef): ReadonlyArray<InstallReceipt> =>
  receipts.filter((receipt) => !samePlugin(receipt.ref, ref));

/** The stored form of a receipt: `{ ref: 'plugin://name@marketplace', acceptedAt?: number | null }`. */
export const StoredInstallReceipt = t.intersection(
  [t.type({ ref: PluginRefFromString }), t.partial({ acceptedAt: t.unknown })],
  'StoredInstallReceipt',
);

/** A receipt in its stored form. */
export interface StoredReceipt {
  readonly ref: string;
  readonly acceptedAt: number | null;
}

/** The stored form of receipts (`encodeReceipts(decodeReceipts(x))` keeps every valid receipt). */
export const encodeReceipts = (receipts: ReadonlyArray<InstallReceipt>): ReadonlyArray<StoredReceipt> =>
  receipts.map((receipt) => ({ ref: PluginRefFromString.encode(receipt.ref), acceptedAt: receipt.acceptedAt }));

const validTimestamp = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

/**
 * Reads stored receipts (untrusted JSON); never throws. Entries without a valid `ref` are dropped. An
 * `acceptedAt` that is missing, `null` or not a finite non-negative number makes a legacy receipt,
 * which never overrides inventory. Anything but an array gives no receipts.
 */
export const decodeReceipts = (stored: unknown): ReadonlyArray<InstallReceipt> => {
  if (!Array.isArray(stored)) return [];
  const receipts: InstallReceipt[] = [];
  for (const item of stored as ReadonlyArray<unknown>) {
    const decoded = StoredInstallReceipt.decode(item);
    if (decoded._tag === 'Right') receipts.push({ ref: decoded.right.ref, acceptedAt: validTimestamp(decoded.right.acceptedAt) });
  }
  return receipts;
};
