/**
 * The plugin pages' marketplaces, catalogs and details composed for one executor: the official
 * catalog (its cache), the custom marketplaces (their stored order) and the catalog reader, and how
 * their typed errors read for a person and which host error code each one is answered with. The
 * messages name the marketplace or plugin the host asked for only when it is a valid identity
 * segment; Codex's own refusal texts are never passed on.
 */
import { join } from 'node:path';
import { HostErrorCode } from '@wework/host-protocol';
import type { FetchCatalog } from '@wework/plugin-inventory';
import type { Clock } from '@wework/ports';
import { nodeFileSystem, readSmallFile } from '@wework/ports/node';
import * as E from 'fp-ts/lib/Either.js';
import type { AccountService } from '../accounts/AccountService.js';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { marketplacePreferencesStore } from './MarketplacePreferencesStore.js';
import { marketplaces, preferencesFile, type Marketplaces } from './Marketplaces.js';
import { officialCatalog, type OfficialCatalog, type OfficialCatalogValue, type OfficialFetchError } from './OfficialCatalog.js';
import { pluginCatalog, type CatalogError, type PluginCatalog } from './PluginCatalog.js';

/** The marketplaces, catalogs and details of one executor. */
export interface MarketplacePages {
  readonly official: OfficialCatalog;
  readonly marketplaces: Marketplaces;
  readonly catalog: PluginCatalog;
}

/** What {@link marketplacePages} needs. */
export interface MarketplacePagesOptions {
  readonly runtime: RuntimeSupervisor;
  readonly executorHome: string;
  readonly codexHome: string;
  readonly clock: Clock;
  readonly log: ExecutorLog;
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
  return { official, marketplaces: custom, catalog: pluginCatalog({ runtime: options.runtime, marketplaces: custom, official, log: options.log }) };
}

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
/** A name the host sent, quoted when it is a valid identity segment (else not echoed). */
const named = (name: string): string => (SEGMENT.test(name) ? ` ${JSON.stringify(name)}` : '');

/** The host error code of a marketplace or catalog error (runtime errors have their own). */
export function marketplaceFailureCode(error: Exclude<CatalogError, { readonly _tag: 'Runtime' }>): HostErrorCode {
  switch (error._tag) {
    case 'MarketplaceNotFound':
      return HostErrorCode.MarketplaceNotFound;
    case 'OfficialNotEditable':
    case 'ReorderRefused':
      return HostErrorCode.MarketplaceNotEditable;
    case 'MarketplaceRefused':
      return HostErrorCode.MarketplaceRefused;
    case 'CatalogPluginNotFound':
      return HostErrorCode.CatalogPluginNotFound;
    case 'OfficialUnavailable':
    case 'CatalogUnavailable':
      return HostErrorCode.CatalogUnavailable;
    case 'PreferencesUnwritable':
      return HostErrorCode.InternalError;
  }
}

/** A sentence for a person (names only when they are valid identity segments; never Codex's text or a path). */
export function describeMarketplaceError(error: CatalogError): string {
  switch (error._tag) {
    case 'MarketplaceNotFound':
      return `no marketplace${named(error.name)} is configured`;
    case 'OfficialNotEditable':
      return 'the OpenAI official marketplace cannot be removed, reordered or edited';
    case 'ReorderRefused':
      return `the order must list every custom marketplace exactly once (${error.reason._tag}${named(error.reason.name)})`;
    case 'MarketplaceRefused':
      return `Codex refused the marketplace (${error.reason}); nothing was added or changed`;
    case 'CatalogPluginNotFound':
      return `no plugin${named(error.plugin)} in marketplace${named(error.marketplace)}`;
    case 'OfficialUnavailable':
    case 'CatalogUnavailable':
      return `the OpenAI official catalog could not be read (${error.reason}); sign in with ChatGPT and check the network, then refresh`;
    case 'PreferencesUnwritable':
      return `the marketplace order could not be saved (${error.reason})`;
    case 'Runtime':
      return error.error._tag;
  }
}
