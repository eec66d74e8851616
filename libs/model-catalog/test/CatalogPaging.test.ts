import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { Model, ModelListParams, ModelListResponse } from '@wework/codex-protocol';
import { loadCatalog } from '../src/index.js';
import { acceptPage, DEFAULT_MAX_PAGES, modelListParams, startPaging, type FetchPage } from '../src/CatalogPaging.js';
import { catalogModelsArbitrary, fixedPager, modelArbitrary, offsetPager, pagedCatalogArbitrary, pagesOf } from '../src/testing.js';

const ids = (models: ReadonlyArray<Model>): string[] => models.map((m) => m.id);

/** Wraps a pager and records every call. */
const recording = <Err>(pager: FetchPage<Err>) => {
  const calls: Array<{ cursor: string | null; params: ModelListParams }> = [];
  const fetchPage: FetchPage<Err> = (cursor, params) => {
    calls.push({ cursor, params });
    return pager(cursor, params);
  };
  return { calls, fetchPage };
};

const model = (id: string, extra: Partial<Model> = {}): Model => ({
  id, model: id, upgrade: null, upgradeInfo: null, availabilityNux: null, displayName: id, description: '', modelSpecialty: null,
  hidden: false, supportedReasoningEfforts: [], defaultReasoningEffort: 'medium', inputModalities: ['text'], supportsPersonality: false,
  multiAgentVersion: null, additionalSpeedTiers: [], serviceTiers: [], defaultServiceTier: null, availableAccessPrograms: null,
  isDefault: false, ...extra,
});

describe('loadCatalog', () => {
  it('keeps the wire order across arbitrary paging and adds nothing', async () => {
    await fc.assert(
      fc.asyncProperty(pagedCatalogArbitrary(), async ({ models, pages }) => {
        const { calls, fetchPage } = recording(fixedPager(pages));
        const loaded = await loadCatalog(fetchPage);
        expect(loaded).toEqual(E.right({ models, omittedHidden: [] }));
        expect(calls.map((c) => c.cursor)).toEqual([null, ...pages.slice(0, -1).map((p) => p.nextCursor)]);
        expect(calls.every((c) => c.params.includeHidden === false)).toBe(true);
      }),
    );
  });

  it('never includes a model the server marks hidden, and keeps the others in order', async () => {
    await fc.assert(
      fc.asyncProperty(pagedCatalogArbitrary({ withHidden: true }), async ({ models, pages }) => {
        const loaded = await loadCatalog(fixedPager(pages));
        if (E.isLeft(loaded)) throw new Error(loaded.left.message);
        expect(loaded.right.models.some((m) => m.hidden)).toBe(false);
        expect(ids(loaded.right.models)).toEqual(ids(models.filter((m) => !m.hidden)));
        expect(loaded.right.omittedHidden).toEqual(ids(models.filter((m) => m.hidden)));
      }),
    );
  });

  it('pages an offset-cursor server like the app-server with any page size', async () => {
    await fc.assert(
      fc.asyncProperty(catalogModelsArbitrary({ withHidden: true }), fc.integer({ min: 1, max: 5 }), async (models, limit) => {
        const { calls, fetchPage } = recording(offsetPager(models));
        const loaded = await loadCatalog(fetchPage, { limit });
        expect(E.map((c: { models: ReadonlyArray<Model> }) => ids(c.models))(loaded)).toEqual(E.right(ids(models.filter((m) => !m.hidden))));
        expect(calls.every((c) => c.params.limit === limit && c.params.includeHidden === false)).toBe(true);
      }),
    );
  });

  it('reports a model id seen twice across pages instead of merging', async () => {
    const pages: ModelListResponse[] = [
      { data: [model('a'), model('b')], nextCursor: '2' },
      { data: [model('b'), model('c')], nextCursor: null },
    ];
    const loaded = await loadCatalog(fixedPager(pages));
    expect(loaded).toMatchObject(E.left({ _tag: 'DuplicateModel', id: 'b', firstPosition: 1, position: 2, page: 1 }));
  });

  it('reports any duplicate id, wherever it is', async () => {
    await fc.assert(
      fc.asyncProperty(
        catalogModelsArbitrary({ minLength: 1 }).chain((models) =>
          fc.tuple(fc.constant(models), fc.nat({ max: models.length - 1 }), fc.nat({ max: models.length }), fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 4 })),
        ),
        async ([models, from, at, sizes]) => {
          const source = models[from] as Model;
          const withDuplicate = [...models.slice(0, at), source, ...models.slice(at)];
          const loaded = await loadCatalog(fixedPager(pagesOf(withDuplicate, sizes)));
          expect(loaded).toMatchObject(E.left({ _tag: 'DuplicateModel', id: source.id }));
        },
      ),
    );
  });

  it('stops on a cursor that was already followed', async () => {
    const pages: ModelListResponse[] = [
      { data: [model('a')], nextCursor: 'x' },
      { data: [model('b')], nextCursor: 'y' },
    ];
    const loop: FetchPage<never> = (cursor) =>
      Promise.resolve(E.right(cursor === null ? pages[0] : cursor === 'x' ? pages[1] : { data: [], nextCursor: 'x' }));
    expect(await loadCatalog(loop)).toMatchObject(E.left({ _tag: 'CursorLoop', cursor: 'x', page: 2 }));
    const same: FetchPage<never> = () => Promise.resolve(E.right({ data: [], nextCursor: 'same' }));
    expect(await loadCatalog(same)).toMatchObject(E.left({ _tag: 'CursorLoop', cursor: 'same', page: 1 }));
  });

  it('stops after the page limit', async () => {
    const endless: FetchPage<never> = (cursor) => Promise.resolve(E.right({ data: [], nextCursor: String(Number(cursor ?? '0') + 1) }));
    const { calls, fetchPage } = recording(endless);
    expect(await loadCatalog(fetchPage, { maxPages: 3 })).toMatchObject(E.left({ _tag: 'TooManyPages', maxPages: 3 }));
    expect(calls).toHaveLength(3);
    expect(await loadCatalog(endless)).toMatchObject(E.left({ _tag: 'TooManyPages', maxPages: DEFAULT_MAX_PAGES }));
  });

  it('turns a failed, rejected or invalid page into a typed error', async () => {
    const failing: FetchPage<{ code: number }> = (cursor) =>
      Promise.resolve(cursor === null ? E.right({ data: [model('a')], nextCursor: '1' }) : E.left({ code: -32600 }));
    expect(await loadCatalog(failing)).toEqual(
      E.left({ _tag: 'FetchFailed', cursor: '1', page: 1, error: { code: -32600 }, message: 'model/list failed for page 1 (cursor "1")' }),
    );
    const rejecting: FetchPage<never> = () => Promise.reject(new Error('boom'));
    expect(await loadCatalog(rejecting)).toMatchObject(E.left({ _tag: 'FetchRejected', cursor: null, page: 0 }));
    const throwing: FetchPage<never> = () => {
      throw new Error('sync');
    };
    expect(await loadCatalog(throwing)).toMatchObject(E.left({ _tag: 'FetchRejected' }));
    const invalid: FetchPage<never> = () => Promise.resolve(E.right({ data: [{ id: 'a' }], nextCursor: null }));
    const loaded = await loadCatalog(invalid);
    expect(loaded).toMatchObject(E.left({ _tag: 'InvalidPage', cursor: null, page: 0 }));
    if (E.isLeft(loaded) && loaded.left._tag === 'InvalidPage') {
      expect(loaded.left.issues.map((i) => i.path)).toContain('result.data[0].model');
    }
  });
});

