/**
 * The plugin pages' marketplaces, catalogs and details composed for one executor: the official
 * catalog (its cache), the custom marketplaces (their stored order) and the catalog reader, and how
 * their typed errors are answered with `@wework/host-errors`'s `marketplaceFailure` (a message never
 * names the marketplace or plugin the host asked for, nor Codex's own refusal text).
 */
import { join } from 'node:path';
import type { FetchCatalog } from '@wework/plugin-inventory';
import type { Clock, Log } from '@wework/ports';
import { nodeFileSystem, readSmallFile } from '@wework/ports/node';
import * as E from 'fp-ts/lib/Either.js';
import type { AccountService } from '../accounts/AccountService.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { marketplacePreferencesStore } from './MarketplacePreferencesStore.js';
import { marketplaces, preferencesFile, type Marketplaces } from './CodexMarketplaces.js';
import { officialCatalog, type OfficialCatalog, type OfficialCatalogValue, type OfficialFetchError } from './OfficialCatalog.js';
import { catalogReader, type CatalogReader } from './CatalogReader.js';

/** The marketplaces, catalogs and details of one executor. */
export interface MarketplacePages {
  readonly official: OfficialCatalog;
  readonly marketplaces: Marketplaces;
  readonly catalog: CatalogReader;
}

/** What {@link marketplacePages} needs. */
export interface MarketplacePagesOptions {
  readonly runtime: RuntimeSupervisor;
  readonly executorHome: string;
  readonly codexHome: string;
  readonly clock: Clock;
  readonly log: Log;
  /** The Codex accounts (the active sign-in keys the official catalog's cache). */
  readonly accounts: AccountService;
  /** Replaces the official catalog's upstream fetch (tests). */
  readonly officialFetch?: FetchCatalog<OfficialFetchError, OfficialCatalogValue>;
}

/** This device as Codex knows it (its installation id), else a fixed name. */
async function deviceIdOf(codexHome: string): Promise<string> {
  // Codex's file; a regular file of a few bytes, never waited on.
  const read = await readSmallFile(join(codexHome, 'installation_id'), { maxBytes: 256, followLinks: true });
  if (E.isLeft(read) || !read.right.complete) return 'this-device';
  const id = new TextDecoder().decode(read.right.bytes).trim();
  return /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : 'this-device';
}

/** Composes the pages over the runtime and the executor's home. */
export function marketplacePages(options: MarketplacePagesOptions): MarketplacePages {
  let deviceId: Promise<string> | undefined;
  const official = officialCatalog({
    runtime: options.runtime,
    clock: options.clock,
    log: options.log,
    deviceId: () => (deviceId ??= deviceIdOf(options.codexHome)),
    signIn: async () => {
      const listed = await options.accounts.list();
      const active = E.isRight(listed) && listed.right.activeAuth === 'present' ? listed.right.accounts.find((account) => account.active) : undefined;
      return active === undefined ? null : { kind: active.kind, id: active.id, email: active.email, planType: active.planType };
    },
    ...(options.officialFetch === undefined ? {} : { fetch: options.officialFetch }),
  });
  const preferences = marketplacePreferencesStore(nodeFileSystem(), preferencesFile(options.executorHome), options.log);
  const custom = marketplaces({ runtime: options.runtime, official, preferences, log: options.log });
  return { official, marketplaces: custom, catalog: catalogReader({ runtime: options.runtime, marketplaces: custom, official, log: options.log }) };
}
