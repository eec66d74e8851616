/**
 * The index of saved accounts: `wework-account-profiles/index.json`, one entry per account snapshot
 * kept beside it. It holds only non-secret labels (the claims of {@link AccountSummary}), the
 * snapshot's file name and the snapshot's SHA-256.
 *
 * Every function is pure: bytes in, a decoded index or a typed error out, and back.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { AccountSummary } from './AuthClaims.js';
import { parseJson, textOf, utf8 } from './internal/Bytes.js';

/** The file name of every account snapshot: `account-` + 32 hex digits + `.json`. */
export const SNAPSHOT_NAME_PATTERN = /^account-[0-9a-f]{32}\.json$/;

interface SnapshotNameBrand {
  readonly SnapshotName: unique symbol;
}

/** A snapshot file name matching {@link SNAPSHOT_NAME_PATTERN}: never a path, never `..`. */
export const SnapshotName = t.brand(t.string, (s): s is t.Branded<string, SnapshotNameBrand> => SNAPSHOT_NAME_PATTERN.test(s), 'SnapshotName');
/** A snapshot file name. */
export type SnapshotName = t.TypeOf<typeof SnapshotName>;

const NullableString = t.union([t.string, t.null]);

/** One saved account (io-ts codec; unknown fields are dropped). */
export const SavedAccount = t.strict(
  {
    id: t.string,
    kind: t.keyof({ chatgpt: null, apiKey: null, other: null }),
    authMode: NullableString,
    email: NullableString,
    planType: NullableString,
    chatgptAccountId: NullableString,
    chatgptUserId: NullableString,
    /** The snapshot's file name inside the profiles directory. */
    snapshot: SnapshotName,
    /** Lowercase hexadecimal SHA-256 of the snapshot's bytes. */
    digest: t.string,
  },
  'SavedAccount',
);
/** One saved account. */
export type SavedAccount = t.TypeOf<typeof SavedAccount>;

const uniqueIds = (accounts: ReadonlyArray<SavedAccount>): boolean => new Set(accounts.map((a) => a.id)).size === accounts.length;

/** The account index (io-ts codec): version 1, accounts in the order they were first saved, ids unique. */
export const AccountIndex = t.strict(
  {
    version: t.literal(1),
    accounts: t.refinement(t.readonlyArray(SavedAccount), uniqueIds, 'UniqueAccounts'),
  },
  'AccountIndex',
);
/** The account index. */
export type AccountIndex = t.TypeOf<typeof AccountIndex>;

/** The index of a device with no saved account. */
export const emptyAccountIndex: AccountIndex = { version: 1, accounts: [] };

/** The index file is not a valid index (its content is never repeated). */
export interface CorruptAccountIndex {
  readonly _tag: 'CorruptAccountIndex';
  readonly path: string;
}

/** Decodes index bytes; `path` only labels the error. */
export const decodeAccountIndex = (bytes: Uint8Array, path: string): E.Either<CorruptAccountIndex, AccountIndex> => {
  const corrupt: E.Either<CorruptAccountIndex, never> = E.left({ _tag: 'CorruptAccountIndex', path });
  const text = textOf(bytes);
  if (text === null) return corrupt;
  const json = parseJson(text);
  if (E.isLeft(json)) return corrupt;
  const index = AccountIndex.decode(json.right);
  return E.isLeft(index) ? corrupt : E.right(index.right);
};

/** The bytes of an index file (pretty JSON, newline-terminated). */
export const encodeAccountIndex = (index: AccountIndex): Uint8Array => utf8(`${JSON.stringify(AccountIndex.encode(index), null, 2)}\n`);

/** The saved account `id`, if any. */
export const findSavedAccount = (index: AccountIndex, id: string): SavedAccount | undefined => index.accounts.find((a) => a.id === id);

/** `index` with `account` added at the end, or replacing the entry with the same id in place. */
export const upsertSavedAccount = (index: AccountIndex, account: SavedAccount): AccountIndex => {
  const at = index.accounts.findIndex((a) => a.id === account.id);
  const accounts = at === -1 ? [...index.accounts, account] : index.accounts.map((a, i) => (i === at ? account : a));
  return { version: 1, accounts };
};

/** `summary` as a saved account whose snapshot is `snapshot` with SHA-256 `digest`. */
export const savedAccountOf = (summary: AccountSummary, snapshot: SnapshotName, digest: string): SavedAccount => ({
  id: summary.id,
  kind: summary.kind,
  authMode: summary.authMode,
  email: summary.email,
  planType: summary.planType,
  chatgptAccountId: summary.chatgptAccountId,
  chatgptUserId: summary.chatgptUserId,
  snapshot,
  digest,
});

/** The {@link AccountSummary} part of a saved account (no file name, no digest). */
export const summaryOf = (account: SavedAccount): AccountSummary => ({
  id: account.id,
  kind: account.kind,
  authMode: account.authMode,
  email: account.email,
  planType: account.planType,
  chatgptAccountId: account.chatgptAccountId,
  chatgptUserId: account.chatgptUserId,
});

/** The snapshot file name of an account whose id has SHA-256 `idDigest` (hex). */
export const snapshotNameOf = (idDigest: string): SnapshotName => `account-${idDigest.slice(0, 32)}.json` as SnapshotName;
