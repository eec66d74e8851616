/**
 * Paging through `model/list` as a pure state machine, and {@link loadCatalog}, which drives it
 * over a `fetchPage` port.
 *
 * Contract: every page is requested with `includeHidden: false`; `nextCursor` is followed until it is
 * `null`; each page is decoded with the protocol codec; the models keep their wire order across pages;
 * nothing is added or reordered; models marked `hidden` are left out (and reported). A repeated
 * cursor, too many pages or a model id seen twice stop paging with an error value — duplicates are
 * reported, never merged.
 *
 * Every function here is pure: values in, values out. {@link loadCatalog} performs no IO itself; it
 * awaits the host's `fetchPage`.
 */
import * as E from 'fp-ts/lib/Either.js';
import { codecs, invalidResult, ModelList, type Model, type ModelListParams } from '@wework/codex-protocol';
import {
  cursorLoop,
  duplicateModel,
  fetchFailed,
  fetchRejected,
  invalidPage,
  tooManyPages,
  type CatalogLoadError,
  type CursorLoop,
  type DuplicateModel,
  type InvalidPage,
  type TooManyPages,
} from './CatalogLoadError.js';
import { catalogFromModels, type ModelCatalog } from './ModelCatalog.js';

/** How to page. */
export interface PagingOptions {
  /** Page size sent as `limit`; omitted (the server's default) when not given. */
  readonly limit?: number;
  /** Most pages followed before giving up with `TooManyPages`. Default {@link DEFAULT_MAX_PAGES}. */
  readonly maxPages?: number;
}

/** Most pages {@link loadCatalog} follows by default. */
export const DEFAULT_MAX_PAGES = 100;

/** Where paging stands between two pages. Treat as opaque; build it with {@link startPaging}. */
export interface PagingState {
  /** Cursor of the page to fetch next (`null` for the first page). */
  readonly cursor: string | null;
  /** Zero-based number of the page to fetch next. */
  readonly page: number;
  /** Cursors already followed. */
  readonly followed: ReadonlyArray<string>;
  /** Every model received so far, hidden ones included, in wire order. */
  readonly received: ReadonlyArray<Model>;
  /** First wire position of each id received so far. */
  readonly positions: ReadonlyMap<string, number>;
  readonly limit: number | undefined;
  readonly maxPages: number;
}

/** What to do next: fetch a page with these params, or stop with the catalog. */
export type PagingStep =
  | { readonly _tag: 'FetchPage'; readonly state: PagingState; readonly params: ModelListParams }
  | { readonly _tag: 'Done'; readonly catalog: ModelCatalog };

/** Why a page stopped paging (the pure part of {@link CatalogLoadError}). */
export type PagingError = InvalidPage | CursorLoop | TooManyPages | DuplicateModel;

const positiveInteger = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isFinite(value) ? Math.max(1, Math.floor(value)) : undefined;

/** The `model/list` params of a page: always `includeHidden: false`. */
export const modelListParams = (cursor: string | null, limit?: number): ModelListParams => {
  const pageSize = positiveInteger(limit);
  return {
    includeHidden: false,
    ...(cursor === null ? {} : { cursor }),
    ...(pageSize === undefined ? {} : { limit: pageSize }),
  };
};

const fetchStep = (state: PagingState): PagingStep => ({
  _tag: 'FetchPage',
  state,
  params: modelListParams(state.cursor, state.limit),
});

/**
 * The first step: fetch the first page. Limits that are not positive integers are rounded down
 * and raised to 1; a non-finite `maxPages` means the default.
 * @example
 * ```ts
 * import { acceptPage, startPaging } from '@wework/model-catalog';
 * let step = startPaging({ limit: 2 }); // { _tag: 'FetchPage', params: { includeHidden: false, limit: 2 }, ... }
 * // send step.params as model/list, then: const next = acceptPage(step.state, reply);
 * ```
 */
export const startPaging = (options: PagingOptions = {}): PagingStep =>
  fetchStep({
    cursor: null,
    page: 0,
    followed: [],
    received: [],
    positions: new Map(),
    limit: positiveInteger(options.limit),
    maxPages: positiveInteger(options.maxPages) ?? DEFAULT_MAX_PAGES,
  });

/**
 * Takes the reply to the page `state` asked for (any JSON) and says what to do next. Total: an
 * arbitrary value gives `Left(InvalidPage)`, never an exception.
 */
export const acceptPage = (state: PagingState, reply: unknown): E.Either<PagingError, PagingStep> => {
  const decoded = codecs.ModelListResponse.decode(reply);
  if (E.isLeft(decoded)) {
    const error = invalidResult(ModelList.method, decoded.left);
    return E.left(invalidPage(state.cursor, state.page, error.issues, error.message));
  }
  const { data, nextCursor } = decoded.right;
  const positions = new Map(state.positions);
  let position = state.received.length;
  for (const model of data) {
    const first = positions.get(model.id);
    if (first !== undefined) return E.left(duplicateModel(model.id, first, position, state.page));
    positions.set(model.id, position);
    position += 1;
  }
  const received = [...state.received, ...data];
  if (nextCursor === null) return E.right({ _tag: 'Done', catalog: catalogFromModels(received) });
  const followed = state.cursor === null ? state.followed : [...state.followed, state.cursor];
  if (nextCursor === state.cursor || followed.includes(nextCursor)) return E.left(cursorLoop(nextCursor, state.page));
  if (state.page + 1 >= state.maxPages) return E.left(tooManyPages(state.maxPages));
  return E.right(fetchStep({ ...state, cursor: nextCursor, page: state.page + 1, followed, received, positions }));
};

/**
 * Fetches one page of `model/list`: `cursor` is `null` for the first page; `params` are the full
 * `model/list` params (always `includeHidden: false`) for hosts that send them as they are.
 */
export type FetchPage<Err> = (cursor: string | null, params: ModelListParams) => Promise<E.Either<Err, unknown>>;

/**
 * Loads the whole catalog: every page with `includeHidden: false`, following `nextCursor` until
 * `null`. Resolves `Left` with a {@link CatalogLoadError}; never rejects, even when `fetchPage` does.
 * @example
 * ```ts
 * import { ModelList } from '@wework/codex-protocol';
 * import { loadCatalog } from '@wework/model-catalog';
 * const catalog = await loadCatalog((_cursor, params) => client.request(ModelList, params));
 * if (catalog._tag === 'Right') picker.show(catalog.right.models); // wire order, no hidden models
 * ```
 */
export const loadCatalog = async <Err>(
  fetchPage: FetchPage<Err>,
  options: PagingOptions = {},
): Promise<E.Either<CatalogLoadError<Err>, ModelCatalog>> => {
  let step = startPaging(options);
  while (step._tag === 'FetchPage') {
    const { state, params } = step;
    let page: unknown;
    try {
      const reply = await fetchPage(state.cursor, params);
      if (E.isLeft(reply)) return E.left(fetchFailed(state.cursor, state.page, reply.left));
      page = reply.right;
    } catch (cause) {
      return E.left(fetchRejected(state.cursor, state.page, cause));
    }
    const next = acceptPage(state, page);
    if (E.isLeft(next)) return next;
    step = next.right;
  }
  return E.right(step.catalog);
};
