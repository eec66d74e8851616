import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { makeOfficialCatalogCache, type CatalogCacheKey, type CatalogReadError } from '../src/index.js';
import { catalogCacheKeyId } from '../src/OfficialCatalogCache.js';
import { catalogCacheKeyArbitrary, makeControlledFetch, makeFakeClock } from '../src/testing.js';

/** Lets settled promises run their callbacks (a fetch answer reaches readers within a few microtasks). */
const flush = async (): Promise<void> => {
  for (let tick = 0; tick < 10; tick += 1) await Promise.resolve();
};

const key = (accountId: string | null, authFingerprint = 'auth-x'): CatalogCacheKey => ({
  deviceId: 'device-a',
  runtimeInstanceId: 'runtime-1',
  authFingerprint,
  accountId,
});

/** The value a fetch returns: which key it was for and which call it was. */
const valueFor = (k: CatalogCacheKey, call: number): string => `${catalogCacheKeyId(k)}#${call}`;
const keyOfValue = (value: string): string => value.slice(0, value.lastIndexOf('#'));

const setup = () => {
  const clock = makeFakeClock();
  const fetch = makeControlledFetch<string, string>();
  const cache = makeOfficialCatalogCache({ fetch: fetch.fetch, clock });
  const answer = (call: number): void => {
    const pending = fetch.calls[call];
    if (pending === undefined) throw new Error(`no call ${call}`);
    pending.resolve(E.right(valueFor(pending.key, call)));
  };
  return { clock, fetch, cache, answer };
};

