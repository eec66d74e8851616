/**
 * Paging over the replies captured from the real app-server (see fixtures/README.md).
 */
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/index.js';
import type { FetchPage } from '../src/CatalogPaging.js';

const captured: unknown = JSON.parse(readFileSync(new URL('./fixtures/model-list-limit-2.json', import.meta.url), 'utf8'));
const exchanges = captured as ReadonlyArray<{ readonly request: { readonly cursor?: string }; readonly result: { readonly data: ReadonlyArray<{ readonly id: string }> } }>;

describe('the captured model/list pages of codex app-server 0.171.0', () => {
  it('load into one catalog in wire order, asking exactly what was asked on the wire', async () => {
    const asked: unknown[] = [];
    const fetchPage: FetchPage<string> = (_cursor, params) => {
      asked.push(params);
      const exchange = exchanges.find((e) => (e.request.cursor ?? null) === (params.cursor ?? null));
      return Promise.resolve(exchange === undefined ? E.left('not captured') : E.right(exchange.result));
    };
    const loaded = await loadCatalog(fetchPage, { limit: 2 });
    expect(asked).toEqual(exchanges.map((e) => e.request));
    if (E.isLeft(loaded)) throw new Error(loaded.left.message);
    expect(loaded.right.models.map((m) => m.id)).toEqual(exchanges.flatMap((e) => e.result.data.map((m) => m.id)));
    expect(loaded.right.models.filter((m) => m.isDefault)).toHaveLength(1);
    expect(loaded.right.omittedHidden).toEqual([]);
  });
});
