/**
 * The model catalog of the running app-server, cached for sends: `message/send` checks the task's saved
 * model against it without a `model/list` round trip per message. One cache per app-server process; the
 * freshness rules are `@wework/model-catalog`'s (`CatalogFreshness`): the cache is dropped when the
 * app-server restarts (another `LocalRuntime`), when the account changes (told by the account service, or
 * seen on the wire: `account/logout`, `account/updated`, `account/login/completed`) and when a config
 * write touching models or model providers is sent or answered. `models/list` always reads and refills
 * it. A send whose saved model is absent from the cached catalog reads it once more before it is blocked.
 * Concurrent reads of one generation share one `model/list` walk.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  catalogChanged,
  catalogRead,
  checkSendWith,
  emptyFreshness,
  lookupCatalog,
  watchWire,
  type CatalogChange,
  type CatalogFreshness,
  type ModelCatalog,
} from '@wework/model-catalog';
import type { RuntimeFault } from '@wework/host-errors';
import type { LocalRuntime } from './LocalRuntime.js';

/** The executor's catalog cache. */
export interface ModelCatalogCache {
  /**
   * The catalog a send of `savedModel` (`null`/`undefined`: the default model) is checked against: the
   * cached one when it can send it, otherwise one read now (which may block it).
   */
  forSend(runtime: LocalRuntime, savedModel: string | null | undefined): Promise<E.Either<RuntimeFault, ModelCatalog>>;
  /** Reads the catalog (an explicit `models/list`) and caches what was read. */
  list(runtime: LocalRuntime): Promise<E.Either<RuntimeFault, ModelCatalog>>;
  /** Another account signed in or switched to: the cached catalog was that of the old one. */
  accountChanged(): void;
}

/** A `model/list` walk under way, and the generation it fills. */
interface Reading {
  readonly generation: number;
  readonly result: Promise<E.Either<RuntimeFault, ModelCatalog>>;
}

/** A catalog cache over the runtime's `loadModelCatalog`. */
export function modelCatalogCache(): ModelCatalogCache {
  let state: CatalogFreshness = emptyFreshness;
  let attached: LocalRuntime | null = null;
  let tap: { dispose(): void } | null = null;
  let reading: Reading | null = null;

  const change = (what: CatalogChange): void => {
    state = catalogChanged(state, what);
  };

  /** Follows the runtime the executor runs now: a new one is a new app-server process, with nothing cached. */
  const follow = (runtime: LocalRuntime): void => {
    if (runtime === attached) return;
    tap?.dispose();
    if (attached !== null) change({ _tag: 'AppServerRestarted' });
    attached = runtime;
    state = { ...state, writesInFlight: [] };
    tap = runtime.server.client.onMessage((direction, message) => {
      if (attached === runtime) state = watchWire(state, direction, message);
    });
  };

  /** Reads the catalog into the current generation; a read of this generation under way is shared. */
  const read = (runtime: LocalRuntime): Promise<E.Either<RuntimeFault, ModelCatalog>> => {
    const { generation } = state;
    if (reading !== null && reading.generation === generation) return reading.result;
    let current: Reading | null = null;
    const result = runtime.loadModelCatalog().then((catalog) => {
      // Done: a later read of this generation (a send's second look) reads anew.
      if (reading === current) reading = null;
      if (E.isRight(catalog) && attached === runtime) state = catalogRead(state, generation, catalog.right);
      return catalog;
    });
    current = { generation, result };
    reading = current;
    return result;
  };

  return {
    forSend: async (runtime, savedModel) => {
      follow(runtime);
      const lookup = lookupCatalog(state);
      if (lookup._tag === 'Read') return read(runtime);
      // Absent from the cache: it may be older than the model; one read decides.
      return checkSendWith(lookup.catalog, savedModel, 'cache')._tag === 'ReadAgain' ? read(runtime) : E.right(lookup.catalog);
    },
    list: (runtime) => {
      follow(runtime);
      change({ _tag: 'ListRequested' });
      return read(runtime);
    },
    accountChanged: () => change({ _tag: 'AccountChanged' }),
  };
}