describe('official catalog metadata cache', () => {
  it('N concurrent reads share one fetch (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 20 }), catalogCacheKeyArbitrary, async (n, k) => {
        const { fetch, cache, answer } = setup();
        const reads = Array.from({ length: n }, () => cache.read(k));
        expect(fetch.calls).toHaveLength(1);
        expect(cache.fetching(k)).toBe(true);
        answer(0);
        const results = await Promise.all(reads);
        for (const result of results) expect(result).toEqual(E.right(valueFor(k, 0)));
        expect(fetch.calls).toHaveLength(1);
      }),
    );
  });

  it('serves for 60 s from the start of the fetch; expiry alone never fetches', async () => {
    const { clock, fetch, cache, answer } = setup();
    const first = cache.read(key('account-1'));
    const startedAt = clock.now();
    clock.advance(5_000);
    answer(0);
    expect(await first).toEqual(E.right(valueFor(key('account-1'), 0)));
    expect(cache.expiresAt(key('account-1'))).toBe(startedAt + 60_000);
    clock.set(startedAt + 59_999);
    expect(await cache.read(key('account-1'))).toEqual(E.right(valueFor(key('account-1'), 0)));
    clock.set(startedAt + 10 * 60_000); // long after expiry, and nobody reads
    await flush();
    expect(fetch.calls).toHaveLength(1);
    const again = cache.read(key('account-1')); // a read after expiry fetches
    expect(fetch.calls).toHaveLength(2);
    answer(1);
    expect(await again).toEqual(E.right(valueFor(key('account-1'), 1)));
  });

  it('the key is all four fields', async () => {
    const { fetch, cache, answer } = setup();
    const base = key('account-1');
    const variants: CatalogCacheKey[] = [
      { ...base, deviceId: 'device-b' },
      { ...base, runtimeInstanceId: 'runtime-2' },
      { ...base, authFingerprint: 'auth-y' },
      { ...base, accountId: 'account-2' },
      { ...base, accountId: null },
    ];
    const read = cache.read(base);
    answer(0);
    await read;
    for (const [index, variant] of variants.entries()) {
      const pending = cache.read(variant);
      expect(fetch.calls).toHaveLength(index + 2);
      answer(index + 1);
      expect(await pending).toEqual(E.right(valueFor(variant, index + 1)));
    }
  });

  it('failures are not cached; a throwing or rejecting fetch is a value, not an exception', async () => {
    const { fetch, cache } = setup();
    const failing = cache.read(key('account-1'));
    fetch.calls[0]?.resolve(E.left('offline'));
    expect(await failing).toEqual(E.left({ _tag: 'FetchFailed', error: 'offline' }));
    const rejecting = cache.read(key('account-1'));
    expect(fetch.calls).toHaveLength(2);
    fetch.calls[1]?.reject(new Error('boom'));
    expect(await rejecting).toMatchObject(E.left({ _tag: 'FetchRejected' }));
    const throwing = makeOfficialCatalogCache<string, string>({
      fetch: () => {
        throw new Error('sync');
      },
      clock: makeFakeClock(),
    });
    expect(await throwing.read(key('account-1'))).toMatchObject(E.left({ _tag: 'FetchRejected' }));
  });

  it('an account change rejects the old in-flight response: never stored, never returned to the new reader', async () => {
    const { fetch, cache, answer } = setup();
    const old = cache.read(key('account-1'));
    const fresh = cache.read(key('account-2'));
    expect(await old).toEqual(E.left({ _tag: 'Superseded' })); // at once, before the old response arrives
    expect(fetch.calls).toHaveLength(2);
    answer(0); // the old account's response arrives late
    await flush();
    expect(cache.expiresAt(key('account-2'))).toBeNull();
    answer(1);
    expect(await fresh).toEqual(E.right(valueFor(key('account-2'), 1)));
    expect(await cache.read(key('account-2'))).toEqual(E.right(valueFor(key('account-2'), 1)));
  });

  it('logout (reset) rejects in-flight reads and forgets the value', async () => {
    const { fetch, cache, answer } = setup();
    const first = cache.read(key('account-1'));
    answer(0);
    await first;
    const cached = cache.read(key('account-1'));
    cache.reset();
    expect(cache.expiresAt(key('account-1'))).toBeNull();
    expect(await cached).toEqual(E.right(valueFor(key('account-1'), 0))); // served from cache before the reset
    const inFlight = (() => {
      const c = setup();
      const p = c.cache.read(key('account-1'));
      c.cache.reset();
      c.answer(0);
      return p;
    })();
    expect(await inFlight).toEqual(E.left({ _tag: 'Superseded' }));
    expect(fetch.calls).toHaveLength(1);
  });

  it('no reader ever gets a value fetched for another key (property, random interleavings)', async () => {
    const fewKeys = fc.constantFrom(key('account-1'), key('account-2'), key(null, 'auth-y'));
    const op = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('read' as const), key: fc.oneof(fewKeys, catalogCacheKeyArbitrary) }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(), fail: fc.boolean() }), weight: 3 },
      { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 90_000 }) }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('reset' as const) }), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 25, size: 'medium' }), async (ops) => {
        const { clock, fetch, cache } = setup();
        const reads: { key: CatalogCacheKey; result: Promise<E.Either<CatalogReadError<string>, string>> }[] = [];
        const answered = new Set<number>();
        const answerCall = (call: number, fail: boolean): void => {
          const pending = fetch.calls[call];
          if (pending === undefined || answered.has(call)) return;
          answered.add(call);
          pending.resolve(fail ? E.left('failed') : E.right(valueFor(pending.key, call)));
        };
        for (const step of ops) {
          if (step.kind === 'read') {
            const before = fetch.calls.length;
            const wasFetching = cache.fetching(step.key);
            reads.push({ key: step.key, result: cache.read(step.key) });
            if (wasFetching) expect(fetch.calls.length).toBe(before); // shared
            if (fetch.calls.length > before) expect(fetch.calls[before]?.key).toEqual(step.key);
          } else if (step.kind === 'answer') {
            const unanswered = fetch.calls.map((_, call) => call).filter((call) => !answered.has(call));
            const call = unanswered[step.pick % Math.max(1, unanswered.length)];
            if (call !== undefined) answerCall(call, step.fail);
          } else if (step.kind === 'advance') clock.advance(step.ms);
          else cache.reset();
          await flush();
        }
        fetch.calls.forEach((_, call) => answerCall(call, false));
        for (const read of reads) {
          const result = await read.result;
          if (E.isRight(result)) expect(keyOfValue(result.right)).toBe(catalogCacheKeyId(read.key));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('explicit refresh of the official tab', () => {
  it('forces a fetch while the cached value is fresh, and later reads get the refreshed value', async () => {
    const { fetch, cache, answer } = setup();
    const k = key('account-1');
    const first = cache.read(k);
    answer(0);
    expect(await first).toEqual(E.right(valueFor(k, 0)));
    expect(fetch.calls[0]?.force).toBe(false);
    const refreshed = cache.refresh(k);
    expect(fetch.calls).toHaveLength(2);
    expect(fetch.calls[1]?.force).toBe(true);
    // While the refresh runs, a read shares it instead of answering the old value.
    const during = cache.read(k);
    expect(fetch.calls).toHaveLength(2);
    answer(1);
    expect(await refreshed).toEqual(E.right(valueFor(k, 1)));
    expect(await during).toEqual(E.right(valueFor(k, 1)));
    expect(await cache.read(k)).toEqual(E.right(valueFor(k, 1)));
    expect(fetch.calls).toHaveLength(2);
  });

  it('shares a fetch already running; a reset still supersedes it', async () => {
    const { fetch, cache } = setup();
    const k = key('account-1');
    const reading = cache.read(k);
    const refreshing = cache.refresh(k);
    expect(fetch.calls).toHaveLength(1);
    cache.reset();
    expect(await reading).toEqual(E.left({ _tag: 'Superseded' }));
    expect(await refreshing).toEqual(E.left({ _tag: 'Superseded' }));
  });
});
