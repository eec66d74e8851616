/**
 * The Plugins page's state (pure): the marketplaces (and the order a move of a custom one asks for),
 * the selected marketplace's catalog, the open plugin's details, the installed inventory, the remote
 * Apps / Connectors switch, the operations in flight, the connector logins the executor shows with
 * `auth/session`, and the last outcome as a sentence a person can act on. The view renders it; the
 * page's actions send the requests and dispatch their answers here.
 */
import type { CatalogPluginSummary, HostNotificationParamsOf, InstalledInventory, InstalledPlugin, MarketplaceList, PluginDetails } from '@wework/host-protocol';
import type { RequestError } from './HostClient.js';

/** Something read from the executor: not yet asked, on its way, read, or failed with a sentence. */
export type Load<T> =
  | { readonly _tag: 'Idle' }
  | { readonly _tag: 'Loading' }
  | { readonly _tag: 'Loaded'; readonly value: T }
  | { readonly _tag: 'Failed'; readonly message: string };

/** An `auth/session` notification's params. */
export type AuthSession = HostNotificationParamsOf<'auth/session'>;

/** The outcome shown at the top of the page: what happened, or what went wrong and what to do. */
export interface PluginsNotice {
  readonly kind: 'info' | 'error';
  readonly message: string;
}

/**
 * The remote Apps / Connectors switch: the value shown, and while a write is on its way the value
 * shown before it (restored when the write fails).
 */
export interface RemoteAppsSwitch {
  readonly load: Load<boolean>;
  readonly writing: { readonly previous: boolean } | null;
}

/** The whole page. */
export interface PluginsState {
  readonly marketplaces: Load<MarketplaceList>;
  /** The marketplace whose catalog is shown (a name of the loaded list), or `null`. */
  readonly selected: string | null;
  /** The selected marketplace's catalog. */
  readonly catalog: Load<ReadonlyArray<CatalogPluginSummary>>;
  /** The plugin whose details are open, and its details. */
  readonly details: { readonly marketplace: string; readonly plugin: string; readonly load: Load<PluginDetails> } | null;
  readonly inventory: Load<InstalledInventory>;
  /** The remote Apps / Connectors switch (`integrations/apps/read`), see {@link RemoteAppsSwitch}. */
  readonly remoteApps: RemoteAppsSwitch;
  /** The operations in flight, by key (see {@link operationKey}); each at most once. */
  readonly busy: ReadonlyArray<string>;
  /** The connector logins, by session id, in the order they started. */
  readonly logins: ReadonlyArray<AuthSession>;
  readonly notice: PluginsNotice | null;
}

/** The page before anything is read. */
export const initialPlugins: PluginsState = {
  marketplaces: { _tag: 'Idle' },
  selected: null,
  catalog: { _tag: 'Idle' },
  details: null,
  inventory: { _tag: 'Idle' },
  remoteApps: { load: { _tag: 'Idle' }, writing: null },
  busy: [],
  logins: [],
  notice: null,
};

/** What changes the page. */
export type PluginsAction =
  | { readonly _tag: 'MarketplacesLoading' }
  | { readonly _tag: 'MarketplacesLoaded'; readonly list: MarketplaceList }
  | { readonly _tag: 'MarketplacesFailed'; readonly message: string }
  | { readonly _tag: 'Select'; readonly marketplace: string }
  | { readonly _tag: 'CatalogLoading'; readonly marketplace: string }
  | { readonly _tag: 'CatalogLoaded'; readonly marketplace: string; readonly plugins: ReadonlyArray<CatalogPluginSummary> }
  | { readonly _tag: 'CatalogFailed'; readonly marketplace: string; readonly message: string }
  | { readonly _tag: 'OpenDetails'; readonly marketplace: string; readonly plugin: string }
  | { readonly _tag: 'DetailsLoaded'; readonly marketplace: string; readonly plugin: string; readonly details: PluginDetails }
  | { readonly _tag: 'DetailsFailed'; readonly marketplace: string; readonly plugin: string; readonly message: string }
  | { readonly _tag: 'CloseDetails' }
  | { readonly _tag: 'InventoryLoaded'; readonly inventory: InstalledInventory }
  | { readonly _tag: 'InventoryFailed'; readonly message: string }
  | { readonly _tag: 'RemoteAppsLoaded'; readonly enabled: boolean }
  | { readonly _tag: 'RemoteAppsFailed'; readonly message: string }
  | { readonly _tag: 'RemoteAppsWriting'; readonly enabled: boolean }
  | { readonly _tag: 'RemoteAppsWritten'; readonly enabled: boolean }
  | { readonly _tag: 'RemoteAppsWriteFailed'; readonly message: string }
  | { readonly _tag: 'Started'; readonly key: string }
  | { readonly _tag: 'Finished'; readonly key: string; readonly notice: PluginsNotice | null }
  | { readonly _tag: 'Login'; readonly session: AuthSession }
  | { readonly _tag: 'DismissLogin'; readonly sessionId: string }
  | { readonly _tag: 'DismissNotice' };

