/**
 * Install-time authorization of a plugin's connectors (`authPolicy: on_install`), run as the sync
 * transaction's check before its commit mark: the package is published, its login bridges can run from
 * the installed plugin root, and a cancelled or failed login makes the transaction roll back — the device
 * is left exactly as before the installation (a crash meanwhile is rolled back at restart too).
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  decodeLocalAuthConnectors,
  installWithAuthorization,
  type AuthorizationUi,
  type DeviceHealth,
  type StartLogin,
} from '@wework/local-auth';
import type { BeforeCommit } from '@wework/sync-transaction';
import type { Log } from '@wework/ports';
import { readPluginManifest } from './UntrustedJson.js';

/** What install-time authorization needs from the executor. */
export interface InstallAuthorizationOptions {
  readonly health: DeviceHealth;
  readonly startLogin: StartLogin;
  /** The host's login UI (QR code, browser step); it cancels the session when the person closes it. */
  readonly ui: AuthorizationUi;
  readonly log: Log;
}

/**
 * The check to run before the commit of `pluginKey`'s installation. `authorization` is loaded only when
 * the package declares connectors (or declares them wrongly, to log the refusal), so an installation
 * without connectors never loads the device's login machinery.
 */
export function authorizeBeforeCommit(authorization: () => Promise<InstallAuthorizationOptions>, pluginKey: string): BeforeCommit {
  return async (published) => {
    const pluginRoot = published[0];
    if (pluginRoot === undefined) return E.right(undefined);
    const manifest = await readPluginManifest(pluginRoot);
    if (E.isLeft(manifest)) return E.left('the plugin manifest cannot be read');
    const connectors = decodeLocalAuthConnectors(manifest.right);
    if (E.isRight(connectors) && connectors.right.length === 0) return E.right(undefined);
    // A login machinery that cannot be loaded refuses the installation (the transaction rolls back).
    const loaded = await authorization().then(E.right, () => E.left('the device login machinery could not be loaded'));
    if (E.isLeft(loaded)) return loaded;
    const options = loaded.right;
    if (E.isLeft(connectors)) {
      options.log({ event: 'plugin install refused', fields: { plugin: pluginKey, reason: 'invalid localAuth' } });
      return E.left(connectors.left.message);
    }
    const authorized = await installWithAuthorization(
      // The transaction rolls back when this check answers Left; nothing else to undo here.
      { health: options.health, startLogin: options.startLogin, ui: options.ui, abortInstallation: async () => E.right(undefined) },
      { pluginKey, pluginRoot, connectors: connectors.right },
    );
    if (E.isRight(authorized)) {
      options.log({ event: 'plugin install authorized', fields: { plugin: pluginKey, connectors: authorized.right.connectors.map((c) => `${c.connectorSlug}:${c.readiness}`) } });
      return E.right(undefined);
    }
    options.log({ event: 'plugin install authorization ended', fields: { plugin: pluginKey, outcome: authorized.left._tag } });
    return E.left(authorized.left.message);
  };
}
