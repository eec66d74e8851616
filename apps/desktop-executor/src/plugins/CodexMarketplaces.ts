/**
 * The plugin page's marketplaces: the OpenAI official marketplace (from Codex, always first, never
 * edited) and the user's custom marketplaces (Codex's `[marketplaces.*]` of config.toml) in the
 * user's order. Codex manages them (`marketplace/add`, `marketplace/remove`, `marketplace/upgrade`,
 * `plugin/list { marketplaceKinds: ['local'] }`); the executor keeps only the user's order and labels,
 * in one small JSON file of its home written atomically. A refused request changes nothing on disk:
 * every check runs before Codex is asked, and Codex refuses a bad source before it writes.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { MarketplaceEntry, MarketplaceList } from '@wework/host-protocol';
import { ConfigRead, MarketplaceAdd, MarketplaceRemove, MarketplaceUpgrade, PluginList } from '@wework/codex-protocol';
import { orderMarketplaces, reorderMarketplaces, type MarketplacePreferences } from '@wework/plugin-inventory';
import type { ClientError } from '@wework/app-server-client';
import type { Log } from '@wework/ports';
import type { MarketplaceFault } from '@wework/host-errors';
import { runtimeErrorOf } from '../runtime/RuntimeError.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { OFFICIAL_MARKETPLACE, type OfficialCatalog } from './OfficialCatalog.js';
import type { MarketplacePreferencesStore } from './MarketplacePreferencesStore.js';

/** Why Codex refused to add or refresh a marketplace (a category; Codex's own text is not echoed). */
export type MarketplaceRefusal = 'InvalidSource' | 'NotADirectory' | 'NotAMarketplace' | 'FileNotAtMarketplaceRoot' | 'RefOnlyForGit' | 'CloneFailed' | 'UpgradeFailed' | 'Refused';

/** One custom marketplace as Codex's config.toml holds it. */
const ConfiguredMarketplace = t.partial({ source_type: t.union([t.string, t.null]), source: t.union([t.string, t.null]), ref: t.union([t.string, t.null]) });
const ConfiguredMarketplaces = t.record(t.string, ConfiguredMarketplace);

/** The custom marketplaces Codex has configured, by name. */
type Configured = Readonly<Record<string, t.TypeOf<typeof ConfiguredMarketplace>>>;

/** The marketplace operations of the host protocol. */
export interface Marketplaces {
  list(): Promise<E.Either<MarketplaceFault, MarketplaceList>>;
  add(request: { readonly source: string; readonly name?: string; readonly refName?: string }): Promise<E.Either<MarketplaceFault, { readonly marketplace: MarketplaceEntry; readonly alreadyAdded: boolean }>>;
  remove(name: string): Promise<E.Either<MarketplaceFault, void>>;
  reorder(names: ReadonlyArray<string>): Promise<E.Either<MarketplaceFault, MarketplaceList>>;
  refresh(name: string): Promise<E.Either<MarketplaceFault, { readonly marketplace: MarketplaceEntry; readonly plugins: number }>>;
  /** The custom marketplace `name` as Codex lists it: its `marketplace.json` path, or why there is none. */
  localPath(name: string): Promise<E.Either<MarketplaceFault, string>>;
}

/** What {@link marketplaces} needs. */
export interface MarketplacesOptions {
  readonly runtime: RuntimeSupervisor;
  readonly official: OfficialCatalog;
  readonly preferences: MarketplacePreferencesStore;
  readonly log: Log;
}

/** The category of Codex's refusal of `marketplace/add` or `marketplace/upgrade` (its text is never passed on). */
function refusalOf(error: ClientError, fallback: MarketplaceRefusal): MarketplaceRefusal {
  if (error._tag !== 'RequestFailed') return fallback;
  const text = error.message;
  if (text.includes('invalid marketplace source format') || text.includes('must not be empty')) return 'InvalidSource';
  if (text.includes('must be a directory')) return 'NotADirectory';
  if (text.includes('only supported for git')) return 'RefOnlyForGit';
  if (/clone|git/i.test(text) && fallback === 'Refused') return 'CloneFailed';
  if (text.includes('marketplace.json') || text.includes('marketplace root') || text.includes('failed to resolve local marketplace source')) return 'NotAMarketplace';
  return fallback;
}