/** The key of an operation in flight: its verb and what it acts on (`install:notes@team`, `skill:/path/SKILL.md`). */
export const operationKey = (verb: string, subject: string): string => `${verb}:${subject}`;

/** Whether a login has ended (its state no longer changes). */
export const loginEnded = (session: AuthSession): boolean => session.state === 'ok' || session.state === 'error' || session.state === 'cancelled';

/** What the page says about a login: its phase and a sentence. */
export interface LoginView {
  readonly phase: 'pending' | 'authorized' | 'failed' | 'cancelled';
  readonly text: string;
}

/** The phase and sentence of a connector login (QR code or browser OAuth). */
export function loginView(session: AuthSession): LoginView {
  switch (session.state) {
    case 'preparing':
      return { phase: 'pending', text: 'Preparing the login…' };
    case 'waiting_scan':
      return { phase: 'pending', text: session.qr === undefined ? 'Waiting for the code…' : 'Scan this code with the app to sign in.' };
    case 'waiting_browser':
      return { phase: 'pending', text: 'Finish signing in in the browser window that opened.' };
    case 'verifying':
      return { phase: 'pending', text: 'Checking the login…' };
    case 'ok':
      return { phase: 'authorized', text: session.account === undefined || session.account === null ? 'Signed in.' : `Signed in as ${session.account}.` };
    case 'error':
      return { phase: 'failed', text: `The login failed${session.message === undefined ? '' : `: ${session.message}`}. Install again to retry.` };
    case 'cancelled':
      return { phase: 'cancelled', text: 'The login was cancelled; nothing was installed.' };
  }
}

const HINTS: Readonly<Record<number, string>> = {
  [-32020]: 'That marketplace is no longer there; refresh the list.',
  [-32021]: 'The official marketplace cannot be removed, reordered or refreshed, and an order must hold every custom marketplace once; reload the page to see the current list.',
  [-32022]: 'Check the source: a local directory holding .agents/plugins/marketplace.json (or that file), a GitHub owner/repo, or a git URL.',
  [-32023]: 'That plugin is no longer in the marketplace; refresh it.',
  [-32024]: 'The catalog could not be read now; try again in a moment.',
  [-32025]: 'That plugin is not installed on this device; refresh the page.',
  [-32026]: 'That skill is no longer installed; refresh the page.',
  [-32027]: 'That app is no longer installed; refresh the page.',
  [-32028]: 'The connector login did not complete, so nothing was installed. Install again to retry.',
  [-32011]: 'The executor is busy; try again.',
  [-32012]: 'Codex is restarting; try again in a moment.',
  [-32602]: 'Check what you entered.',
};

/** A failed request as a sentence a person can act on: what failed, why (the executor's words), and what to do. */
export function describeFailure(what: string, error: RequestError): string {
  switch (error._tag) {
    case 'Disconnected':
      return `${what} failed: the connection to the executor is down. It reconnects by itself; try again then.`;
    case 'Busy':
      return `${what} failed: too many requests are in flight. Try again.`;
    case 'Misfit':
      return `${what} failed: the executor's answer did not fit the protocol.`;
    case 'Rejected': {
      const hint = HINTS[error.code];
      return `${what} failed: ${error.message.replace(/\.?$/, '.')}${hint === undefined ? '' : ` ${hint}`}`;
    }
  }
}

