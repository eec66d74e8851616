/**
 * A marketplace's catalog and one plugin's details. Custom marketplaces are read with
 * `plugin/list { marketplaceKinds: ['local'] }` (git marketplaces too: Codex reads them from its
 * clone); the official one through {@link OfficialCatalog} (its cache). Summaries are projected before
 * they cross the host connection (plugin-inventory's `projectCatalogPlugin`); details come from
 * `plugin/read`, with the connectors' `localAuth` read from the plugin's own manifest (its kind and
 * policy only, never its commands). Log lines carry byte counts, never contents.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { CatalogPluginSummary, PluginDetails } from '@wework/host-protocol';
import { PluginList, PluginRead, type PluginDetail } from '@wework/codex-protocol';
import { decodeLocalAuthConnectors } from '@wework/local-auth';
import { catalogByteCounts, projectCatalogPlugin } from '@wework/plugin-inventory';
import type { Log } from '@wework/ports';
import { runtimeErrorOf } from '../runtime/RuntimeError.js';
import type { RuntimeSupervisor } from '../runtime/RuntimeSupervisor.js';
import { readPluginManifest } from './UntrustedJson.js';
import type { MarketplaceFault } from '@wework/host-errors';
import type { Marketplaces } from './CodexMarketplaces.js';
import { OFFICIAL_MARKETPLACE, type OfficialCatalog } from './OfficialCatalog.js';

/** A marketplace's catalog. */
export interface CatalogPage {
  readonly marketplace: string;
  readonly plugins: ReadonlyArray<CatalogPluginSummary>;
  readonly cachedUntil: number | null;
}

/** Catalogs and details. */
export interface CatalogReader {
  catalog(marketplace: string): Promise<E.Either<MarketplaceFault, CatalogPage>>;
  read(marketplace: string, plugin: string): Promise<E.Either<MarketplaceFault, PluginDetails>>;
}

/** What {@link catalogReader} needs. */
export interface CatalogReaderOptions {
  readonly runtime: RuntimeSupervisor;
  readonly marketplaces: Marketplaces;
  readonly official: OfficialCatalog;
  readonly log: Log;
}

/** The connectors of the plugin at `root` that declare `localAuth` (kind and policy); none when the manifest is unreadable. */
async function connectorsOf(root: string): Promise<PluginDetails['connectors']> {
  // A local marketplace's files are not trusted: a regular file only, bounded, never a wait for a writer.
  const manifest = await readPluginManifest(root);
  if (E.isLeft(manifest)) return [];
  const decoded = decodeLocalAuthConnectors(manifest.right);
  return E.isLeft(decoded) ? [] : decoded.right.map((connector) => ({ slug: connector.slug, localAuth: { type: connector.localAuth.type, authPolicy: connector.localAuth.authPolicy } }));
}

/** The details of `detail` for the host. */
async function detailsOf(detail: PluginDetail): Promise<PluginDetails> {
  const face = detail.summary.interface;
  return {
    summary: projectCatalogPlugin({ name: detail.summary.name, marketplace: detail.marketplaceName }, detail.summary),
    description: detail.description,
    longDescription: face?.longDescription ?? null,
    developerName: face?.developerName ?? null,
    skills: detail.skills.map((skill) => ({ name: skill.name, description: skill.description, shortDescription: skill.shortDescription, enabled: skill.enabled })),
    apps: detail.apps.map((app) => ({ id: app.id, name: app.name, description: app.description })),
    mcpServers: [...detail.mcpServers],
    connectors: detail.summary.source.type === 'local' ? await connectorsOf(detail.summary.source.path) : [],
  };
}

/** Catalogs and details over the runtime, the marketplaces and the official catalog. */
export function catalogReader(options: CatalogReaderOptions): CatalogReader {
  const { runtime, marketplaces, official, log } = options;
  const client = () => runtime.ready();
  return {
    catalog: async (marketplace) => {
      if (marketplace === OFFICIAL_MARKETPLACE) {
        const read = await official.read();
        if (E.isLeft(read)) return E.left({ _tag: 'CatalogUnavailable', reason: read.left._tag === 'FetchFailed' ? read.left.error._tag : read.left._tag });
        return E.right({ marketplace, plugins: read.right.plugins, cachedUntil: await official.cachedUntil() });
      }
      const known = await marketplaces.list();
      if (E.isLeft(known)) return known;
      if (!known.right.marketplaces.some((entry) => entry.editable && entry.name === marketplace)) return E.left({ _tag: 'MarketplaceNotFound', name: marketplace });
      const running = client();
      if (E.isLeft(running)) return E.left({ _tag: 'Runtime', error: running.left });
      const listed = await running.right.server.client.request(PluginList, { marketplaceKinds: ['local'] });
      if (E.isLeft(listed)) return E.left({ _tag: 'Runtime', error: runtimeErrorOf(PluginList.method, listed.left) });
      const plugins = listed.right.marketplaces.find((entry) => entry.name === marketplace)?.plugins ?? [];
      log({ event: 'marketplace catalog read', fields: { kind: 'custom', ...catalogByteCounts(plugins) } });
      return E.right({ marketplace, plugins: plugins.map((plugin) => projectCatalogPlugin({ name: plugin.name, marketplace }, plugin)), cachedUntil: null });
    },
    read: async (marketplace, plugin) => {
      let params: { readonly marketplacePath: string; readonly pluginName: string } | { readonly remoteMarketplaceName: string; readonly pluginName: string };
      if (marketplace === OFFICIAL_MARKETPLACE) {
        params = { remoteMarketplaceName: marketplace, pluginName: plugin };
      } else {
        const path = await marketplaces.localPath(marketplace);
        if (E.isLeft(path)) return path;
        params = { marketplacePath: path.right, pluginName: plugin };
      }
      const running = client();
      if (E.isLeft(running)) return E.left({ _tag: 'Runtime', error: running.left });
      const read = await running.right.server.client.request(PluginRead, params);
      if (E.isLeft(read)) {
        if (read.left._tag === 'RequestFailed' && read.left.message.includes('not found')) return E.left({ _tag: 'CatalogPluginNotFound', marketplace, plugin });
        if (marketplace === OFFICIAL_MARKETPLACE && read.left._tag === 'RequestFailed') return E.left({ _tag: 'CatalogUnavailable', reason: 'RemoteReadFailed' });
        return E.left({ _tag: 'Runtime', error: runtimeErrorOf(PluginRead.method, read.left) });
      }
      const details = await detailsOf(read.right.plugin);
      log({ event: 'plugin details read', fields: { skills: details.skills.length, apps: details.apps.length, mcpServers: details.mcpServers.length, connectors: details.connectors.length, descriptionBytes: Buffer.byteLength(details.description ?? '') } });
      return E.right(details);
    },
  };
}
