import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  catalogChanged,
  catalogRead,
  checkSendWith,
  emptyFreshness,
  lookupCatalog,
  watchWire,
  type CatalogChange,
  type CatalogFreshness,
} from '../src/index.js';
import { catalogFromModels } from '../src/ModelCatalog.js';
import { configWriteTouchesModels, keyPathTouchesModels, MAX_TRACKED_WRITES, type WireMessage } from '../src/CatalogFreshness.js';
import { catalogModelsArbitrary } from '../src/testing.js';

const changeArbitrary: fc.Arbitrary<CatalogChange> = fc.constantFrom<CatalogChange>(
  { _tag: 'AppServerRestarted' },
  { _tag: 'AccountChanged' },
  { _tag: 'ModelConfigWritten' },
  { _tag: 'ListRequested' },
);
const catalogArbitrary = catalogModelsArbitrary().map(catalogFromModels);
const idArbitrary = fc.oneof(fc.nat({ max: 20 }), fc.string({ maxLength: 3 }));
const modelKeyArbitrary = fc.constantFrom('model', 'model_provider', 'model_providers.local.base_url', 'profiles.fast.model', 'profile', '"model"', 'model_reasoning_effort');
const otherKeyArbitrary = fc.constantFrom('developer_instructions', 'personality', 'plugins."forms@local"', 'features.plugins', 'mcp_servers.forms.command', 'approval_policy');

/** Any message a wire tap may see, weighted towards the ones the cache cares about. */
const messageArbitrary: fc.Arbitrary<{ direction: 'incoming' | 'outgoing'; message: WireMessage }> = fc.oneof(
  fc.record({
    direction: fc.constant('outgoing' as const),
    message: fc.record({
      id: idArbitrary,
      method: fc.constantFrom('config/batchWrite', 'config/value/write', 'account/logout', 'model/list', 'turn/start', 'thread/start'),
      params: fc.oneof(
        fc.record({ keyPath: fc.oneof(modelKeyArbitrary, otherKeyArbitrary), value: fc.string() }),
        fc.record({ edits: fc.array(fc.record({ keyPath: fc.oneof(modelKeyArbitrary, otherKeyArbitrary) }), { maxLength: 3 }), reloadUserConfig: fc.boolean() }),
      ),
    }),
  }),
  fc.record({ direction: fc.constant('incoming' as const), message: fc.record({ id: idArbitrary, result: fc.constant({}) }) }),
  fc.record({ direction: fc.constant('incoming' as const), message: fc.record({ method: fc.constantFrom('account/updated', 'account/login/completed', 'turn/completed', 'item/completed') }) }),
  fc.record({ direction: fc.constant('incoming' as const), message: fc.record({ id: idArbitrary, method: fc.constantFrom('item/commandExecution/requestApproval', 'account/updated') }) }),
);

/** Any reachable state: changes, reads (of the current or an earlier generation) and wire messages. */
const stateArbitrary: fc.Arbitrary<CatalogFreshness> = fc
  .array(
    fc.oneof(
      changeArbitrary.map((change) => (state: CatalogFreshness) => catalogChanged(state, change)),
      fc.tuple(fc.nat({ max: 2 }), catalogArbitrary).map(([behind, catalog]) => (state: CatalogFreshness) => catalogRead(state, state.generation - behind, catalog)),
      messageArbitrary.map(({ direction, message }) => (state: CatalogFreshness) => watchWire(state, direction, message)),
    ),
    { maxLength: 12 },
  )
  .map((steps) => steps.reduce((state, step) => step(state), emptyFreshness));

