/**
 * When a cached model catalog may be used, and when it must be read again. One cache per app-server
 * connection: the catalog `model/list` returned stays valid until something that can change it happens
 * — the app-server restarted, the account changed (a login, a logout, another account), a config write
 * touching the model or the model providers (or a config reload, which may pick up such edits) — and an
 * explicit catalog request always reads it anew. A read that was under way while such a change happened
 * never fills the cache (each change starts a new generation).
 *
 * A send checks its saved model against the cached catalog; a model that is absent from it (or a
 * catalog without a default for a task without a saved model) reads the catalog exactly once more before
 * the send is blocked: the cache may be older than the model.
 *
 * Every function here is pure: values in, values out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ModelCatalog } from './ModelCatalog.js';
import { checkSendable, type Sendable, type SendBlocked } from './Sendability.js';
import { isRecord } from '@wework/decode-issues';

/** What makes a cached catalog stale. */
export type CatalogChange =
  | { readonly _tag: 'AppServerRestarted' }
  | { readonly _tag: 'AccountChanged' }
  | { readonly _tag: 'ModelConfigWritten' }
  | { readonly _tag: 'ListRequested' };

/** A request or response id on the wire. */
export type WireId = string | number;

/**
 * The cache's state: the catalog of the current generation, if one was read, and the config writes
 * touching models that were sent and not answered yet (their answer starts a new generation again: a
 * read that overlapped the write may have seen the old config).
 */
export interface CatalogFreshness {
  readonly generation: number;
  readonly catalog: ModelCatalog | null;
  readonly writesInFlight: ReadonlyArray<WireId>;
}

/** The most config writes tracked at once; more (a misbehaving caller) are forgotten, oldest first. */
export const MAX_TRACKED_WRITES = 64;

/** Nothing cached yet. */
export const emptyFreshness: CatalogFreshness = { generation: 0, catalog: null, writesInFlight: [] };

/**
 * The state after a change: nothing cached, a new generation (a read under way cannot fill it).
 * @example
 * ```ts
 * import { catalogChanged, emptyFreshness } from '@wework/model-catalog';
 * catalogChanged(emptyFreshness, { _tag: 'AccountChanged' }).catalog; // null
 * ```
 */
export const catalogChanged = (state: CatalogFreshness, _change: CatalogChange): CatalogFreshness => ({
  generation: state.generation + 1,
  catalog: null,
  writesInFlight: state.writesInFlight,
});

/**
 * The state after a read that started in `generation` returned `catalog`: cached when no change happened
 * meanwhile, otherwise unchanged.
 */
export const catalogRead = (state: CatalogFreshness, generation: number, catalog: ModelCatalog): CatalogFreshness =>
  generation === state.generation ? { ...state, catalog } : state;

/** What a send does next: use the cached catalog, or read it (and where the result goes). */
export type CatalogLookup = { readonly _tag: 'Cached'; readonly catalog: ModelCatalog } | { readonly _tag: 'Read'; readonly generation: number };

/** A send's lookup: the cached catalog when there is one, otherwise a read in the current generation. */
export const lookupCatalog = (state: CatalogFreshness): CatalogLookup =>
  state.catalog === null ? { _tag: 'Read', generation: state.generation } : { _tag: 'Cached', catalog: state.catalog };

/** Where the catalog a send checked came from. */
export type CatalogSource = 'cache' | 'read';

/** The outcome of checking a send against a catalog. */
export type SendCheck =
  | { readonly _tag: 'Send'; readonly sendable: Sendable }
  | { readonly _tag: 'ReadAgain' }
  | { readonly _tag: 'Blocked'; readonly blocked: SendBlocked };

/**
 * Checks a send's saved model (`null`/`undefined`: the default) against a catalog: sendable, blocked
 * (the catalog was just read), or to be checked once more against a new read (the catalog came from the
 * cache, which may be older than the model).
 * @example
 * ```ts
 * import { checkSendWith, emptyCatalog } from '@wework/model-catalog';
 * checkSendWith(emptyCatalog, 'gpt-5', 'cache')._tag; // 'ReadAgain'
 * checkSendWith(emptyCatalog, 'gpt-5', 'read')._tag; // 'Blocked'
 * ```
 */
