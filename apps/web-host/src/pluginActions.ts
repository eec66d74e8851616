/**
 * The Plugins page's actions: each sends its host-protocol request, marks itself in flight, and
 * dispatches the answer to the {@link PluginsState} reducer (a failure as a sentence a person can act
 * on). After every change the marketplaces, the selected catalog, the open details, the inventory and
 * the remote Apps / Connectors switch are read again, so the page shows what the executor holds, never
 * a guess. A read refused because Codex is restarting (`-32012`) leaves what is shown as it is: the
 * page reads everything again when `runtime/status` says `ready`.
 */
import * as E from 'fp-ts/lib/Either.js';
import { HostErrorCode } from '@wework/host-protocol';
import type { HostClient, RequestError } from './HostClient.js';
import type { PluginsActions } from './PluginsPage.js';
import { describeFailure, marketplacesOf, moveMarketplace, operationKey, type PluginsAction, type PluginsState } from './PluginsState.js';

/** Where "Try in chat" hands its draft: the chat inserts it into the composer. */
export type TryInChat = (markdown: string) => void;

/** Whether a request was refused because the app-server is restarting (read again once it is ready). */
const restarting = (error: RequestError): boolean => error._tag === 'Rejected' && error.code === HostErrorCode.RuntimeUnavailable;

