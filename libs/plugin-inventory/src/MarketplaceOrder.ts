/**
 * The user's order of their custom marketplaces. The OpenAI official marketplace is never part of it
 * (it is always shown first and can be neither moved nor removed); the order holds custom marketplace
 * names only, and is stored by the executor as a small versioned JSON document.
 *
 * - {@link orderMarketplaces}: the custom marketplaces Codex reports, in the stored order; names the
 *   order does not know yet follow in Codex's order, names Codex no longer reports are left out.
 * - {@link reorderMarketplaces}: a requested order is accepted only when it is a permutation of the
 *   current custom names (no official, no unknown, no duplicate, none missing).
 *
 * Every function here is pure; decoding never throws, whatever the stored JSON.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { DecodeIssue } from '@wework/decode-issues';
import { decodeIssues } from './internal/decodeIssues.js';

/** The format version of a stored marketplace order. */
export const MARKETPLACE_ORDER_VERSION = 1;

/**
 * Codec of a stored marketplace order: `{ version: 1, names: string[], labels?: { [name]: label } }`
 * (the user's labels of their marketplaces; other fields are dropped).
 */
export const StoredMarketplaceOrder = t.exact(
  t.intersection([t.type({ version: t.literal(MARKETPLACE_ORDER_VERSION), names: t.readonlyArray(t.string) }), t.partial({ labels: t.record(t.string, t.string) })]),
  'StoredMarketplaceOrder',
);
/** A stored marketplace order. */
export type StoredMarketplaceOrder = t.TypeOf<typeof StoredMarketplaceOrder>;

/** A stored order that cannot be read (not JSON of the right shape or version). */
export interface InvalidMarketplaceOrder {
  readonly _tag: 'InvalidMarketplaceOrder';
  readonly issues: ReadonlyArray<DecodeIssue>;
}

/** The user's order of their custom marketplaces and the labels they gave them. */
export interface MarketplacePreferences {
  readonly names: ReadonlyArray<string>;
  readonly labels: Readonly<Record<string, string>>;
}

/** Reads a stored order (untrusted JSON); never throws. Duplicate names keep their first place. */
export const decodeMarketplaceOrder = (stored: unknown): E.Either<InvalidMarketplaceOrder, MarketplacePreferences> => {
  const decoded = StoredMarketplaceOrder.decode(stored);
  if (E.isLeft(decoded)) return E.left({ _tag: 'InvalidMarketplaceOrder', issues: decodeIssues(decoded.left) });
  return E.right({ names: [...new Set(decoded.right.names)], labels: { ...(decoded.right.labels ?? {}) } });
};

/** The JSON document that stores `preferences`. */
export const encodeMarketplaceOrder = (preferences: MarketplacePreferences): StoredMarketplaceOrder => ({
  version: MARKETPLACE_ORDER_VERSION,
  names: [...preferences.names],
  labels: { ...preferences.labels },
});

/**
 * The custom marketplaces in the user's order: first those of `stored` that Codex still reports (in
 * the stored order), then the ones the order does not know (in `reported`'s order). A permutation of
 * `reported` without its duplicates.
 * @example
 * ```ts
 * orderMarketplaces(['a', 'b', 'c'], ['c', 'gone', 'a']); // ['c', 'a', 'b']
 * ```
 */
export const orderMarketplaces = (reported: ReadonlyArray<string>, stored: ReadonlyArray<string>): ReadonlyArray<string> => {
  const present = new Set(reported);
  const known = stored.filter((name, index) => present.has(name) && stored.indexOf(name) === index);
  const placed = new Set(known);
  return [...known, ...[...present].filter((name) => !placed.has(name))];
};

/** Why a requested order was refused. */
export type ReorderRefused =
  /** A name is not one of the custom marketplaces (the official one included). */
  | { readonly _tag: 'UnknownMarketplace'; readonly name: string }
  /** The official marketplace cannot be moved. */
  | { readonly _tag: 'OfficialNotReorderable'; readonly name: string }
  /** A name appears twice. */
  | { readonly _tag: 'DuplicateMarketplace'; readonly name: string }
  /** A custom marketplace is missing from the requested order. */
  | { readonly _tag: 'MissingMarketplace'; readonly name: string };

/**
 * Accepts `requested` when it is a permutation of `current` (the custom names); `official` names are
 * refused as such. The accepted value is `requested` itself.
 */
export const reorderMarketplaces = (
  current: ReadonlyArray<string>,
  requested: ReadonlyArray<string>,
  official: ReadonlyArray<string> = [],
): E.Either<ReorderRefused, ReadonlyArray<string>> => {
  const known = new Set(current);
  const seen = new Set<string>();
  for (const name of requested) {
    if (official.includes(name)) return E.left({ _tag: 'OfficialNotReorderable', name });
    if (!known.has(name)) return E.left({ _tag: 'UnknownMarketplace', name });
    if (seen.has(name)) return E.left({ _tag: 'DuplicateMarketplace', name });
    seen.add(name);
  }
  const missing = current.find((name) => !seen.has(name));
  return missing === undefined ? E.right([...requested]) : E.left({ _tag: 'MissingMarketplace', name: missing });
};