export const checkSendWith = (catalog: ModelCatalog, savedModel: string | null | undefined, source: CatalogSource): SendCheck => {
  const sendable = checkSendable(catalog, savedModel);
  if (E.isRight(sendable)) return { _tag: 'Send', sendable: sendable.right };
  return source === 'cache' ? { _tag: 'ReadAgain' } : { _tag: 'Blocked', blocked: sendable.left };
};

/** Whether a config key path (`model`, `model_providers.local.base_url`, `profiles.fast.model`, ...) can change the catalog. */
export const keyPathTouchesModels = (keyPath: string): boolean => {
  const first = (keyPath.split('.')[0] ?? '').trim().replace(/^"(.*)"$/, '$1');
  return first === 'model' || first.startsWith('model_') || first === 'profile' || first === 'profiles';
};

/**
 * Whether the params of a `config/value/write` or `config/batchWrite` can change the catalog: an edit of
 * a key path that touches models, or a config reload without edits (it may pick up any edit of config.toml).
 * Params of another shape are taken to touch it (a stale cache is worse than one read more).
 */
export const configWriteTouchesModels = (method: string, params: unknown): boolean => {
  if (!isRecord(params)) return true;
  if (method === 'config/value/write') return typeof params['keyPath'] !== 'string' || keyPathTouchesModels(params['keyPath']);
  const edits = params['edits'];
  if (!Array.isArray(edits)) return true;
  if (edits.length === 0) return params['reloadUserConfig'] === true;
  return edits.some((edit) => !isRecord(edit) || typeof edit['keyPath'] !== 'string' || keyPathTouchesModels(edit['keyPath']));
};

/** The methods of the client requests that write config. */
const CONFIG_WRITES: ReadonlySet<string> = new Set(['config/value/write', 'config/batchWrite']);
/** The client requests that change the account the app-server runs as. */
const ACCOUNT_REQUESTS: ReadonlySet<string> = new Set(['account/logout']);
/** The app-server's notifications of an account change. */
const ACCOUNT_NOTIFICATIONS: ReadonlySet<string> = new Set(['account/updated', 'account/login/completed']);

/** One JSON-RPC message as a wire tap sees it (the fields read here). */
export interface WireMessage {
  readonly id?: WireId | null;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/**
 * The state after one message on the app-server connection (`outgoing` to it, `incoming` from it): an
 * account change (`account/logout` sent, `account/updated` or `account/login/completed` received) and a
 * config write touching models (when sent, and again when answered) start a new generation.
 */
export const watchWire = (state: CatalogFreshness, direction: 'incoming' | 'outgoing', message: WireMessage): CatalogFreshness => {
  const { method, id } = message;
  if (direction === 'outgoing') {
    if (method === undefined) return state;
    if (ACCOUNT_REQUESTS.has(method)) return catalogChanged(state, { _tag: 'AccountChanged' });
    if (!CONFIG_WRITES.has(method) || !configWriteTouchesModels(method, message.params)) return state;
    const changed = catalogChanged(state, { _tag: 'ModelConfigWritten' });
    if (id === undefined || id === null) return changed;
    return { ...changed, writesInFlight: [...state.writesInFlight, id].slice(-MAX_TRACKED_WRITES) };
  }
  if (method !== undefined) return id === undefined && ACCOUNT_NOTIFICATIONS.has(method) ? catalogChanged(state, { _tag: 'AccountChanged' }) : state;
  const index = id === undefined || id === null ? -1 : state.writesInFlight.indexOf(id);
  if (index < 0) return state;
  const answered = catalogChanged(state, { _tag: 'ModelConfigWritten' });
  return { ...answered, writesInFlight: [...state.writesInFlight.slice(0, index), ...state.writesInFlight.slice(index + 1)] };
};