/** The marketplace entries of the loaded list (none while it is not loaded). */
export const marketplacesOf = (state: PluginsState): MarketplaceList['marketplaces'] => (state.marketplaces._tag === 'Loaded' ? state.marketplaces.value.marketplaces : []);

/** Which way a custom marketplace moves in the list. */
export type MoveDirection = 'up' | 'down';

/** The names of the custom marketplaces (the editable ones; never the official one), in the listed order. */
export const customMarketplaceNames = (marketplaces: MarketplaceList['marketplaces']): ReadonlyArray<string> => marketplaces.filter((m) => m.editable).map((m) => m.name);

/**
 * The order `marketplaces/reorder` is sent for moving custom marketplace `name` one place `direction`
 * among the custom ones: every custom name exactly once, only `name` and its neighbour swapped. `null`
 * when nothing moves: `name` is not a custom marketplace (the official one never moves) or is already
 * at that end.
 * @example
 * ```ts
 * moveMarketplace(list, 'b', 'up'); // ['b', 'a', 'c'] for custom marketplaces a, b, c
 * moveMarketplace(list, 'a', 'up'); // null
 * ```
 */
export function moveMarketplace(marketplaces: MarketplaceList['marketplaces'], name: string, direction: MoveDirection): ReadonlyArray<string> | null {
  const names = customMarketplaceNames(marketplaces);
  const index = names.indexOf(name);
  const target = direction === 'up' ? index - 1 : index + 1;
  if (index === -1 || target < 0 || target >= names.length) return null;
  const moved = [...names];
  moved[index] = names[target] as string;
  moved[target] = name;
  return moved;
}

/** The inventory entry of `<plugin>@<marketplace>`, if installed. */
export function installedPlugin(state: PluginsState, marketplace: string, plugin: string): InstalledPlugin | undefined {
  if (state.inventory._tag !== 'Loaded') return undefined;
  return state.inventory.value.plugins.find((p) => p.marketplace === marketplace && p.name === plugin);
}

