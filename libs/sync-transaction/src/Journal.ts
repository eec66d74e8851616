/**
 * The per-plugin journal: everything restart recovery needs to finish or undo one transaction.
 *
 * Written (durably, by atomic replacement) before the first change to the homes, and again as the
 * commit mark once every publication is in place. Pure: the codec and its value.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

/** What a publication does to its destination. */
export const PublicationKind = t.union([t.literal('directory'), t.literal('file'), t.literal('remove')]);
/** What a publication does to its destination. */
export type PublicationKind = t.TypeOf<typeof PublicationKind>;

/** One destination of a transaction, as the journal records it. */
export const JournalPublication = t.type({
  kind: PublicationKind,
  /** The destination path. */
  dest: t.string,
  /** Where the new content is staged (beside `dest`); `null` for a removal. */
  stage: t.union([t.string, t.null]),
  /** Where the previous content is kept until commit (beside `dest`). */
  backup: t.string,
  /** Where content being discarded is moved before it is deleted (beside `dest`). */
  trash: t.string,
  /** Digest of `dest` before the transaction (`null`: absent). */
  before: t.union([t.string, t.null]),
  /** Digest of `dest` after publication (`null`: absent). */
  after: t.union([t.string, t.null]),
});
/** One destination of a transaction, as the journal records it. */
export type JournalPublication = t.TypeOf<typeof JournalPublication>;

/** A journal: `prepared` until every publication is in place, then `committed`. */
export const Journal = t.type({
  version: t.literal(1),
  txid: t.string,
  plugin: t.string,
  phase: t.union([t.literal('prepared'), t.literal('committed')]),
  /** Directories the transaction created (parents first); removed again on rollback when empty. */
  createdDirectories: t.array(t.string),
  publications: t.array(JournalPublication),
});
/** A journal: `prepared` until every publication is in place, then `committed`. */
export type Journal = t.TypeOf<typeof Journal>;

/** Serializes a journal. */
export const encodeJournal = (journal: Journal): Uint8Array => new TextEncoder().encode(`${JSON.stringify(journal, null, 2)}\n`);

/** Decodes journal bytes; `null` when they are not a journal. */
export const decodeJournal = (bytes: Uint8Array): Journal | null => {
  try {
    const decoded = Journal.decode(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
    return E.isRight(decoded) ? decoded.right : null;
  } catch {
    return null;
  }
};
