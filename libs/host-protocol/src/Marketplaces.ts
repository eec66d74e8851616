/**
 * The marketplace pages of the host protocol: the marketplaces (the OpenAI official one first, then the
 * user's custom ones in the user's order), adding, removing, reordering and refreshing them, a
 * marketplace's catalog (projected summaries) and one plugin's details. `docs/host-protocol.md`
 * ("Marketplaces and catalogs") describes them.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { nullable } from './internal/nullable.js';
import { requestDescriptor } from './Descriptor.js';

const EmptyObject = t.type({});

/** `official`: the OpenAI marketplace Codex provides; `local`: a directory on this device; `git`: a git repository cloned into Codex's cache. */
export const MarketplaceKind = t.keyof({ official: null, local: null, git: null }, 'MarketplaceKind');
/** See the codec {@link MarketplaceKind}. */
export type MarketplaceKind = t.TypeOf<typeof MarketplaceKind>;

/** One marketplace of the plugin page's header. */
export const MarketplaceEntry = t.intersection(
  [
    t.type({
      /** Codex's marketplace name: the `@marketplace` of its plugins' ids. */
      name: t.string,
      kind: MarketplaceKind,
      /** What it was added from (a directory, or a git URL with `#ref`); `null` for the official one. */
      source: nullable(t.string),
      /** The marketplace's display name (the user's label, else its own), `null` when it has none. */
      displayName: nullable(t.string),
      /** Whether it can be removed, reordered and refreshed as a custom marketplace (never the official one). */
      editable: t.boolean,
    }),
    t.partial({
      /** Why Codex could not load it (its catalog is then empty). */
      loadError: t.string,
    }),
  ],
  'MarketplaceEntry',
);
/** See the codec {@link MarketplaceEntry}. */
export type MarketplaceEntry = t.TypeOf<typeof MarketplaceEntry>;

/** The marketplaces, official first; `welcome` when there is none (the host shows its welcome page). */
export const MarketplaceList = t.type({ marketplaces: t.readonlyArray(MarketplaceEntry), welcome: t.boolean }, 'MarketplaceList');
/** See the codec {@link MarketplaceList}. */
export type MarketplaceList = t.TypeOf<typeof MarketplaceList>;

/** One plugin of a catalog: a summary (no long description, no screenshots). */
export const CatalogPluginSummary = t.type(
  {
    /** `<plugin>@<marketplace>`. */
    pluginId: t.string,
    name: t.string,
    marketplace: t.string,
    displayName: nullable(t.string),
    shortDescription: nullable(t.string),
    category: nullable(t.string),
    version: nullable(t.string),
    installed: t.boolean,
    enabled: t.boolean,
    installPolicy: nullable(t.string),
    authPolicy: nullable(t.string),
    availability: nullable(t.string),
    defaultPrompts: t.readonlyArray(t.string),
  },
  'CatalogPluginSummary',
);
/** See the codec {@link CatalogPluginSummary}. */
export type CatalogPluginSummary = t.TypeOf<typeof CatalogPluginSummary>;

/** A connector's device-side authorization as the details show it (never its commands). */
export const ConnectorLocalAuthSummary = t.type({ type: t.keyof({ local_qr: null, browser_oauth: null }), authPolicy: t.string }, 'ConnectorLocalAuthSummary');

/** The details of one plugin (`plugins/read`). */
export const PluginDetails = t.type(
  {
    summary: CatalogPluginSummary,
    /** The plugin's full description, `null` when it has none. */
    description: nullable(t.string),
    longDescription: nullable(t.string),
    developerName: nullable(t.string),
    skills: t.readonlyArray(t.type({ name: t.string, description: t.string, shortDescription: nullable(t.string), enabled: t.boolean })),
    apps: t.readonlyArray(t.type({ id: t.string, name: t.string, description: nullable(t.string) })),
    mcpServers: t.readonlyArray(t.string),
    connectors: t.readonlyArray(t.type({ slug: t.string, localAuth: ConnectorLocalAuthSummary })),
  },
  'PluginDetails',
);
/** See the codec {@link PluginDetails}. */
export type PluginDetails = t.TypeOf<typeof PluginDetails>;

/** `marketplaces/list`: the official marketplace first, then the custom ones in the user's order. */
export const MarketplacesList = requestDescriptor('marketplaces/list', EmptyObject, MarketplaceList);
/** `marketplaces/add`: adds a custom marketplace (a local directory or `marketplace.json`, `owner/repo`, a git URL). */
export const MarketplacesAdd = requestDescriptor(
  'marketplaces/add',
  t.intersection([t.type({ source: t.string }), t.partial({ name: t.string, refName: t.string })]),
  t.type({ marketplace: MarketplaceEntry, alreadyAdded: t.boolean }),
);
/** `marketplaces/remove`: removes a custom marketplace. */
export const MarketplacesRemove = requestDescriptor('marketplaces/remove', t.type({ name: t.string }), EmptyObject);
/** `marketplaces/reorder`: sets the order of the custom marketplaces (a permutation of their names). */
export const MarketplacesReorder = requestDescriptor('marketplaces/reorder', t.type({ names: t.readonlyArray(t.string) }), MarketplaceList);
/** `marketplaces/refresh`: pulls a git marketplace again, or refetches the official catalog. */
export const MarketplacesRefresh = requestDescriptor('marketplaces/refresh', t.type({ name: t.string }), t.type({ marketplace: MarketplaceEntry, plugins: t.number }));
/** `plugins/catalog`: a marketplace's plugins as summaries. */
export const PluginsCatalog = requestDescriptor(
  'plugins/catalog',
  t.type({ marketplace: t.string }),
  t.type({
    marketplace: t.string,
    plugins: t.readonlyArray(CatalogPluginSummary),
    /** Official catalog only: when the cached metadata stops being served (epoch ms); `null` for the others. */
    cachedUntil: nullable(t.number),
  }),
);
/** `plugins/read`: one plugin's details. */
export const PluginsRead = requestDescriptor('plugins/read', t.type({ marketplace: t.string, plugin: t.string }), t.type({ plugin: PluginDetails }));
