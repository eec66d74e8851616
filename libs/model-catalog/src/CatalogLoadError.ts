/**
 * Why the model catalog could not be loaded, as values: one `_tag`ged union.
 *
 * Messages name cursors and model ids only (short protocol values), never the host's error text.
 *
 * Every function here is pure: values in, values out.
 */
import type { DecodeIssue } from '@wework/decode-issues';

/** Fetching a page failed with the host's own error (for example a closed connection). */
export interface FetchFailed<E> {
  readonly _tag: 'FetchFailed';
  /** The cursor of the page that failed (`null` for the first page). */
  readonly cursor: string | null;
  /** Zero-based number of the page that failed. */
  readonly page: number;
  /** The host's error, as `fetchPage` returned it. */
  readonly error: E;
  readonly message: string;
}

/** `fetchPage` threw or its promise rejected instead of returning `Left`. */
export interface FetchRejected {
  readonly _tag: 'FetchRejected';
  readonly cursor: string | null;
  readonly page: number;
  /** What was thrown; not part of the message (it may carry anything). */
  readonly cause: unknown;
  readonly message: string;
}

/** A page is not a `ModelListResponse`. */
export interface InvalidPage {
  readonly _tag: 'InvalidPage';
  readonly cursor: string | null;
  readonly page: number;
  readonly issues: ReadonlyArray<DecodeIssue>;
  readonly message: string;
}

/** A page answered with a `nextCursor` that was already followed: paging would never end. */
export interface CursorLoop {
  readonly _tag: 'CursorLoop';
  /** The repeated cursor. */
  readonly cursor: string;
  readonly page: number;
  readonly message: string;
}

/** More pages than the limit: the server keeps answering with a new cursor. */
export interface TooManyPages {
  readonly _tag: 'TooManyPages';
  readonly maxPages: number;
  readonly message: string;
}

/**
 * The same model id came back twice. With offset cursors this means the catalog changed while it
 * was being paged (entries shifted), so the list may also have skipped a model: load it again.
 */
export interface DuplicateModel {
  readonly _tag: 'DuplicateModel';
  readonly id: string;
  /** Zero-based wire positions (across all pages) of the first and the repeated occurrence. */
  readonly firstPosition: number;
  readonly position: number;
  /** The page the repeated occurrence came on. */
  readonly page: number;
  readonly message: string;
}

/** Why the catalog could not be loaded; `E` is the error type of the host's `fetchPage`. */
export type CatalogLoadError<E> = FetchFailed<E> | FetchRejected | InvalidPage | CursorLoop | TooManyPages | DuplicateModel;

const pageName = (page: number, cursor: string | null): string =>
  cursor === null ? `page ${page} (first page)` : `page ${page} (cursor ${JSON.stringify(cursor)})`;

/** Builds a {@link FetchFailed} error. */
export const fetchFailed = <E>(cursor: string | null, page: number, error: E): FetchFailed<E> => ({
  _tag: 'FetchFailed',
  cursor,
  page,
  error,
  message: `model/list failed for ${pageName(page, cursor)}`,
});

/** Builds a {@link FetchRejected} error. */
export const fetchRejected = (cursor: string | null, page: number, cause: unknown): FetchRejected => ({
  _tag: 'FetchRejected',
  cursor,
  page,
  cause,
  message: `Fetching ${pageName(page, cursor)} of model/list threw instead of returning an error value`,
});

/** Builds an {@link InvalidPage} error from the protocol's decode issues. */
export const invalidPage = (cursor: string | null, page: number, issues: ReadonlyArray<DecodeIssue>, detail: string): InvalidPage => ({
  _tag: 'InvalidPage',
  cursor,
  page,
  issues,
  message: `model/list ${pageName(page, cursor)} is not a model list: ${detail}`,
});

/** Builds a {@link CursorLoop} error. */
export const cursorLoop = (cursor: string, page: number): CursorLoop => ({
  _tag: 'CursorLoop',
  cursor,
  page,
  message: `model/list page ${page} answered with cursor ${JSON.stringify(cursor)}, which was already followed; paging stopped`,
});

/** Builds a {@link TooManyPages} error. */
export const tooManyPages = (maxPages: number): TooManyPages => ({
  _tag: 'TooManyPages',
  maxPages,
  message: `model/list still had more pages after ${maxPages} pages; paging stopped`,
});

/** Builds a {@link DuplicateModel} error. */
export const duplicateModel = (id: string, firstPosition: number, position: number, page: number): DuplicateModel => ({
  _tag: 'DuplicateModel',
  id,
  firstPosition,
  position,
  page,
  message:
    `model/list returned model ${JSON.stringify(id)} twice (positions ${firstPosition} and ${position}); ` +
    'the catalog probably changed while it was paged: load it again',
});
