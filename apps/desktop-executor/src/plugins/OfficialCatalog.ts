/**
 * The OpenAI official marketplace's catalog: Codex's default remote catalog, read only when the official
 * tab is opened (`plugins/catalog`) or refreshed (`marketplaces/refresh`), through plugin-inventory's
 * 60-second cache keyed by device, runtime instance, Codex auth fingerprint and Wegent account.
 * Concurrent reads share one fetch, expiry alone fetches nothing, installs and local refreshes do not
 * invalidate it, and an account change rejects responses still in flight.
 *
 * Codex 0.171.0 has no remote-only marketplace kind: the fetch is `plugin/list` without a kind filter
 * (local marketplaces plus the remote catalog), of which only the official entry is kept and projected.
 * The fetch is a port: tests may replace it. Its log line carries byte counts, never contents.
 */
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { PluginList } from '@wework/codex-protocol';
import {
  catalogByteCounts,
  makeOfficialCatalogCache,
  projectCatalogPlugin,
  type CatalogCacheKey,
  type CatalogPlugin,
  type CatalogReadError,
  type FetchCatalog,
} from '@wework/plugin-inventory';
import type { Clock, Log } from '@wework/ports';
import type { RuntimeFault } from '@wework/host-errors';
import { runtimeErrorOf } from '../runtime/RuntimeError.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';

/** The name Codex 0.171.0 gives its default remote catalog (`plugin/list`, `path: null`). */
export const OFFICIAL_MARKETPLACE = 'openai-curated-remote';

/** The official catalog as fetched: its display name and its plugins, projected. */
export interface OfficialCatalogValue {
  readonly displayName: string | null;
  readonly plugins: ReadonlyArray<CatalogPlugin>;
}

/** Why the official catalog could not be fetched. */
export type OfficialFetchError =
  /** Codex answered without the official catalog (offline, not signed in to ChatGPT, or the remote catalog failed). */
  | { readonly _tag: 'OfficialNotListed' }
  | { readonly _tag: 'Runtime'; readonly error: RuntimeFault };

/** Why a read of the official catalog has no value. */
export type OfficialCatalogError = CatalogReadError<OfficialFetchError>;

/** The non-secret claims of a Codex sign-in. */
export interface SignIn {
  /** `chatgpt`, `apikey`, … (the official catalog needs `chatgpt`). */
  readonly kind: string;
  readonly id: string;
  readonly email: string | null;
  readonly planType: string | null;
}

/** The official catalog of one executor. */
export interface OfficialCatalog {
  /** The catalog for the current key: cached while fresh, else fetched (shared by concurrent reads). */
  read(): Promise<E.Either<OfficialCatalogError, OfficialCatalogValue>>;
  /** An explicit refetch (the refresh button): bypasses the cache, Codex's included (`forceRefetch`). */
  refresh(): Promise<E.Either<OfficialCatalogError, OfficialCatalogValue>>;
  /** When the cached value stops being served (epoch ms), `null` when there is none. */
  cachedUntil(): Promise<number | null>;
  /** Whether Codex is signed in with ChatGPT (the official catalog needs it). */
  available(): Promise<boolean>;
  /** An account switch or logout: the cache is emptied and responses still in flight are rejected. */
  accountChanged(): void;
}

/** What {@link officialCatalog} needs. */
export interface OfficialCatalogOptions {
  readonly runtime: RuntimeSupervisor;
  readonly clock: Clock;
  readonly log: Log;
  /** This device (Codex's installation id). */
  readonly deviceId: () => Promise<string>;
  /**
   * The Codex sign-in in use, from the Wework Codex home (local: no request leaves the device), as
   * non-secret claims; `null` when signed out.
   */
  readonly signIn: () => Promise<SignIn | null>;
  /** The Wegent account signed in, `null` when none. */
  readonly wegentAccount?: () => string | null;
  /** Replaces the upstream fetch (tests); default {@link codexOfficialFetch}. */
  readonly fetch?: FetchCatalog<OfficialFetchError, OfficialCatalogValue>;
}

/** A fingerprint of the Codex sign-in: a hash of its non-secret claims (never a token). */
function authFingerprint(signIn: SignIn | null): string {
  return createHash('sha256')
    .update(JSON.stringify(signIn === null ? null : [signIn.kind, signIn.id, signIn.email, signIn.planType]))
    .digest('hex')
    .slice(0, 32);
}

/** The default fetch: `plugin/list` (with `forceRefetch` on a refresh), the official entry projected. */
export function codexOfficialFetch(runtime: RuntimeSupervisor, log: Log): FetchCatalog<OfficialFetchError, OfficialCatalogValue> {
  return async (_key, { force }) => {
    const running = runtime.ready();
    if (E.isLeft(running)) return E.left({ _tag: 'Runtime', error: running.left });
    const listed = await running.right.server.client.request(PluginList, force ? { forceRefetch: true } : {});
    if (E.isLeft(listed)) return E.left({ _tag: 'Runtime', error: runtimeErrorOf(PluginList.method, listed.left) });
    const official = listed.right.marketplaces.find((entry) => entry.name === OFFICIAL_MARKETPLACE && entry.path === null);
    if (official === undefined) {
      log({ event: 'official catalog not listed', fields: { marketplaces: listed.right.marketplaces.length, loadErrors: listed.right.marketplaceLoadErrors.length } });
      return E.left({ _tag: 'OfficialNotListed' });
    }
    log({ event: 'official catalog fetched', fields: { force, ...catalogByteCounts(official.plugins) } });
    return E.right({
      displayName: official.interface?.displayName ?? null,
      plugins: official.plugins.map((plugin) => projectCatalogPlugin({ name: plugin.name, marketplace: official.name }, plugin)),
    });
  };
}

/** The official catalog over the runtime, the cache and the clock. */
export function officialCatalog(options: OfficialCatalogOptions): OfficialCatalog {
  const cache = makeOfficialCatalogCache<OfficialFetchError, OfficialCatalogValue>({ fetch: options.fetch ?? codexOfficialFetch(options.runtime, options.log), clock: options.clock });
  const key = async (): Promise<CatalogCacheKey> => ({
    deviceId: await options.deviceId(),
    runtimeInstanceId: String(options.runtime.current().server.pid),
    authFingerprint: authFingerprint(await options.signIn()),
    accountId: options.wegentAccount?.() ?? null,
  });
  return {
    read: async () => cache.read(await key()),
    refresh: async () => cache.refresh(await key()),
    cachedUntil: async () => cache.expiresAt(await key()),
    available: async () => (await options.signIn())?.kind === 'chatgpt',
    accountChanged: () => cache.reset(),
  };
}
