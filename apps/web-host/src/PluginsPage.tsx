/**
 * The Plugins page: the marketplaces (welcome state when there is none; add by source, refresh, remove,
 * move a custom one up or down),
 * the selected marketplace's catalog, a plugin's details (description, skills, apps, MCP servers,
 * connectors) with Install / Uninstall and "Try in chat", the connector logins of an install (a QR
 * code, or the browser OAuth states), and the management switches of every installed plugin, its
 * skills and its apps, and the remote Apps / Connectors switch. It renders the {@link PluginsState} and calls the {@link PluginsActions}.
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { CatalogPluginSummary, InstalledPlugin, MarketplaceEntry, PluginDetails } from '@wework/host-protocol';
import { customMarketplaceNames, installedPlugin, isBusy, loginView, marketplacesOf, operationKey, searchCatalog, type AuthSession, type MoveDirection, type PluginsState } from './PluginsState.js';
import { QrCode } from './QrCode.js';

/** What the Plugins page can ask for. */
export interface PluginsActions {
  readonly reload: () => void;
  readonly addMarketplace: (source: string, name: string) => void;
  readonly removeMarketplace: (name: string) => void;
  readonly refreshMarketplace: (name: string) => void;
  /** Moves a custom marketplace one place up or down (`marketplaces/reorder`). */
  readonly moveMarketplace: (name: string, direction: MoveDirection) => void;
  /** Reads the remote Apps / Connectors switch again (`integrations/apps/read`). */
  readonly readRemoteApps: () => void;
  /** Sets the remote Apps / Connectors switch (`integrations/apps/write`). */
  readonly setRemoteApps: (enabled: boolean) => void;
  readonly select: (marketplace: string) => void;
  readonly openDetails: (marketplace: string, plugin: string) => void;
  readonly closeDetails: () => void;
  readonly install: (marketplace: string, plugin: string) => void;
  readonly uninstall: (pluginId: string) => void;
  readonly setPluginEnabled: (pluginId: string, enabled: boolean) => void;
  readonly setSkillEnabled: (path: string | null, name: string, enabled: boolean) => void;
  readonly setAppEnabled: (id: string, enabled: boolean) => void;
  readonly tryInChat: (marketplace: string, plugin: string) => void;
  readonly cancelLogin: (sessionId: string) => void;
  readonly dismissLogin: (sessionId: string) => void;
  readonly dismissNotice: () => void;
}

type Props = { readonly state: PluginsState; readonly actions: PluginsActions; readonly connected: boolean };

const KIND: Readonly<Record<MarketplaceEntry['kind'], string>> = { official: 'Official', local: 'Local directory', git: 'Git' };
const marketplaceTitle = (m: MarketplaceEntry): string => m.displayName ?? m.name;
const pluginTitle = (p: CatalogPluginSummary): string => p.displayName ?? p.name;

/** The page. */
export function PluginsPage({ state, actions, connected }: Props) {
  return (
    <main class="plugins" aria-labelledby="plugins-title">
      <div class="plugins-head">
        <h2 id="plugins-title">Plugins</h2>
        <button type="button" onClick={actions.reload} disabled={!connected}>
          Reload
        </button>
      </div>
      {state.notice !== null && (
        <div class={`notice notice-${state.notice.kind}`} role={state.notice.kind === 'error' ? 'alert' : 'status'}>
          <p>{state.notice.message}</p>
          <button type="button" onClick={actions.dismissNotice}>
            Dismiss
          </button>
        </div>
      )}
      <Logins logins={state.logins} actions={actions} />
      <Marketplaces state={state} actions={actions} connected={connected} />
      {state.selected !== null && <Catalog state={state} actions={actions} connected={connected} />}
      {state.details !== null && <Details state={state} actions={actions} connected={connected} />}
      <Installed state={state} actions={actions} connected={connected} />
      <Integrations state={state} actions={actions} connected={connected} />
    </main>
  );
}