describe('the catalog cache', () => {
  it('reads while nothing is cached, and then uses what the read of the current generation returned', () => {
    fc.assert(
      fc.property(stateArbitrary, catalogArbitrary, (state, catalog) => {
        const lookup = lookupCatalog({ ...state, catalog: null });
        expect(lookup).toEqual({ _tag: 'Read', generation: state.generation });
        expect(lookupCatalog(catalogRead(state, state.generation, catalog))).toEqual({ _tag: 'Cached', catalog });
      }),
    );
  });

  it('is dropped by every change, and a read under way during a change never fills it', () => {
    fc.assert(
      fc.property(stateArbitrary, changeArbitrary, catalogArbitrary, (state, change, catalog) => {
        const started = lookupCatalog({ ...state, catalog: null });
        const changed = catalogChanged(state, change);
        expect(changed.catalog).toBeNull();
        if (started._tag !== 'Read') throw new Error('a read');
        expect(catalogRead(changed, started.generation, catalog)).toEqual(changed);
        expect(lookupCatalog(catalogRead(changed, started.generation, catalog))._tag).toBe('Read');
      }),
    );
  });

  it('keeps the cache across messages that change neither the account nor the models', () => {
    fc.assert(
      fc.property(stateArbitrary, catalogArbitrary, otherKeyArbitrary, idArbitrary, (state, catalog, keyPath, id) => {
        const cached = catalogRead(state, state.generation, catalog);
        const unrelated: Array<['incoming' | 'outgoing', WireMessage]> = [
          ['outgoing', { id, method: 'model/list', params: { includeHidden: false } }],
          ['outgoing', { id, method: 'config/value/write', params: { keyPath, value: 'x' } }],
          ['outgoing', { id, method: 'config/batchWrite', params: { edits: [{ keyPath }], reloadUserConfig: true } }],
          ['incoming', { method: 'turn/completed', params: {} }],
          ['incoming', { id: `not-a-write-${String(id)}`, result: {} }],
        ];
        const after = unrelated.reduce((s, [direction, message]) => watchWire(s, direction, message), cached);
        expect(lookupCatalog(after)).toEqual({ _tag: 'Cached', catalog });
      }),
    );
  });

  it('is dropped by an account change and by a config write touching models, when sent and again when answered', () => {
    fc.assert(
      fc.property(stateArbitrary, catalogArbitrary, modelKeyArbitrary, idArbitrary, (state, catalog, keyPath, id) => {
        const cached = (s: CatalogFreshness) => catalogRead(s, s.generation, catalog);
        expect(watchWire(cached(state), 'outgoing', { id, method: 'account/logout' }).catalog).toBeNull();
        expect(watchWire(cached(state), 'incoming', { method: 'account/updated', params: { authMode: null } }).catalog).toBeNull();
        expect(watchWire(cached(state), 'incoming', { method: 'account/login/completed', params: {} }).catalog).toBeNull();
        const sent = watchWire(cached(state), 'outgoing', { id, method: 'config/batchWrite', params: { edits: [{ keyPath, value: 'x' }], reloadUserConfig: true } });
        expect(sent.catalog).toBeNull();
        expect(sent.writesInFlight).toContain(id);
        // A read that overlapped the write is cached; the write's answer drops it again.
        const answered = watchWire(cached(sent), 'incoming', { id, result: { status: 'ok' } });
        expect(answered.catalog).toBeNull();
        expect(answered.writesInFlight.filter((pending) => pending === id)).toHaveLength(sent.writesInFlight.filter((pending) => pending === id).length - 1);
      }),
    );
  });

  it('tracks a bounded number of writes in flight', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: MAX_TRACKED_WRITES * 2 }), (ids) => {
        const state = ids.reduce((s, id) => watchWire(s, 'outgoing', { id, method: 'config/value/write', params: { keyPath: 'model', value: 'x' } }), emptyFreshness);
        expect(state.writesInFlight.length).toBeLessThanOrEqual(MAX_TRACKED_WRITES);
      }),
    );
  });
});

describe('a send against the catalog', () => {
  it('sends what checkSendable allows, from the cache or from a read', () => {
    fc.assert(
      fc.property(catalogModelsArbitrary({ minLength: 1 }), fc.nat(), fc.constantFrom('cache' as const, 'read' as const), (models, index, source) => {
        const saved = models[index % models.length];
        expect(checkSendWith(catalogFromModels(models), saved?.id, source)).toMatchObject({ _tag: 'Send', sendable: { _tag: 'SavedModel', model: saved } });
      }),
    );
  });

  it('reads once more when the cached catalog lacks the saved model, and is blocked only by a catalog just read', () => {
    fc.assert(
      fc.property(catalogModelsArbitrary(), catalogModelsArbitrary(), fc.string(), (cachedModels, freshModels, saved) => {
        fc.pre(!cachedModels.some((m) => m.id === saved));
        expect(checkSendWith(catalogFromModels(cachedModels), saved, 'cache')).toEqual({ _tag: 'ReadAgain' });
        const fresh = checkSendWith(catalogFromModels(freshModels), saved, 'read');
        // The second check never asks for a third read: the send goes out or is blocked.
        expect(fresh._tag).toBe(freshModels.some((m) => m.id === saved && !m.hidden) ? 'Send' : 'Blocked');
        if (fresh._tag === 'Blocked') expect(fresh.blocked).toMatchObject({ _tag: 'ModelUnavailable', model: saved });
      }),
    );
  });
});

describe('which config writes touch the catalog', () => {
  it('key paths of the model, the providers and the profiles', () => {
    fc.assert(fc.property(modelKeyArbitrary, (keyPath) => keyPathTouchesModels(keyPath)));
    fc.assert(fc.property(otherKeyArbitrary, (keyPath) => !keyPathTouchesModels(keyPath)));
  });

  it('a batch touches it when one edit does, and a reload without edits may', () => {
    fc.assert(
      fc.property(fc.array(otherKeyArbitrary, { maxLength: 4 }), fc.array(modelKeyArbitrary, { minLength: 1, maxLength: 2 }), fc.boolean(), (others, models, reload) => {
        const edits = (keys: ReadonlyArray<string>) => keys.map((keyPath) => ({ keyPath, value: 'x', mergeStrategy: 'upsert' }));
        expect(configWriteTouchesModels('config/batchWrite', { edits: edits([...others, ...models]), reloadUserConfig: reload })).toBe(true);
        if (others.length > 0) expect(configWriteTouchesModels('config/batchWrite', { edits: edits(others), reloadUserConfig: reload })).toBe(false);
        expect(configWriteTouchesModels('config/batchWrite', { edits: [], reloadUserConfig: reload })).toBe(reload);
      }),
    );
  });

  it('params of another shape are taken to touch it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(null), fc.string(), fc.record({ edits: fc.string() }), fc.record({ keyPath: fc.nat() })), (params) => {
        expect(configWriteTouchesModels('config/batchWrite', params) || configWriteTouchesModels('config/value/write', params)).toBe(true);
      }),
    );
  });
});