/** The actions of the page over `client`. */
export function pluginActions(client: HostClient, dispatch: (action: PluginsAction) => void, current: () => PluginsState, tryInChat: TryInChat): PluginsActions {
  const loadCatalog = async (marketplace: string): Promise<void> => {
    dispatch({ _tag: 'CatalogLoading', marketplace });
    const catalog = await client.request('plugins/catalog', { marketplace });
    if (E.isLeft(catalog) && restarting(catalog.left) && current().catalog._tag === 'Loaded') return;
    dispatch(E.isRight(catalog) ? { _tag: 'CatalogLoaded', marketplace, plugins: catalog.right.plugins } : { _tag: 'CatalogFailed', marketplace, message: describeFailure('Reading the catalog', catalog.left) });
  };
  const loadDetails = async (marketplace: string, plugin: string): Promise<void> => {
    const read = await client.request('plugins/read', { marketplace, plugin });
    if (E.isLeft(read) && restarting(read.left) && current().details?.load._tag === 'Loaded') return;
    dispatch(E.isRight(read) ? { _tag: 'DetailsLoaded', marketplace, plugin, details: read.right.plugin } : { _tag: 'DetailsFailed', marketplace, plugin, message: describeFailure('Reading the details', read.left) });
  };
  const loadInventory = async (): Promise<void> => {
    const inventory = await client.request('plugins/installed', {});
    dispatch(E.isRight(inventory) ? { _tag: 'InventoryLoaded', inventory: inventory.right } : { _tag: 'InventoryFailed', message: describeFailure('Reading the installed plugins', inventory.left) });
  };
  const readRemoteApps = async (): Promise<void> => {
    const read = await client.request('integrations/apps/read', {});
    if (E.isLeft(read) && restarting(read.left) && current().remoteApps.load._tag === 'Loaded') return;
    dispatch(E.isRight(read) ? { _tag: 'RemoteAppsLoaded', enabled: read.right.enabled } : { _tag: 'RemoteAppsFailed', message: describeFailure('Reading the remote Apps / Connectors switch', read.left) });
  };
  const writeRemoteApps = async (enabled: boolean): Promise<void> => {
    if (current().remoteApps.writing !== null) return;
    dispatch({ _tag: 'RemoteAppsWriting', enabled });
    const written = await client.request('integrations/apps/write', { enabled });
    dispatch(
      E.isRight(written)
        ? { _tag: 'RemoteAppsWritten', enabled: written.right.enabled }
        : { _tag: 'RemoteAppsWriteFailed', message: describeFailure(enabled ? 'Turning remote Apps / Connectors on' : 'Turning remote Apps / Connectors off', written.left) },
    );
  };
  const reload = async (): Promise<void> => {
    dispatch({ _tag: 'MarketplacesLoading' });
    const list = await client.request('marketplaces/list', {});
    if (E.isLeft(list) && restarting(list.left) && current().marketplaces._tag === 'Loaded') return;
    dispatch(E.isRight(list) ? { _tag: 'MarketplacesLoaded', list: list.right } : { _tag: 'MarketplacesFailed', message: describeFailure('Reading the marketplaces', list.left) });
    const state = current();
    await Promise.all([
      loadInventory(),
      readRemoteApps(),
      state.selected === null ? Promise.resolve() : loadCatalog(state.selected),
      state.details === null ? Promise.resolve() : loadDetails(state.details.marketplace, state.details.plugin),
    ]);
  };
  /** Runs one change: in flight under `key`, then its notice, then everything read again. */
  const change = async <A>(key: string, what: string, run: () => Promise<E.Either<RequestError, A>>, done: (a: A) => string | null): Promise<E.Either<RequestError, A>> => {
    dispatch({ _tag: 'Started', key });
    const result = await run();
    const message = E.isRight(result) ? done(result.right) : describeFailure(what, result.left);
    dispatch({ _tag: 'Finished', key, notice: message === null ? null : { kind: E.isRight(result) ? 'info' : 'error', message } });
    await reload();
    return result;
  };

  return {
    reload: () => void reload(),
    addMarketplace: (source, name) =>
      void change(
        operationKey('add', 'marketplace'),
        'Adding the marketplace',
        () => client.request('marketplaces/add', name === '' ? { source } : { source, name }),
        (added) => `${added.alreadyAdded ? 'Already added' : 'Added'}: ${added.marketplace.displayName ?? added.marketplace.name}.`,
      ).then((added) => {
        if (E.isRight(added)) {
          dispatch({ _tag: 'Select', marketplace: added.right.marketplace.name });
          void loadCatalog(added.right.marketplace.name);
        }
      }),
    removeMarketplace: (name) => void change(operationKey('remove', name), 'Removing the marketplace', () => client.request('marketplaces/remove', { name }), () => 'The marketplace was removed.'),
    refreshMarketplace: (name) =>
      void change(operationKey('refresh', name), 'Refreshing the marketplace', () => client.request('marketplaces/refresh', { name }), (r) => `Refreshed: ${r.plugins} plugin${r.plugins === 1 ? '' : 's'}.`),
    moveMarketplace: (name, direction) => {
      const key = operationKey('reorder', 'marketplaces');
      const state = current();
      const names = moveMarketplace(marketplacesOf(state), name, direction);
      // One reorder at a time: a move is computed from the order the executor answered last.
      if (names === null || state.busy.includes(key)) return;
      const title = marketplacesOf(state).find((m) => m.name === name)?.displayName ?? name;
      void change(key, 'Moving the marketplace', () => client.request('marketplaces/reorder', { names }), (list) => {
        dispatch({ _tag: 'MarketplacesLoaded', list });
        return `Moved ${title} ${direction}.`;
      });
    },
    readRemoteApps: () => void readRemoteApps(),
    setRemoteApps: (enabled) => void writeRemoteApps(enabled),
    select: (marketplace) => {
      dispatch({ _tag: 'Select', marketplace });
      void loadCatalog(marketplace);
    },
    openDetails: (marketplace, plugin) => {
      dispatch({ _tag: 'OpenDetails', marketplace, plugin });
      void loadDetails(marketplace, plugin);
    },
    closeDetails: () => dispatch({ _tag: 'CloseDetails' }),
    install: (marketplace, plugin) =>
      void change(operationKey('install', `${plugin}@${marketplace}`), 'Installing the plugin', () => client.request('plugins/install', { marketplace, plugin }), (r) => `Installed ${r.plugin.name}.`),
    uninstall: (pluginId) => void change(operationKey('uninstall', pluginId), 'Uninstalling the plugin', () => client.request('plugins/uninstall', { pluginId }), () => 'The plugin was uninstalled.'),
    setPluginEnabled: (pluginId, enabled) =>
      void change(operationKey('plugin', pluginId), enabled ? 'Turning the plugin on' : 'Turning the plugin off', () => client.request('plugins/setEnabled', { pluginId, enabled }), () => null),
    setSkillEnabled: (path, name, enabled) =>
      void change(operationKey('skill', path ?? name), enabled ? 'Turning the skill on' : 'Turning the skill off', () => client.request('skills/setEnabled', path === null ? { name, enabled } : { path, enabled }), () => null),
    setAppEnabled: (id, enabled) => void change(operationKey('app', id), enabled ? 'Turning the app on' : 'Turning the app off', () => client.request('apps/setEnabled', { id, enabled }), () => null),
    tryInChat: (marketplace, plugin) => {
      const inventory = current().inventory;
      const deviceId = inventory._tag === 'Loaded' ? inventory.value.deviceId : null;
      if (deviceId === null) return;
      const key = operationKey('trial', `${plugin}@${marketplace}`);
      dispatch({ _tag: 'Started', key });
      void client.request('plugins/trial', { plugin, marketplace, deviceId }).then((trial) => {
        if (E.isLeft(trial)) return dispatch({ _tag: 'Finished', key, notice: { kind: 'error', message: describeFailure('Trying the plugin in chat', trial.left) } });
        const answer = trial.right;
        if (answer.kind === 'ready') {
          dispatch({ _tag: 'Finished', key, notice: null });
          return tryInChat(answer.draft.markdown);
        }
        const message =
          answer.kind === 'failed'
            ? answer.message
            : answer.reason === 'disabled'
              ? 'Turn the plugin on first, then try it in chat.'
              : answer.reason === 'missing'
                ? 'Install the plugin first, then try it in chat.'
                : 'The plugin is installed on another device.';
        return dispatch({ _tag: 'Finished', key, notice: { kind: 'error', message } });
      });
    },
    cancelLogin: (sessionId) =>
      void client.request('auth/cancel', { sessionId }).then((cancelled) => {
        if (E.isLeft(cancelled)) dispatch({ _tag: 'Finished', key: operationKey('cancel', sessionId), notice: { kind: 'error', message: describeFailure('Cancelling the sign-in', cancelled.left) } });
      }),
    dismissLogin: (sessionId) => dispatch({ _tag: 'DismissLogin', sessionId }),
    dismissNotice: () => dispatch({ _tag: 'DismissNotice' }),
  };
}