/** The directory Codex takes for a `marketplace.json` file: the root above `.agents/plugins/` (or `.claude-plugin/`). */
function rootOfManifest(file: string): string | null {
  const parent = dirname(file);
  if (basename(parent) === 'plugins' && basename(dirname(parent)) === '.agents') return dirname(dirname(parent));
  if (basename(parent) === '.claude-plugin') return dirname(parent);
  return null;
}

/** The marketplaces over the runtime, the official catalog and the executor's preferences. */
export function marketplaces(options: MarketplacesOptions): Marketplaces {
  const { runtime, official, preferences, log } = options;
  // Mutations one at a time, so the stored order never loses an update.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <A>(run: () => Promise<A>): Promise<A> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  const codex = async <A>(method: string, call: (client: ReturnType<RuntimeSupervisor['current']>['server']['client']) => Promise<E.Either<ClientError, A>>): Promise<E.Either<{ readonly runtime: MarketplaceFault; readonly client?: ClientError }, A>> => {
    const running = runtime.ready();
    if (E.isLeft(running)) return E.left({ runtime: { _tag: 'Runtime', error: running.left } });
    const answer = await call(running.right.server.client);
    return E.isLeft(answer) ? E.left({ runtime: { _tag: 'Runtime', error: runtimeErrorOf(method, answer.left) }, client: answer.left }) : E.right(answer.right);
  };

  const configured = async (): Promise<E.Either<MarketplaceFault, Configured>> => {
    const read = await codex(ConfigRead.method, (client) => client.request(ConfigRead, {}));
    if (E.isLeft(read)) return E.left(read.left.runtime);
    const decoded = ConfiguredMarketplaces.decode((read.right.config as Readonly<Record<string, unknown>>)['marketplaces'] ?? {});
    if (E.isLeft(decoded)) log({ event: 'marketplace config unreadable', fields: { reason: 'shape' } });
    return E.right(E.isRight(decoded) ? decoded.right : {});
  };

  const list = async (): Promise<E.Either<MarketplaceFault, MarketplaceList>> => {
    const config = await configured();
    if (E.isLeft(config)) return config;
    const listed = await codex(PluginList.method, (client) => client.request(PluginList, { marketplaceKinds: ['local'] }));
    if (E.isLeft(listed)) return E.left(listed.left.runtime);
    const prefs = await preferences.read();
    const names = orderMarketplaces(Object.keys(config.right).filter((name) => name !== OFFICIAL_MARKETPLACE), prefs.names);
    const custom = names.map((name): MarketplaceEntry => {
      const entry = config.right[name] ?? {};
      const reported = listed.right.marketplaces.find((marketplace) => marketplace.name === name);
      const kind = entry.source_type === 'git' ? 'git' : 'local';
      const source = entry.source == null ? null : entry.ref == null ? entry.source : `${entry.source}#${entry.ref}`;
      return { name, kind, source, displayName: prefs.labels[name] ?? reported?.interface?.displayName ?? null, editable: true, ...(reported === undefined ? { loadError: 'Codex could not load this marketplace (its directory or marketplace.json is missing or invalid)' } : {}) };
    });
    const entries: MarketplaceEntry[] = [];
    if (await official.available()) entries.push({ name: OFFICIAL_MARKETPLACE, kind: 'official', source: null, displayName: 'OpenAI', editable: false });
    entries.push(...custom);
    return E.right({ marketplaces: entries, welcome: entries.length === 0 });
  };

  const entryOf = async (name: string): Promise<E.Either<MarketplaceFault, MarketplaceEntry>> => {
    const listedNow = await list();
    if (E.isLeft(listedNow)) return listedNow;
    const entry = listedNow.right.marketplaces.find((marketplace) => marketplace.name === name);
    return entry === undefined ? E.left({ _tag: 'MarketplaceNotFound', name }) : E.right(entry);
  };

  const savePreferences = async (next: MarketplacePreferences): Promise<E.Either<MarketplaceFault, void>> => {
    const saved = await preferences.write(next);
    return E.isLeft(saved) ? E.left({ _tag: 'PreferencesUnwritable', reason: saved.left }) : E.right(undefined);
  };

  return {
    list,
    add: (request) =>
      serialized(async () => {
        // A marketplace.json file stands for its marketplace root (Codex takes directories only).
        let source = request.source.trim();
        const local = source.startsWith('/') || source.startsWith('./') || source.startsWith('../') || source.startsWith('~/');
        if (local && basename(source) === 'marketplace.json' && (await stat(source).then((found) => found.isFile(), () => false))) {
          const root = rootOfManifest(source);
          if (root === null) return E.left({ _tag: 'MarketplaceRefused', reason: 'FileNotAtMarketplaceRoot' });
          source = root;
        }
        const added = await codex(MarketplaceAdd.method, (client) => client.request(MarketplaceAdd, { source, ...(request.refName === undefined ? {} : { refName: request.refName }) }));
        if (E.isLeft(added)) {
          if (added.left.client?._tag === 'RequestFailed') {
            const reason = refusalOf(added.left.client, 'Refused');
            log({ event: 'marketplace add refused', fields: { reason, sourceBytes: Buffer.byteLength(source) } });
            return E.left({ _tag: 'MarketplaceRefused', reason });
          }
          return E.left(added.left.runtime);
        }
        const name = added.right.marketplaceName;
        const prefs = await preferences.read();
        const labels = request.name === undefined ? prefs.labels : { ...prefs.labels, [name]: request.name };
        const saved = await savePreferences({ names: prefs.names.includes(name) ? prefs.names : [...prefs.names, name], labels });
        if (E.isLeft(saved) && !added.right.alreadyAdded) {
          // All or nothing: Codex added it, the order could not be saved (a full disk). Codex's half is undone, so
          // the answer "failed" is true; where even that fails, the marketplace stays added (listed last, its
          // label unsaved) and the answer says it was added, never "failed" for an add that happened.
          const undone = await codex(MarketplaceRemove.method, (client) => client.request(MarketplaceRemove, { marketplaceName: name }));
          log({ event: 'marketplace add undone', fields: { undone: E.isRight(undone) } });
          if (E.isRight(undone)) return saved;
        } else if (E.isLeft(saved)) return saved;
        log({ event: 'marketplace added', fields: { alreadyAdded: added.right.alreadyAdded, orderSaved: E.isRight(saved) } });
        const entry = await entryOf(name);
        return E.isLeft(entry) ? entry : E.right({ marketplace: entry.right, alreadyAdded: added.right.alreadyAdded });
      }),
    remove: (name) =>
      serialized(async () => {
        if (name === OFFICIAL_MARKETPLACE) return E.left({ _tag: 'OfficialNotEditable', name });
        const config = await configured();
        if (E.isLeft(config)) return config;
        if (!Object.prototype.hasOwnProperty.call(config.right, name)) return E.left({ _tag: 'MarketplaceNotFound', name });
        const removed = await codex(MarketplaceRemove.method, (client) => client.request(MarketplaceRemove, { marketplaceName: name }));
        if (E.isLeft(removed)) return E.left(removed.left.runtime);
        const prefs = await preferences.read();
        const labels = Object.fromEntries(Object.entries(prefs.labels).filter(([key]) => key !== name));
        const saved = await savePreferences({ names: prefs.names.filter((known) => known !== name), labels });
        // Codex removed it, so the answer says so even when the order could not be saved (a full disk): a
        // name left in the saved order sorts nothing (the order only ranks configured marketplaces) and goes
        // with the next save. Answering "failed" here would be false to what is on disk.
        log({ event: 'marketplace removed', fields: { orderSaved: E.isRight(saved) } });
        return E.right(undefined);
      }),
    reorder: (names) =>
      serialized(async () => {
        const current = await list();
        if (E.isLeft(current)) return current;
        const custom = current.right.marketplaces.filter((entry) => entry.editable).map((entry) => entry.name);
        const accepted = reorderMarketplaces(custom, names, [OFFICIAL_MARKETPLACE]);
        if (E.isLeft(accepted)) {
          const reason = accepted.left;
          if (reason._tag === 'OfficialNotReorderable') return E.left({ _tag: 'OfficialNotEditable', name: reason.name });
          if (reason._tag === 'UnknownMarketplace') return E.left({ _tag: 'MarketplaceNotFound', name: reason.name });
          return E.left({ _tag: 'ReorderRefused', reason });
        }
        const prefs = await preferences.read();
        const saved = await savePreferences({ names: accepted.right, labels: prefs.labels });
        if (E.isLeft(saved)) return saved;
        log({ event: 'marketplaces reordered', fields: { count: accepted.right.length } });
        return list();
      }),
    refresh: async (name) => {
      if (name === OFFICIAL_MARKETPLACE) {
        const refreshed = await official.refresh();
        if (E.isLeft(refreshed)) return E.left({ _tag: 'OfficialUnavailable', reason: refreshed.left._tag === 'FetchFailed' ? refreshed.left.error._tag : refreshed.left._tag });
        const entry = await entryOf(name);
        return E.isLeft(entry) ? entry : E.right({ marketplace: entry.right, plugins: refreshed.right.plugins.length });
      }
      const config = await configured();
      if (E.isLeft(config)) return config;
      const configuredEntry = config.right[name];
      if (configuredEntry === undefined) return E.left({ _tag: 'MarketplaceNotFound', name });
      if (configuredEntry.source_type === 'git') {
        const upgraded = await codex(MarketplaceUpgrade.method, (client) => client.request(MarketplaceUpgrade, { marketplaceName: name }));
        if (E.isLeft(upgraded)) return upgraded.left.client?._tag === 'RequestFailed' ? E.left({ _tag: 'MarketplaceRefused', reason: refusalOf(upgraded.left.client, 'UpgradeFailed') }) : E.left(upgraded.left.runtime);
        if (upgraded.right.errors.length > 0) return E.left({ _tag: 'MarketplaceRefused', reason: 'UpgradeFailed' });
        log({ event: 'marketplace upgraded', fields: { roots: upgraded.right.upgradedRoots.length } });
      }
      // A local marketplace is read from its directory on every list: a refresh is a new read.
      const listed = await codex(PluginList.method, (client) => client.request(PluginList, { marketplaceKinds: ['local'] }));
      if (E.isLeft(listed)) return E.left(listed.left.runtime);
      const entry = await entryOf(name);
      const plugins = listed.right.marketplaces.find((marketplace) => marketplace.name === name)?.plugins.length ?? 0;
      return E.isLeft(entry) ? entry : E.right({ marketplace: entry.right, plugins });
    },
    localPath: async (name) => {
      const listed = await codex(PluginList.method, (client) => client.request(PluginList, { marketplaceKinds: ['local'] }));
      if (E.isLeft(listed)) return E.left(listed.left.runtime);
      const path = listed.right.marketplaces.find((marketplace) => marketplace.name === name)?.path ?? null;
      return path === null ? E.left({ _tag: 'MarketplaceNotFound', name }) : E.right(path);
    },
  };
}

/** Where the executor keeps the user's marketplace order and labels. */
export const preferencesFile = (executorHome: string): string => join(executorHome, 'marketplaces.json');