/** The catalog plugins matching a search: every word of `query` (case-insensitive) in the id, display name, description or category. */
export function searchCatalog(plugins: ReadonlyArray<CatalogPluginSummary>, query: string): ReadonlyArray<CatalogPluginSummary> {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return plugins;
  return plugins.filter((p) => {
    const text = [p.pluginId, p.displayName ?? '', p.shortDescription ?? '', p.category ?? ''].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** Whether an operation is in flight. */
export const isBusy = (state: PluginsState, key: string): boolean => state.busy.includes(key);

/** The one reducer of the page. */
export function reducePlugins(state: PluginsState, action: PluginsAction): PluginsState {
  switch (action._tag) {
    case 'MarketplacesLoading':
      return state.marketplaces._tag === 'Loaded' ? state : { ...state, marketplaces: { _tag: 'Loading' } };
    case 'MarketplacesLoaded': {
      const names = action.list.marketplaces.map((m) => m.name);
      // The selection stays when its marketplace is still listed; otherwise the first one is selected.
      const selected = state.selected !== null && names.includes(state.selected) ? state.selected : (names[0] ?? null);
      const moved = selected !== state.selected;
      return {
        ...state,
        marketplaces: { _tag: 'Loaded', value: action.list },
        selected,
        catalog: moved ? { _tag: 'Idle' } : state.catalog,
        details: state.details !== null && names.includes(state.details.marketplace) ? state.details : null,
      };
    }
    case 'MarketplacesFailed':
      // A list already shown stays (with the failure as the notice); without one there is nothing to select.
      if (state.marketplaces._tag === 'Loaded') return { ...state, notice: { kind: 'error', message: action.message } };
      return { ...state, marketplaces: { _tag: 'Failed', message: action.message }, selected: null, catalog: { _tag: 'Idle' }, details: null };
    case 'Select':
      if (!marketplacesOf(state).some((m) => m.name === action.marketplace) || state.selected === action.marketplace) return state;
      return { ...state, selected: action.marketplace, catalog: { _tag: 'Idle' }, details: null };
    case 'CatalogLoading':
      if (action.marketplace !== state.selected) return state;
      return state.catalog._tag === 'Loaded' ? state : { ...state, catalog: { _tag: 'Loading' } };
    case 'CatalogLoaded':
      return action.marketplace === state.selected ? { ...state, catalog: { _tag: 'Loaded', value: action.plugins } } : state;
    case 'CatalogFailed':
      return action.marketplace === state.selected ? { ...state, catalog: { _tag: 'Failed', message: action.message } } : state;
    case 'OpenDetails':
      if (action.marketplace !== state.selected) return state;
      if (state.details !== null && state.details.marketplace === action.marketplace && state.details.plugin === action.plugin) return state;
      return { ...state, details: { marketplace: action.marketplace, plugin: action.plugin, load: { _tag: 'Loading' } } };
    case 'DetailsLoaded':
    case 'DetailsFailed': {
      const open = state.details;
      if (open === null || open.marketplace !== action.marketplace || open.plugin !== action.plugin) return state;
      const load: Load<PluginDetails> = action._tag === 'DetailsLoaded' ? { _tag: 'Loaded', value: action.details } : { _tag: 'Failed', message: action.message };
      return { ...state, details: { ...open, load } };
    }
    case 'CloseDetails':
      return state.details === null ? state : { ...state, details: null };
    case 'InventoryLoaded':
      return { ...state, inventory: { _tag: 'Loaded', value: action.inventory } };
    case 'InventoryFailed':
      return state.inventory._tag === 'Loaded' ? state : { ...state, inventory: { _tag: 'Failed', message: action.message } };
    case 'RemoteAppsLoaded':
      // A read answered while a write is on its way may predate it: the write's answer decides.
      return state.remoteApps.writing !== null ? state : { ...state, remoteApps: { load: { _tag: 'Loaded', value: action.enabled }, writing: null } };
    case 'RemoteAppsFailed':
      // A value already shown stays (with the failure as the notice).
      if (state.remoteApps.writing !== null) return state;
      if (state.remoteApps.load._tag === 'Loaded') return { ...state, notice: { kind: 'error', message: action.message } };
      return { ...state, remoteApps: { load: { _tag: 'Failed', message: action.message }, writing: null } };
    case 'RemoteAppsWriting':
      // One write at a time, from a value shown.
      if (state.remoteApps.writing !== null || state.remoteApps.load._tag !== 'Loaded') return state;
      return { ...state, remoteApps: { load: { _tag: 'Loaded', value: action.enabled }, writing: { previous: state.remoteApps.load.value } } };
    case 'RemoteAppsWritten':
      return state.remoteApps.writing === null ? state : { ...state, remoteApps: { load: { _tag: 'Loaded', value: action.enabled }, writing: null } };
    case 'RemoteAppsWriteFailed': {
      const writing = state.remoteApps.writing;
      if (writing === null) return state;
      return { ...state, remoteApps: { load: { _tag: 'Loaded', value: writing.previous }, writing: null }, notice: { kind: 'error', message: action.message } };
    }
    case 'Started':
      return state.busy.includes(action.key) ? state : { ...state, busy: [...state.busy, action.key] };
    case 'Finished':
      return { ...state, busy: state.busy.filter((key) => key !== action.key), notice: action.notice ?? state.notice };
    case 'Login': {
      const index = state.logins.findIndex((s) => s.sessionId === action.session.sessionId);
      if (index === -1) return { ...state, logins: [...state.logins, action.session] };
      const current = state.logins[index] as AuthSession;
      // An ended login stays ended; a later notification of a running one replaces it (e.g. a fresh QR code).
      if (loginEnded(current)) return state;
      return { ...state, logins: state.logins.map((s, i) => (i === index ? action.session : s)) };
    }
    case 'DismissLogin':
      return { ...state, logins: state.logins.filter((s) => s.sessionId !== action.sessionId || !loginEnded(s)) };
    case 'DismissNotice':
      return state.notice === null ? state : { ...state, notice: null };
  }
}
