/**
 * The marketplaces area of the host protocol: the marketplaces of the plugin pages (list, add, remove,
 * reorder, refresh), their catalogs and a plugin's details.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { HostHandlersPart, HostResultOf } from '@wework/host-protocol';
import type { HostCall, HandlerKit } from './HandlerKit.js';

type MarketplaceMethod = 'marketplaces/list' | 'marketplaces/add' | 'marketplaces/remove' | 'marketplaces/reorder' | 'marketplaces/refresh' | 'plugins/catalog' | 'plugins/read';

/** `marketplaces/list`, `marketplaces/add`, `marketplaces/remove`, `marketplaces/reorder`, `marketplaces/refresh`, `plugins/catalog`, `plugins/read`. */
export function marketplaceHandlers(kit: HandlerKit): HostHandlersPart<MarketplaceMethod, HostCall> {
  const { marketplacePage } = kit;
  return {
    'marketplaces/list': () => marketplacePage((pages) => pages.marketplaces.list()),
    'marketplaces/add': (params) =>
      marketplacePage((pages) => pages.marketplaces.add({ source: params.source, ...(params.name === undefined ? {} : { name: params.name }), ...(params.refName === undefined ? {} : { refName: params.refName }) })),
    'marketplaces/remove': (params) =>
      marketplacePage(async (pages) => {
        const removed = await pages.marketplaces.remove(params.name);
        // Codex keeps the marketplace's installed plugins (config entries and copies); the inventory now shows them repairRequired.
        if (E.isRight(removed)) kit.services.inventoryChanged('marketplaceRemoved', null);
        return E.map(() => ({}))(removed);
      }),
    'marketplaces/reorder': (params) => marketplacePage((pages) => pages.marketplaces.reorder(params.names)),
    'marketplaces/refresh': (params) => marketplacePage((pages) => pages.marketplaces.refresh(params.name)),
    'plugins/catalog': (params) => marketplacePage((pages) => pages.catalog.catalog(params.marketplace)),
    'plugins/read': (params) => marketplacePage(async (pages) => E.map((plugin: HostResultOf<'plugins/read'>['plugin']) => ({ plugin }))(await pages.catalog.read(params.marketplace, params.plugin))),
  };
}
