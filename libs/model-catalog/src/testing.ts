/**
 * `@wework/model-catalog/testing`: fast-check arbitraries of model catalogs and their pages, and an
 * in-memory `model/list` pager with offset cursors like the pinned app-server's, so hosts can
 * property-test their own use. Needs `fast-check` (an optional peer dependency).
 *
 * Every value here is pure: arbitraries describe values; fast-check supplies the randomness.
 */
import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type { Model, ModelListResponse } from '@wework/codex-protocol';
import { codecs } from '@wework/codex-protocol';
import { arbitraryOf } from '@wework/codex-protocol/testing';
import type { FetchPage } from './CatalogPaging.js';

/** Any `Model` the protocol codec accepts. */
export const modelArbitrary: fc.Arbitrary<Model> = arbitraryOf(codecs.Model);

/** Bounds of {@link catalogModelsArbitrary}. */
export interface CatalogModelsOptions {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Whether some models may be marked `hidden` (default `false`: none is). */
  readonly withHidden?: boolean;
}

/**
 * Models as `model/list` returns them: distinct ids (`model` equals `id`), at most one visible
 * `isDefault` model.
 */
export const catalogModelsArbitrary = (options: CatalogModelsOptions = {}): fc.Arbitrary<ReadonlyArray<Model>> =>
  fc
    .uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), modelArbitrary, fc.boolean()), {
      minLength: options.minLength ?? 0,
      maxLength: options.maxLength ?? 8,
      selector: ([id]) => id,
    })
    .chain((entries) =>
      fc.integer({ min: -1, max: entries.length - 1 }).map((defaultIndex) =>
        entries.map(([id, model, hidden], index): Model => {
          const isHidden = options.withHidden === true && hidden && index !== defaultIndex;
          return { ...model, id, model: id, hidden: isHidden, isDefault: index === defaultIndex };
        }),
      ),
    );

/** A catalog split into pages, each with a distinct opaque cursor to the next. */
export interface PagedCatalog {
  /** The models in wire order, all pages together. */
  readonly models: ReadonlyArray<Model>;
  /** The `model/list` replies, in the order they are fetched. */
  readonly pages: ReadonlyArray<ModelListResponse>;
}

/** Splits `models` into consecutive pages of the given sizes (empty pages allowed); cursors are `c1`, `c2`, ... */
export const pagesOf = (models: ReadonlyArray<Model>, sizes: ReadonlyArray<number>): ReadonlyArray<ModelListResponse> => {
  const pages: ModelListResponse[] = [];
  let offset = 0;
  sizes.forEach((size, index) => {
    const data = models.slice(offset, offset + size);
    offset += data.length;
    pages.push({ data, nextCursor: index === sizes.length - 1 ? null : `c${index + 1}` });
  });
  if (pages.length === 0) pages.push({ data: [], nextCursor: null });
  const last = pages[pages.length - 1];
  if (last !== undefined && offset < models.length) last.data = [...last.data, ...models.slice(offset)];
  return pages;
};

/** A catalog (see {@link catalogModelsArbitrary}) split at arbitrary places into 1–6 pages. */
export const pagedCatalogArbitrary = (options: CatalogModelsOptions = {}): fc.Arbitrary<PagedCatalog> =>
  catalogModelsArbitrary(options).chain((models) =>
    fc
      .array(fc.nat({ max: Math.max(1, models.length) }), { minLength: 1, maxLength: 6 })
      .map((sizes) => ({ models, pages: pagesOf(models, sizes) })),
  );

/** `fetchPage` over fixed pages: page `i` is served for the cursor that page `i - 1` named. */
export const fixedPager = (pages: ReadonlyArray<ModelListResponse>): FetchPage<{ readonly message: string }> => {
  return (cursor) => {
    const index = cursor === null ? 0 : pages.findIndex((page) => page.nextCursor === cursor) + 1;
    const page = index > 0 || cursor === null ? pages[index] : undefined;
    return Promise.resolve(page === undefined ? E.left({ message: `invalid cursor` }) : E.right(page));
  };
};

/**
 * `fetchPage` over a model list with offset cursors, like the pinned app-server's `model/list`:
 * hidden models are served only with `includeHidden: true`; `limit` (default: all) is at least 1;
 * `nextCursor` is the next offset as a string; a cursor that is not an offset, or past the end, fails.
 */
export const offsetPager = (models: ReadonlyArray<Model>): FetchPage<{ readonly message: string }> => {
  return (cursor, params) => {
    const listed = params.includeHidden === true ? models : models.filter((model) => !model.hidden);
    const offset = cursor === null ? 0 : /^\d+$/.test(cursor) ? Number(cursor) : Number.NaN;
    if (Number.isNaN(offset)) return Promise.resolve(E.left({ message: `invalid cursor: ${cursor ?? ''}` }));
    if (offset > listed.length) return Promise.resolve(E.left({ message: `cursor ${offset} exceeds total models ${listed.length}` }));
    const limit = Math.max(1, params.limit ?? listed.length);
    const end = Math.min(listed.length, offset + limit);
    return Promise.resolve(E.right({ data: listed.slice(offset, end), nextCursor: end < listed.length ? String(end) : null }));
  };
};
