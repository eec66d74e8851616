/**
 * The OpenAI official-catalog metadata cache. A read returns the value fetched for the same key
 * within the last 60 seconds; otherwise it fetches, and reads that arrive while a fetch for their key
 * is running share it. The key is the device, the runtime instance, the Codex auth fingerprint and
 * the Wegent account. Only a read fetches: expiry alone does nothing, and nothing invalidates the
 * value except a change of key, {@link OfficialCatalogCache.reset} (account change, logout) or an
 * explicit {@link OfficialCatalogCache.refresh} of the official tab — not plugin installs or removals,
 * not local marketplace refreshes. After a change of key, responses
 * still in flight for the old key are neither stored nor returned: their readers get `Superseded`.
 *
 * The cache holds promises but does no IO of its own: the host injects `fetch` and the clock, and
 * nothing here starts timers.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '@wework/ports';

/** How long a fetched value is served: 60 s from the start of its fetch. */
export const CATALOG_TTL_MS = 60 * 1000;

/** Whose catalog metadata this is. Two keys are the same when all four fields are equal. */
export interface CatalogCacheKey {
  readonly deviceId: string;
  /** The running executor / app-server instance. */
  readonly runtimeInstanceId: string;
  /** A fingerprint of the Codex auth in use (never the auth itself). */
  readonly authFingerprint: string;
  /** The Wegent account, `null` when none is signed in. */
  readonly accountId: string | null;
}

/** The host's `fetch` answered `Left`. */
export interface CatalogFetchFailed<Err> {
  readonly _tag: 'FetchFailed';
  readonly error: Err;
}

/** The host's `fetch` threw or its promise rejected. */
export interface CatalogFetchRejected {
  readonly _tag: 'FetchRejected';
  readonly cause: unknown;
}

/** The key changed (account switch, logout) while this read was waiting: its response is discarded. */
export interface CatalogReadSuperseded {
  readonly _tag: 'Superseded';
}

/** Why a read has no value. Failures are not cached: the next read fetches again. */
export type CatalogReadError<Err> = CatalogFetchFailed<Err> | CatalogFetchRejected | CatalogReadSuperseded;

/**
 * The host's fetch of the official catalog metadata for one key; `force` when the user asked for a
 * refresh (the host should bypass any cache of its own upstream).
 */
export type FetchCatalog<Err, V> = (key: CatalogCacheKey, options: { readonly force: boolean }) => Promise<E.Either<Err, V>>;

/** The cache. */
export interface OfficialCatalogCache<Err, V> {
  /**
   * The value for `key`: from the cache while fresh, else from a fetch (shared with every read of
   * the same key while it runs). A `key` different from the current one first switches the cache to
   * it, as {@link reset} does. Never rejects.
   */
  read(key: CatalogCacheKey): Promise<E.Either<CatalogReadError<Err>, V>>;
  /**
   * An explicit refresh (the user's refresh button): the cached value for `key` is no longer served
   * and a forced fetch starts, unless a fetch for `key` is already running, which it then shares.
   * Never rejects; a failed refresh leaves nothing cached.
   */
  refresh(key: CatalogCacheKey): Promise<E.Either<CatalogReadError<Err>, V>>;
  /**
   * Forgets everything: the cached value and the current key. Reads waiting on a running fetch get
   * `Left(Superseded)` at once and its response is discarded. Call on account change and logout.
   */
  reset(): void;
  /** When the cached value for `key` stops being served, or `null` if there is none. Informational: nothing happens then. */
  expiresAt(key: CatalogCacheKey): number | null;
  /** Whether a fetch for `key` is running. */
  fetching(key: CatalogCacheKey): boolean;
}

/** The cache's settings. */
export interface OfficialCatalogCacheOptions<Err, V> {
  readonly fetch: FetchCatalog<Err, V>;
  readonly clock: Clock;
  /** How long a value is served, from the start of its fetch (default {@link CATALOG_TTL_MS}). */
  readonly ttlMs?: number;
}