function AddMarketplace({ actions, busy, connected }: { readonly actions: PluginsActions; readonly busy: boolean; readonly connected: boolean }) {
  const [source, setSource] = useState('');
  const [name, setName] = useState('');
  return (
    <form
      class="add-marketplace"
      aria-label="Add a marketplace"
      onSubmit={(event) => {
        event.preventDefault();
        if (source.trim() === '') return;
        actions.addMarketplace(source.trim(), name.trim());
        setSource('');
        setName('');
      }}
    >
      <div class="field-row">
        <label for="marketplace-source">Marketplace source</label>
        <input id="marketplace-source" type="text" value={source} aria-describedby="marketplace-source-hint" onInput={(e) => setSource((e.currentTarget as HTMLInputElement).value)} />
        <span id="marketplace-source-hint" class="hint">
          A local directory holding .agents/plugins/marketplace.json (or that file), a GitHub owner/repo, or a git URL.
        </span>
      </div>
      <div class="field-row">
        <label for="marketplace-label">Label (optional)</label>
        <input id="marketplace-label" type="text" value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <button type="submit" class="primary" disabled={!connected || busy || source.trim() === ''}>
        {busy ? 'Adding…' : 'Add marketplace'}
      </button>
    </form>
  );
}

/** The move a person asked for, whose button keeps the focus while the list is drawn in its new order. */
interface PendingMove {
  readonly name: string;
  readonly direction: MoveDirection;
}

