/**
 * The Plugins page's reducer as a state machine: over any sequence of actions the selection is always
 * a listed marketplace (or none), the open details belong to the selected marketplace, each operation
 * is in flight at most once and leaves when finished, an ended connector login never changes again,
 * and answers for a marketplace or plugin no longer shown are ignored; the remote Apps / Connectors
 * switch shows a value read or being written, and a failed write restores the value before it. The
 * order a marketplace move sends: every custom name once, up then down is the identity, the ends and
 * the official marketplace do not move. Plus the login phases and the sentences of failures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogPluginSummary, InstalledInventory, MarketplaceEntry, PluginDetails } from '@wework/host-protocol';
import {
  customMarketplaceNames,
  describeFailure,
  initialPlugins,
  moveMarketplace,
  searchCatalog,
  loginEnded,
  loginView,
  operationKey,
  reducePlugins,
  type AuthSession,
  type PluginsAction,
  type PluginsState,
} from '../src/PluginsState.js';

const NAMES = ['team', 'spare', 'gone'] as const;
const PLUGINS = ['notes', 'tools'] as const;

const entry = (name: string): MarketplaceEntry => ({ name, kind: 'local', source: `/m/${name}`, displayName: null, editable: true });
const summary = (marketplace: string, plugin: string): CatalogPluginSummary => ({
  pluginId: `${plugin}@${marketplace}`,
  name: plugin,
  marketplace,
  displayName: null,
  shortDescription: null,
  category: null,
  version: '1.0.0',
  installed: false,
  enabled: false,
  installPolicy: null,
  authPolicy: null,
  availability: null,
  defaultPrompts: [],
});
const details = (marketplace: string, plugin: string): PluginDetails => ({
  summary: summary(marketplace, plugin),
  description: null,
  longDescription: null,
  developerName: null,
  skills: [],
  apps: [],
  mcpServers: [],
  connectors: [],
});
const inventory: InstalledInventory = { deviceId: 'd', plugins: [], fromSnapshot: false, savedAt: null };
const session = (sessionId: string, state: AuthSession['state']): AuthSession => ({ sessionId, pluginKey: 'notes', connectorSlug: 'drive', reason: 'install', type: 'local_qr', state, ...(state === 'waiting_scan' ? { qr: { payload: 'code' } } : {}) });

const name = fc.constantFrom(...NAMES);
const plugin = fc.constantFrom(...PLUGINS);
const key = fc.constantFrom('install:notes@team', 'skill:/a', 'refresh:team');
const loginState = fc.constantFrom<AuthSession['state']>('preparing', 'waiting_scan', 'waiting_browser', 'verifying', 'ok', 'error', 'cancelled');
const action: fc.Arbitrary<PluginsAction> = fc.oneof(
  fc.constant<PluginsAction>({ _tag: 'MarketplacesLoading' }),
  fc.subarray([...NAMES]).map((names): PluginsAction => ({ _tag: 'MarketplacesLoaded', list: { marketplaces: names.map(entry), welcome: names.length === 0 } })),
  fc.constant<PluginsAction>({ _tag: 'MarketplacesFailed', message: 'no' }),
  name.map((marketplace): PluginsAction => ({ _tag: 'Select', marketplace })),
  name.map((marketplace): PluginsAction => ({ _tag: 'CatalogLoading', marketplace })),
  name.map((marketplace): PluginsAction => ({ _tag: 'CatalogLoaded', marketplace, plugins: PLUGINS.map((p) => summary(marketplace, p)) })),
  name.map((marketplace): PluginsAction => ({ _tag: 'CatalogFailed', marketplace, message: 'no' })),
  fc.tuple(name, plugin).map(([marketplace, p]): PluginsAction => ({ _tag: 'OpenDetails', marketplace, plugin: p })),
  fc.tuple(name, plugin).map(([marketplace, p]): PluginsAction => ({ _tag: 'DetailsLoaded', marketplace, plugin: p, details: details(marketplace, p) })),
  fc.tuple(name, plugin).map(([marketplace, p]): PluginsAction => ({ _tag: 'DetailsFailed', marketplace, plugin: p, message: 'no' })),
  fc.constant<PluginsAction>({ _tag: 'CloseDetails' }),
  fc.constant<PluginsAction>({ _tag: 'InventoryLoaded', inventory }),
  key.map((k): PluginsAction => ({ _tag: 'Started', key: k })),
  key.map((k): PluginsAction => ({ _tag: 'Finished', key: k, notice: { kind: 'info', message: 'done' } })),
  fc.tuple(fc.constantFrom('s1', 's2'), loginState).map(([id, state]): PluginsAction => ({ _tag: 'Login', session: session(id, state) })),
  fc.constantFrom('s1', 's2').map((sessionId): PluginsAction => ({ _tag: 'DismissLogin', sessionId })),
  fc.constant<PluginsAction>({ _tag: 'DismissNotice' }),
  fc.boolean().map((enabled): PluginsAction => ({ _tag: 'RemoteAppsLoaded', enabled })),
  fc.constant<PluginsAction>({ _tag: 'RemoteAppsFailed', message: 'no' }),
  fc.boolean().map((enabled): PluginsAction => ({ _tag: 'RemoteAppsWriting', enabled })),
  fc.boolean().map((enabled): PluginsAction => ({ _tag: 'RemoteAppsWritten', enabled })),
  fc.constant<PluginsAction>({ _tag: 'RemoteAppsWriteFailed', message: 'no' }),
);

const listed = (state: PluginsState): ReadonlyArray<string> => (state.marketplaces._tag === 'Loaded' ? state.marketplaces.value.marketplaces.map((m) => m.name) : []);

describe('the Plugins page reducer', () => {
  it('keeps the page well-formed over any sequence of actions', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        let state = initialPlugins;
        for (const a of actions) {
          const before = state;
          state = reducePlugins(state, a);
          // The selection is a listed marketplace, or none.
          if (state.selected !== null) expect(listed(state)).toContain(state.selected);
          // Details are of the selected marketplace.
          if (state.details !== null) expect(state.details.marketplace).toBe(state.selected);
          // Each operation is in flight at most once; a finished one is no longer in flight.
          expect(new Set(state.busy).size).toBe(state.busy.length);
          if (a._tag === 'Finished') expect(state.busy).not.toContain(a.key);
          if (a._tag === 'Started') expect(state.busy).toContain(a.key);
          // A login is listed once; an ended one never changes.
          expect(new Set(state.logins.map((s) => s.sessionId)).size).toBe(state.logins.length);
          for (const old of before.logins) {
            if (!loginEnded(old)) continue;
            const now = state.logins.find((s) => s.sessionId === old.sessionId);
            if (now !== undefined) expect(now).toBe(old);
          }
          // The switch: a write starts from a value shown and shows the new one; a failed write restores the value before it.
          const sw = state.remoteApps;
          if (sw.writing !== null) expect(sw.load._tag).toBe('Loaded');
          if (a._tag === 'RemoteAppsWriting' && before.remoteApps.writing === null && before.remoteApps.load._tag === 'Loaded') {
            expect(sw).toEqual({ load: { _tag: 'Loaded', value: a.enabled }, writing: { previous: before.remoteApps.load.value } });
          }
          if (a._tag === 'RemoteAppsWriteFailed' && before.remoteApps.writing !== null) {
            expect(sw).toEqual({ load: { _tag: 'Loaded', value: before.remoteApps.writing.previous }, writing: null });
            expect(state.notice).toEqual({ kind: 'error', message: 'no' });
          }
          // A read answered while a write is on its way changes nothing.
          if ((a._tag === 'RemoteAppsLoaded' || a._tag === 'RemoteAppsFailed') && before.remoteApps.writing !== null) expect(state).toBe(before);
          // An answer for a marketplace not selected changes nothing.
          if ((a._tag === 'CatalogLoaded' || a._tag === 'CatalogFailed') && a.marketplace !== before.selected) expect(state).toBe(before);
        }
      }),
    );
  });

  it('selects the first marketplace when the list arrives, keeps the selection while it is listed, and moves on when it is removed', () => {
    let state = reducePlugins(initialPlugins, { _tag: 'MarketplacesLoaded', list: { marketplaces: [entry('team'), entry('spare')], welcome: false } });
    expect(state.selected).toBe('team');
    state = reducePlugins(state, { _tag: 'Select', marketplace: 'spare' });
    state = reducePlugins(state, { _tag: 'CatalogLoaded', marketplace: 'spare', plugins: [summary('spare', 'notes')] });
    state = reducePlugins(state, { _tag: 'OpenDetails', marketplace: 'spare', plugin: 'notes' });
    state = reducePlugins(state, { _tag: 'MarketplacesLoaded', list: { marketplaces: [entry('team'), entry('spare')], welcome: false } });
    expect(state.selected).toBe('spare');
    expect(state.catalog._tag).toBe('Loaded');
    expect(state.details?.plugin).toBe('notes');
    state = reducePlugins(state, { _tag: 'MarketplacesLoaded', list: { marketplaces: [entry('team')], welcome: false } });
    expect(state.selected).toBe('team');
    expect(state.catalog._tag).toBe('Idle');
    expect(state.details).toBeNull();
    state = reducePlugins(state, { _tag: 'MarketplacesLoaded', list: { marketplaces: [], welcome: true } });
    expect(state.selected).toBeNull();
  });

  it('keeps the marketplaces shown when reading them again fails, with the failure as the notice', () => {
    let state = reducePlugins(initialPlugins, { _tag: 'MarketplacesLoaded', list: { marketplaces: [entry('spare')], welcome: false } });
    state = reducePlugins(state, { _tag: 'MarketplacesFailed', message: 'Reading the marketplaces failed.' });
    expect(state.selected).toBe('spare');
    expect(state.marketplaces._tag).toBe('Loaded');
    expect(state.notice).toEqual({ kind: 'error', message: 'Reading the marketplaces failed.' });
  });

  it('keeps a loaded catalog on screen while it is read again (no flicker after an install)', () => {
    let state = reducePlugins(initialPlugins, { _tag: 'MarketplacesLoaded', list: { marketplaces: [entry('team')], welcome: false } });
    state = reducePlugins(state, { _tag: 'CatalogLoaded', marketplace: 'team', plugins: [summary('team', 'notes')] });
    expect(reducePlugins(state, { _tag: 'CatalogLoading', marketplace: 'team' }).catalog._tag).toBe('Loaded');
  });

  it('replaces a running login by its next state (a fresh QR code) and ignores anything after it ended', () => {
    let state = reducePlugins(initialPlugins, { _tag: 'Login', session: session('s1', 'preparing') });
    state = reducePlugins(state, { _tag: 'Login', session: { ...session('s1', 'waiting_scan'), qr: { payload: 'first' } } });
    state = reducePlugins(state, { _tag: 'Login', session: { ...session('s1', 'waiting_scan'), qr: { payload: 'second' } } });
    expect(state.logins.map((s) => s.qr?.payload)).toEqual(['second']);
    state = reducePlugins(state, { _tag: 'Login', session: session('s1', 'ok') });
    state = reducePlugins(state, { _tag: 'Login', session: session('s1', 'waiting_scan') });
    expect(state.logins.map((s) => s.state)).toEqual(['ok']);
    // A running login is not dismissed (it is cancelled instead); an ended one is.
    state = reducePlugins(state, { _tag: 'Login', session: session('s2', 'waiting_browser') });
    state = reducePlugins(state, { _tag: 'DismissLogin', sessionId: 's2' });
    state = reducePlugins(state, { _tag: 'DismissLogin', sessionId: 's1' });
    expect(state.logins.map((s) => s.sessionId)).toEqual(['s2']);
  });
});

describe('the remote Apps / Connectors switch', () => {
  it('is disabled while written, keeps the answered value, and restores the value before a failed write with a sentence', () => {
    let state = reducePlugins(initialPlugins, { _tag: 'RemoteAppsLoaded', enabled: true });
    state = reducePlugins(state, { _tag: 'RemoteAppsWriting', enabled: false });
    expect(state.remoteApps).toEqual({ load: { _tag: 'Loaded', value: false }, writing: { previous: true } });
    // A second write waits for the first; a re-read meanwhile does not flip the switch back.
    expect(reducePlugins(state, { _tag: 'RemoteAppsWriting', enabled: true })).toBe(state);
    expect(reducePlugins(state, { _tag: 'RemoteAppsLoaded', enabled: true })).toBe(state);
    const written = reducePlugins(state, { _tag: 'RemoteAppsWritten', enabled: false });
    expect(written.remoteApps).toEqual({ load: { _tag: 'Loaded', value: false }, writing: null });
    const failed = reducePlugins(state, { _tag: 'RemoteAppsWriteFailed', message: 'Turning remote Apps / Connectors off failed: busy.' });
    expect(failed.remoteApps).toEqual({ load: { _tag: 'Loaded', value: true }, writing: null });
    expect(failed.notice).toEqual({ kind: 'error', message: 'Turning remote Apps / Connectors off failed: busy.' });
    // Read again after `inventory/changed` (`remoteApps`): the new value shows.
    expect(reducePlugins(written, { _tag: 'RemoteAppsLoaded', enabled: true }).remoteApps.load).toEqual({ _tag: 'Loaded', value: true });
  });

  it('is not written before it is read, and a failed first read says why', () => {
    expect(reducePlugins(initialPlugins, { _tag: 'RemoteAppsWriting', enabled: false })).toBe(initialPlugins);
    const failed = reducePlugins(initialPlugins, { _tag: 'RemoteAppsFailed', message: 'Reading failed.' });
    expect(failed.remoteApps.load).toEqual({ _tag: 'Failed', message: 'Reading failed.' });
    // Once shown, a failed re-read keeps the value and says so in the notice.
    const shown = reducePlugins(failed, { _tag: 'RemoteAppsLoaded', enabled: false });
    const again = reducePlugins(shown, { _tag: 'RemoteAppsFailed', message: 'Reading failed.' });
    expect(again.remoteApps.load).toEqual({ _tag: 'Loaded', value: false });
    expect(again.notice).toEqual({ kind: 'error', message: 'Reading failed.' });
  });
});

const official: MarketplaceEntry = { name: 'openai-curated', kind: 'official', source: null, displayName: 'OpenAI', editable: false };
/** Any marketplace list: distinct custom names, with the official one anywhere (Codex lists it first). */
const marketplaceList = fc
  .tuple(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }).filter((n) => n !== official.name), { maxLength: 8 }), fc.boolean())
  .map(([names, withOfficial]) => [...(withOfficial ? [official] : []), ...names.map(entry)]);