/** The identity of a key as one string (all four fields, unambiguous). */
export const catalogCacheKeyId = (key: CatalogCacheKey): string =>
  JSON.stringify([key.deviceId, key.runtimeInstanceId, key.authFingerprint, key.accountId]);

type Settle<Err, V> = (result: E.Either<CatalogReadError<Err>, V>) => void;

interface InFlight<Err, V> {
  readonly promise: Promise<E.Either<CatalogReadError<Err>, V>>;
  readonly settle: Settle<Err, V>;
}

interface Entry<V> {
  readonly value: V;
  readonly fetchedAt: number;
}

/**
 * Creates an official-catalog metadata cache over the host's `fetch` and clock.
 * @example
 * ```ts
 * const cache = makeOfficialCatalogCache({ fetch: readOfficialCatalog, clock: { now: () => Date.now() } });
 * const [a, b] = await Promise.all([cache.read(key), cache.read(key)]); // one fetch
 * cache.reset(); // on logout: a fetch still running is discarded
 * ```
 */
export const makeOfficialCatalogCache = <Err, V>(options: OfficialCatalogCacheOptions<Err, V>): OfficialCatalogCache<Err, V> => {
  const ttl = options.ttlMs ?? CATALOG_TTL_MS;
  let currentKey: string | null = null;
  let entry: Entry<V> | null = null;
  let inFlight: InFlight<Err, V> | null = null;

  const reset = (): void => {
    const abandoned = inFlight;
    currentKey = null;
    entry = null;
    inFlight = null;
    abandoned?.settle(E.left({ _tag: 'Superseded' }));
  };

  const fresh = (now: number): Entry<V> | null => (entry !== null && entry.fetchedAt <= now && now < entry.fetchedAt + ttl ? entry : null);

  const startFetch = (key: CatalogCacheKey, startedAt: number, force: boolean): InFlight<Err, V> => {
    let settled = false;
    let resolve: Settle<Err, V> = () => undefined;
    const promise = new Promise<E.Either<CatalogReadError<Err>, V>>((r) => {
      resolve = r;
    });
    const flight: InFlight<Err, V> = {
      promise,
      settle: (result) => {
        if (settled) return;
        settled = true;
        resolve(result);
      },
    };
    const finish = (result: E.Either<CatalogReadError<Err>, V>): void => {
      if (inFlight !== flight) return; // superseded: neither stored nor returned
      inFlight = null;
      if (E.isRight(result)) entry = { value: result.right, fetchedAt: startedAt };
      flight.settle(result);
    };
    let fetched: Promise<E.Either<Err, V>>;
    try {
      fetched = options.fetch(key, { force });
    } catch (cause) {
      fetched = Promise.reject(cause);
    }
    fetched.then(
      (result) => finish(E.isRight(result) ? E.right(result.right) : E.left({ _tag: 'FetchFailed', error: result.left })),
      (cause: unknown) => finish(E.left({ _tag: 'FetchRejected', cause })),
    );
    return flight;
  };

  return {
    read: (key) => {
      const id = catalogCacheKeyId(key);
      if (id !== currentKey) {
        reset();
        currentKey = id;
      }
      const now = options.clock.now();
      const cached = fresh(now);
      if (cached !== null) return Promise.resolve(E.right(cached.value));
      if (inFlight === null) inFlight = startFetch(key, now, false);
      return inFlight.promise;
    },
    refresh: (key) => {
      const id = catalogCacheKeyId(key);
      if (id !== currentKey) {
        reset();
        currentKey = id;
      }
      entry = null;
      if (inFlight === null) inFlight = startFetch(key, options.clock.now(), true);
      return inFlight.promise;
    },
    reset,
    expiresAt: (key) => (catalogCacheKeyId(key) === currentKey && entry !== null ? entry.fetchedAt + ttl : null),
    fetching: (key) => catalogCacheKeyId(key) === currentKey && inFlight !== null,
  };
};