function Marketplaces({ state, actions, connected }: Props) {
  const list = state.marketplaces;
  const custom = list._tag === 'Loaded' ? customMarketplaceNames(list.value.marketplaces) : [];
  const reordering = isBusy(state, operationKey('reorder', 'marketplaces'));
  const listRef = useRef<HTMLUListElement>(null);
  const [moved, setMoved] = useState<PendingMove | null>(null);
  // After a move the list is drawn in the answered order: the moved marketplace's button keeps the
  // focus (its other one when the pressed one is now disabled at an end).
  useLayoutEffect(() => {
    if (moved === null) return;
    const item = Array.from(listRef.current?.children ?? []).find((li) => li.getAttribute('data-marketplace') === moved.name);
    const pressed = item?.querySelector<HTMLButtonElement>(`button[data-move="${moved.direction}"]`);
    const other = item?.querySelector<HTMLButtonElement>(`button[data-move="${moved.direction === 'up' ? 'down' : 'up'}"]`);
    const target = pressed !== null && pressed !== undefined && !pressed.disabled ? pressed : other;
    if (target !== null && target !== undefined && !target.disabled && document.activeElement !== target) target.focus();
    if (!reordering) setMoved(null);
  });
  return (
    <section class="panel" aria-labelledby="marketplaces-title">
      <h3 id="marketplaces-title">Marketplaces</h3>
      {list._tag === 'Loading' && <p class="empty">Loading the marketplaces…</p>}
      {list._tag === 'Failed' && (
        <p class="problem" role="alert">
          {list.message}
        </p>
      )}
      {list._tag === 'Loaded' && list.value.welcome && (
        <div class="welcome">
          <p>
            <strong>Welcome to plugins.</strong> No marketplace is added yet. Add one below to browse its plugins and install them on this device.
          </p>
        </div>
      )}
      {list._tag === 'Loaded' && list.value.marketplaces.length > 0 && (
        <ul class="marketplaces" ref={listRef}>
          {list.value.marketplaces.map((m) => {
            const position = custom.indexOf(m.name);
            const move = (direction: MoveDirection): void => {
              setMoved({ name: m.name, direction });
              actions.moveMarketplace(m.name, direction);
            };
            return (
              <li key={m.name} class="marketplace" data-marketplace={m.name}>
                <button type="button" class="marketplace-select" aria-current={m.name === state.selected ? 'true' : undefined} onClick={() => actions.select(m.name)}>
                  <span class="marketplace-name">{marketplaceTitle(m)}</span>
                  <span class="marketplace-kind">{KIND[m.kind]}</span>
                </button>
                {m.loadError !== undefined && <p class="problem">This marketplace did not load: {m.loadError}. Fix its source, then refresh it.</p>}
                <div class="marketplace-actions">
                  {m.editable && position !== -1 && (
                    <>
                      {/* Not disabled while a move is on its way (the focused button would lose the focus): a press then does nothing. */}
                      <button type="button" data-move="up" disabled={!connected || position === 0} aria-disabled={reordering ? 'true' : undefined} onClick={() => move('up')} aria-label={`Move ${marketplaceTitle(m)} up`}>
                        Move up
                      </button>
                      <button type="button" data-move="down" disabled={!connected || position === custom.length - 1} aria-disabled={reordering ? 'true' : undefined} onClick={() => move('down')} aria-label={`Move ${marketplaceTitle(m)} down`}>
                        Move down
                      </button>
                    </>
                  )}
                  {(m.editable || m.kind === 'official') && (
                    <button type="button" disabled={!connected || isBusy(state, operationKey('refresh', m.name))} onClick={() => actions.refreshMarketplace(m.name)} aria-label={`Refresh ${marketplaceTitle(m)}`}>
                      Refresh
                    </button>
                  )}
                  {m.editable && (
                    <button type="button" disabled={!connected || isBusy(state, operationKey('remove', m.name))} onClick={() => actions.removeMarketplace(m.name)} aria-label={`Remove ${marketplaceTitle(m)}`}>
                      Remove
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <AddMarketplace actions={actions} busy={isBusy(state, operationKey('add', 'marketplace'))} connected={connected} />
    </section>
  );
}

function InstallButton({ state, actions, connected, summary }: Props & { readonly summary: CatalogPluginSummary }) {
  const installed = installedPlugin(state, summary.marketplace, summary.name);
  const title = pluginTitle(summary);
  if (installed !== undefined || summary.installed) {
    const busy = isBusy(state, operationKey('uninstall', summary.pluginId));
    return (
      <button type="button" disabled={!connected || busy} onClick={() => actions.uninstall(summary.pluginId)} aria-label={`Uninstall ${title}`}>
        {busy ? 'Uninstalling…' : 'Uninstall'}
      </button>
    );
  }
  const busy = isBusy(state, operationKey('install', summary.pluginId));
  return (
    <button type="button" class="primary" disabled={!connected || busy || summary.installPolicy === 'NOT_AVAILABLE'} onClick={() => actions.install(summary.marketplace, summary.name)} aria-label={`Install ${title}`}>
      {busy ? 'Installing…' : 'Install'}
    </button>
  );
}

function Catalog({ state, actions, connected }: Props) {
  const market = marketplacesOf(state).find((m) => m.name === state.selected);
  const catalog = state.catalog;
  const [query, setQuery] = useState('');
  const shown = catalog._tag === 'Loaded' ? searchCatalog(catalog.value, query) : [];
  return (
    <section class="panel" aria-labelledby="catalog-title">
      <h3 id="catalog-title">{market === undefined ? 'Catalog' : `${marketplaceTitle(market)} catalog`}</h3>
      <div class="field-row catalog-search">
        <label for="catalog-search">Search plugins</label>
        <input id="catalog-search" type="search" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
      </div>
      {(catalog._tag === 'Loading' || catalog._tag === 'Idle') && <p class="empty">Loading the catalog…</p>}
      {catalog._tag === 'Failed' && (
        <p class="problem" role="alert">
          {catalog.message}
        </p>
      )}
      {catalog._tag === 'Loaded' && catalog.value.length === 0 && <p class="empty">This marketplace offers no plugins.</p>}
      {catalog._tag === 'Loaded' && catalog.value.length > 0 && shown.length === 0 && <p class="empty">No plugin matches the search.</p>}
      {shown.length > 0 && (
        <ul class="catalog">
          {shown.map((p) => {
            const installed = installedPlugin(state, p.marketplace, p.name);
            return (
              <li key={p.pluginId} class="catalog-plugin" data-plugin-id={p.pluginId}>
                <div class="catalog-text">
                  <h4>{pluginTitle(p)}</h4>
                  {p.shortDescription !== null && <p>{p.shortDescription}</p>}
                  <p class="hint">
                    {[p.version === null ? null : `Version ${p.version}`, p.category, installed === undefined && !p.installed ? 'Not installed' : installed?.enabled === false ? 'Installed, off' : 'Installed'].filter((s) => s !== null).join(' · ')}
                  </p>
                </div>
                <div class="catalog-actions">
                  <button type="button" onClick={() => actions.openDetails(p.marketplace, p.name)} aria-label={`Details of ${pluginTitle(p)}`}>
                    Details
                  </button>
                  <InstallButton state={state} actions={actions} connected={connected} summary={p} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

interface SwitchProps {
  readonly id: string;
  readonly label: string;
  readonly checked: boolean;
  readonly disabled: boolean;
  readonly onChange: (on: boolean) => void;
  /** The id of a hint that describes the switch. */
  readonly describedBy?: string;
}

function Switch({ id, label, checked, disabled, onChange, describedBy }: SwitchProps) {
  return (
    <label class="switch" for={id}>
      <input id={id} type="checkbox" role="switch" checked={checked} disabled={disabled} aria-describedby={describedBy} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)} />
      <span>{label}</span>
    </label>
  );
}

const safeId = (text: string): string => text.replace(/[^a-zA-Z0-9_-]+/g, '-');

/** The switches of one installed plugin: the plugin itself, each skill, each app. */
function Management({ state, actions, connected, plugin, scope }: Props & { readonly plugin: InstalledPlugin; readonly scope: 'details' | 'installed' }) {
  const title = plugin.displayName ?? plugin.name;
  // The same plugin's switches show in the details and in the installed list: ids are unique per place.
  const base = `${scope}-${safeId(plugin.pluginId)}`;
  return (
    <div class="management">
      <Switch
        id={`plugin-${base}`}
        label={`${title} enabled`}
        checked={plugin.enabled}
        disabled={!connected || isBusy(state, operationKey('plugin', plugin.pluginId))}
        onChange={(on) => actions.setPluginEnabled(plugin.pluginId, on)}
      />
      {plugin.skills.length > 0 && (
        <fieldset class="switches">
          <legend>Skills</legend>
          {plugin.skills.map((skill) => (
            <Switch
              key={skill.path ?? skill.name}
              id={`skill-${base}-${safeId(skill.name)}`}
              label={skill.name}
              checked={skill.enabled}
              disabled={!connected || isBusy(state, operationKey('skill', skill.path ?? skill.name))}
              onChange={(on) => actions.setSkillEnabled(skill.path, skill.name, on)}
            />
          ))}
        </fieldset>
      )}
      {plugin.apps.length > 0 && (
        <fieldset class="switches">
          <legend>Apps</legend>
          {plugin.apps.map((app) => (
            <Switch key={app.id} id={`app-${base}-${safeId(app.id)}`} label={app.name} checked={app.enabled} disabled={!connected || isBusy(state, operationKey('app', app.id))} onChange={(on) => actions.setAppEnabled(app.id, on)} />
          ))}
        </fieldset>
      )}
    </div>
  );
}

/** One kind of a plugin's components: a heading, then its items or "None.". */
function ComponentList<T>({ title, items, keyOf, render }: { readonly title: string; readonly items: ReadonlyArray<T>; readonly keyOf: (item: T) => string; readonly render: (item: T) => ComponentChildren }) {
  return (
    <>
      <h4>{title}</h4>
      {items.length === 0 ? (
        <p class="empty">None.</p>
      ) : (
        <ul>
          {items.map((item) => (
            <li key={keyOf(item)}>{render(item)}</li>
          ))}
        </ul>
      )}
    </>
  );
}

function Components({ details }: { readonly details: PluginDetails }) {
  return (
    <div class="components">
      <ComponentList
        title="Skills"
        items={details.skills}
        keyOf={(s) => s.name}
        render={(s) => (
          <>
            <strong>{s.name}</strong> — {s.shortDescription ?? s.description}
          </>
        )}
      />
      <ComponentList
        title="Apps"
        items={details.apps}
        keyOf={(a) => a.id}
        render={(a) => (
          <>
            <strong>{a.name}</strong>
            {a.description !== null && ` — ${a.description}`}
          </>
        )}
      />
      <ComponentList title="MCP servers" items={details.mcpServers} keyOf={(s) => s} render={(s) => s} />
      {details.connectors.length > 0 && (
        <>
          <h4>Connectors</h4>
          <ul>
            {details.connectors.map((c) => (
              <li key={c.slug}>
                <strong>{c.slug}</strong> — {c.localAuth.type === 'local_qr' ? 'signs in by scanning a QR code' : 'signs in in the browser'}
                {c.localAuth.authPolicy === 'on_install' ? ', when installing' : ''}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function Details({ state, actions, connected }: Props) {
  const open = state.details;
  if (open === null) return null;
  const load = open.load;
  const installed = installedPlugin(state, open.marketplace, open.plugin);
  return (
    <section class="panel details" aria-labelledby="details-title">
      <div class="details-head">
        <h3 id="details-title">{load._tag === 'Loaded' ? pluginTitle(load.value.summary) : open.plugin}</h3>
        <button type="button" onClick={actions.closeDetails} aria-label="Close the details">
          Close
        </button>
      </div>
      {load._tag === 'Loading' && <p class="empty">Loading the details…</p>}
      {load._tag === 'Failed' && (
        <p class="problem" role="alert">
          {load.message}
        </p>
      )}
      {load._tag === 'Loaded' && (
        <>
          {load.value.developerName !== null && <p class="hint">By {load.value.developerName}</p>}
          <p class="description">{load.value.longDescription ?? load.value.description ?? load.value.summary.shortDescription ?? 'No description.'}</p>
          <Components details={load.value} />
          <div class="card-actions">
            <InstallButton state={state} actions={actions} connected={connected} summary={load.value.summary} />
            <button
              type="button"
              disabled={!connected || installed === undefined || !installed.enabled || isBusy(state, operationKey('trial', load.value.summary.pluginId))}
              onClick={() => actions.tryInChat(open.marketplace, open.plugin)}
            >
              Try in chat
            </button>
          </div>
          {installed !== undefined && <Management state={state} actions={actions} connected={connected} plugin={installed} scope="details" />}
        </>
      )}
    </section>
  );
}

function Installed({ state, actions, connected }: Props) {
  const inventory = state.inventory;
  return (
    <section class="panel" aria-labelledby="installed-title">
      <h3 id="installed-title">Installed on this device</h3>
      {inventory._tag === 'Failed' && (
        <p class="problem" role="alert">
          {inventory.message}
        </p>
      )}
      {inventory._tag === 'Loaded' && inventory.value.fromSnapshot && <p class="hint">Codex is restarting: this list is the last one saved, without skills and apps.</p>}
      {inventory._tag === 'Loaded' && inventory.value.plugins.length === 0 && <p class="empty">No plugin is installed yet.</p>}
      {inventory._tag === 'Loaded' && inventory.value.plugins.length > 0 && (
        <ul class="installed">
          {inventory.value.plugins.map((p) => (
            <li key={p.pluginId} class="installed-plugin" data-plugin-id={p.pluginId}>
              <h4>
                {p.displayName ?? p.name} <span class="hint">{p.pluginId}</span>
              </h4>
              {p.status.kind !== 'ok' && <p class="problem">{p.status.kind === 'installing' ? 'Installing…' : p.status.kind === 'updating' ? 'Updating…' : `Needs attention: ${'reason' in p.status ? p.status.reason : 'unknown'}. Install it again to repair it.`}</p>}
              <Management state={state} actions={actions} connected={connected} plugin={p} scope="installed" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Settings → Integrations → Plugins: the remote Apps / Connectors switch (`features.apps` of Codex's config). */
function Integrations({ state, actions, connected }: Props) {
  const { load, writing } = state.remoteApps;
  const pressed = useRef(false);
  // The switch is disabled while its write is on its way, which takes the focus away: it comes back after.
  useLayoutEffect(() => {
    if (writing !== null || !pressed.current) return;
    pressed.current = false;
    const element = document.getElementById('remote-apps');
    if (element !== null && (document.activeElement === null || document.activeElement === document.body)) element.focus();
  });
  return (
    <section class="panel integrations" aria-labelledby="integrations-title">
      <h3 id="integrations-title">Integrations</h3>
      {(load._tag === 'Idle' || load._tag === 'Loading') && <p class="empty">Reading the remote Apps / Connectors switch…</p>}
      {load._tag === 'Failed' && (
        <p class="problem" role="alert">
          {load.message}
        </p>
      )}
      {load._tag === 'Loaded' && (
        <div class="remote-apps">
          <Switch
            id="remote-apps"
            label="Remote Apps / Connectors"
            checked={load.value}
            disabled={!connected || writing !== null}
            describedBy="remote-apps-hint"
            onChange={(on) => {
              pressed.current = true;
              actions.setRemoteApps(on);
            }}
          />
          <p id="remote-apps-hint" class="hint">
            {writing !== null ? 'Saving… Codex restarts with the new setting.' : 'Lets Codex fetch apps and connectors from the OpenAI service. Changing it restarts Codex.'}
          </p>
        </div>
      )}
    </section>
  );
}

function Logins({ logins, actions }: { readonly logins: ReadonlyArray<AuthSession>; readonly actions: PluginsActions }) {
  if (logins.length === 0) return null;
  return (
    <section class="panel logins" aria-labelledby="logins-title">
      <h3 id="logins-title">Connector sign-in</h3>
      <ul>
        {logins.map((session) => {
          const view = loginView(session);
          return (
            <li key={session.sessionId} class={`login login-${view.phase}`} data-session-id={session.sessionId} data-phase={view.phase}>
              <p>
                <strong>{session.connectorSlug}</strong> for {session.pluginKey} ({session.type === 'local_qr' ? 'QR code' : 'browser'})
              </p>
              <p role="status" aria-live="polite" class="login-state">
                {view.text}
              </p>
              {session.state === 'waiting_scan' && session.qr !== undefined && <QrCode payload={session.qr.payload} label={`QR code to sign in to ${session.connectorSlug}`} />}
              <div class="card-actions">
                {view.phase === 'pending' ? (
                  <button type="button" onClick={() => actions.cancelLogin(session.sessionId)}>
                    Cancel sign-in
                  </button>
                ) : (
                  <button type="button" onClick={() => actions.dismissLogin(session.sessionId)}>
                    Dismiss
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