const listWithName = marketplaceList.chain((list) => fc.tuple(fc.constant(list), list.length === 0 ? fc.constant(official.name) : fc.constantFrom(...list.map((m) => m.name), official.name)));
const direction = fc.constantFrom('up' as const, 'down' as const);
const opposite = (d: 'up' | 'down'): 'up' | 'down' => (d === 'up' ? 'down' : 'up');
/** The list as the executor answers the reorder: the official one first, then the custom ones in `names`' order. */
const answered = (list: ReadonlyArray<MarketplaceEntry>, names: ReadonlyArray<string>): ReadonlyArray<MarketplaceEntry> => [
  ...list.filter((m) => !m.editable),
  ...names.map((n) => list.find((m) => m.name === n) as MarketplaceEntry),
];

describe('moveMarketplace', () => {
  it('sends every custom marketplace exactly once, never the official one, with only the moved one and its neighbour swapped', () => {
    fc.assert(
      fc.property(listWithName, direction, ([list, name], d) => {
        const custom = customMarketplaceNames(list);
        const moved = moveMarketplace(list, name, d);
        if (moved === null) return;
        expect([...moved].sort()).toEqual([...custom].sort());
        expect(new Set(moved).size).toBe(moved.length);
        expect(moved).not.toContain(official.name);
        const from = custom.indexOf(name);
        const to = moved.indexOf(name);
        expect(to).toBe(d === 'up' ? from - 1 : from + 1);
        expect(moved.filter((n, i) => n !== custom[i]).length).toBe(2);
      }),
    );
  });

  it('moving up then down (or down then up) is the identity', () => {
    fc.assert(
      fc.property(listWithName, direction, ([list, name], d) => {
        const moved = moveMarketplace(list, name, d);
        if (moved === null) return;
        expect(moveMarketplace(answered(list, moved), name, opposite(d))).toEqual(customMarketplaceNames(list));
      }),
    );
  });

  it('does not move the first one up, the last one down, or the official one at all', () => {
    fc.assert(
      fc.property(marketplaceList, direction, (list, d) => {
        const custom = customMarketplaceNames(list);
        const end = d === 'up' ? custom[0] : custom[custom.length - 1];
        if (end !== undefined) expect(moveMarketplace(list, end, d)).toBeNull();
        expect(moveMarketplace(list, official.name, d)).toBeNull();
        expect(moveMarketplace(list, 'not listed', d)).toBeNull();
        // Every other custom one moves.
        for (const name of custom) if (name !== end) expect(moveMarketplace(list, name, d)).not.toBeNull();
      }),
    );
  });

  it('moves the second of two up', () => {
    expect(moveMarketplace([official, entry('team'), entry('spare')], 'spare', 'up')).toEqual(['spare', 'team']);
  });
});