describe('acceptPage', () => {
  it('never throws on arbitrary JSON and accepts exactly the valid pages', () => {
    const start = startPaging();
    if (start._tag !== 'FetchPage') throw new Error('starts by fetching');
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ data: fc.array(fc.oneof(modelArbitrary, fc.jsonValue()), { maxLength: 3 }), nextCursor: fc.oneof(fc.constant(null), fc.string(), fc.jsonValue()) })), (reply) => {
        const next = acceptPage(start.state, reply);
        if (E.isLeft(next)) expect(next.left._tag).toMatch(/^(InvalidPage|DuplicateModel)$/);
      }),
    );
  });

  it('is a state machine: the first step fetches with includeHidden false', () => {
    expect(startPaging({ limit: 2 })).toMatchObject({ _tag: 'FetchPage', params: { includeHidden: false, limit: 2 } });
    const first = startPaging({ limit: 2 });
    if (first._tag !== 'FetchPage') throw new Error('fetch first');
    const second = acceptPage(first.state, { data: [model('a'), model('b')], nextCursor: '2' });
    expect(second).toMatchObject(E.right({ _tag: 'FetchPage', params: { includeHidden: false, cursor: '2', limit: 2 } }));
  });
});

describe('modelListParams', () => {
  it('always asks for visible models only and normalises the page size', () => {
    expect(modelListParams(null)).toEqual({ includeHidden: false });
    expect(modelListParams('4', 2)).toEqual({ includeHidden: false, cursor: '4', limit: 2 });
    expect(modelListParams(null, 0)).toEqual({ includeHidden: false, limit: 1 });
    expect(modelListParams(null, 2.7)).toEqual({ includeHidden: false, limit: 2 });
    expect(modelListParams(null, Number.NaN)).toEqual({ includeHidden: false });
  });
});