describe('searchCatalog', () => {
  it('keeps exactly the plugins holding every word of the search, in catalog order; an empty search keeps all', () => {
    const plugins = [{ ...summary('team', 'notes'), displayName: 'Team Notes', shortDescription: 'Short notes' }, { ...summary('team', 'tools'), category: 'Build' }];
    expect(searchCatalog(plugins, '')).toBe(plugins);
    expect(searchCatalog(plugins, '  NOTES short ').map((p) => p.name)).toEqual(['notes']);
    expect(searchCatalog(plugins, 'build').map((p) => p.name)).toEqual(['tools']);
    expect(searchCatalog(plugins, '@team').map((p) => p.name)).toEqual(['notes', 'tools']);
    expect(searchCatalog(plugins, 'notes build')).toEqual([]);
  });
});

describe('what the page says', () => {
  it('names the phase of every login state: browser OAuth pending, authorized, failed', () => {
    const browser = (state: AuthSession['state'], more: Partial<AuthSession> = {}): AuthSession => ({ ...session('b', state), type: 'browser_oauth', ...more });
    expect(loginView(browser('waiting_browser'))).toEqual({ phase: 'pending', text: 'Finish signing in in the browser window that opened.' });
    expect(loginView(browser('verifying')).phase).toBe('pending');
    expect(loginView(browser('ok', { account: 'ada@example.com' }))).toEqual({ phase: 'authorized', text: 'Signed in as ada@example.com.' });
    expect(loginView(browser('ok', { account: null })).text).toBe('Signed in.');
    expect(loginView(browser('error', { message: 'denied' }))).toEqual({ phase: 'failed', text: 'The login failed: denied. Install again to retry.' });
    expect(loginView(browser('cancelled')).phase).toBe('cancelled');
    expect(loginView(session('q', 'waiting_scan')).text).toBe('Scan this code with the app to sign in.');
  });

  it('turns a failure into what failed, the executor’s reason and what to do', () => {
    expect(describeFailure('Adding the marketplace', { _tag: 'Rejected', code: -32022, message: 'the source is not a marketplace' })).toBe(
      'Adding the marketplace failed: the source is not a marketplace. Check the source: a local directory holding .agents/plugins/marketplace.json (or that file), a GitHub owner/repo, or a git URL.',
    );
    expect(describeFailure('Installing the plugin', { _tag: 'Rejected', code: -32028, message: 'refused.' })).toContain('Install again to retry.');
    expect(describeFailure('Reading the catalog', { _tag: 'Disconnected', message: 'x' })).toContain('reconnects by itself');
    expect(operationKey('install', 'notes@team')).toBe('install:notes@team');
  });
});
