/**
 * The host's plugin management (`plugins/list`, `plugins/install`, `plugins/uninstall`) over the cloud
 * plugin sync: the host hands over the package it downloaded from the Wework backend (an unpacked
 * directory), the executor takes it in once (copied into staging without following links; a link,
 * FIFO, device, hard link or a tree over the limits is refused with `PackageRefused`), commits the
 * staged copy as one transaction and applies it to the running app-server.
 * Plugins are listed from the sync manifest — the ones this executor installed.
 */
import * as E from 'fp-ts/lib/Either.js';
import { parsePluginKey } from '@wework/plugin-inventory';
import { readManifest, type Homes, type IntakeLimits } from '@wework/sync-transaction';
import { directoryPackageSource, inspectInstalledPlugin } from '@wework/sync-transaction/node';
import type { PluginSummary } from '@wework/host-protocol';
import type { PluginService, PluginServiceError } from '../host/PluginService.js';
import { describePluginSyncError, type PluginSync, type PluginSyncError } from './PluginSync.js';
import { untrustedReads } from './UntrustedJson.js';

const descriptionOf = (manifest: unknown): string | null =>
  typeof manifest === 'object' && manifest !== null && typeof (manifest as { description?: unknown }).description === 'string'
    ? (manifest as { description: string }).description
    : null;

/** Why a package was refused before anything was written, when it was: the intake's, the validation's or a link in the homes. */
const refusalOf = (error: PluginSyncError): string | null => {
  if (error._tag !== 'SyncFailed') return null;
  const cause = error.error;
  return cause._tag === 'PackageRefused' || cause._tag === 'PackageRejected' ? cause.reason : cause._tag === 'LinkInHome' ? 'LinkInHome' : null;
};

/** The host's error for a failed sync (names the refusal reason, never a path or a file name of the package). */
const failureOf = (error: PluginSyncError): PluginServiceError => {
  const reason = refusalOf(error);
  return reason === null
    ? { _tag: 'PluginOperationFailed', message: describePluginSyncError(error) }
    : { _tag: 'PackageRefused', reason, message: `the package was refused (${reason}); nothing on disk changed` };
};

/**
 * The plugin service of an executor whose plugins come from the cloud sync. Packages are taken in
 * once into a private staging directory, under `intake` limits (default
 * `DEFAULT_INTAKE_LIMITS` of `@wework/sync-transaction`).
 */
export function syncedPluginService(sync: PluginSync, homes: Homes, intake: Partial<IntakeLimits> = {}): PluginService {
  const summary = async (name: string, marketplace: string): Promise<PluginSummary> => {
    const state = await inspectInstalledPlugin(homes, { name, marketplace });
    return {
      pluginId: `${name}@${marketplace}`,
      name,
      marketplace,
      installed: state._tag === 'Installed',
      enabled: state._tag === 'Installed' && state.enabled,
      description: state._tag === 'Installed' ? descriptionOf(state.manifest) : null,
    };
  };

  const list = async (): Promise<E.Either<PluginServiceError, ReadonlyArray<PluginSummary>>> => {
    const manifest = await readManifest(untrustedReads, homes)();
    if (E.isLeft(manifest)) return E.left({ _tag: 'PluginOperationFailed', message: 'the plugin manifest of this executor cannot be read' });
    const installed = Object.entries(manifest.right.plugins).filter(([, record]) => record.status === 'installed');
    const out: PluginSummary[] = [];
    for (const [key] of installed.sort(([a], [b]) => a.localeCompare(b))) {
      const ref = parsePluginKey(key);
      if (E.isRight(ref)) out.push(await summary(ref.right.name, ref.right.marketplace));
    }
    return E.right(out);
  };

  return {
    list,
    install: async ({ marketplace, plugin, version, packagePath }) => {
      // Staged in a private directory (0700) of the OS temp directory, so a refused package leaves the homes untouched.
      const source = directoryPackageSource(packagePath, { limits: intake });
      const installed = await sync.install({ name: plugin, marketplace }, version, source);
      if (E.isLeft(installed)) return E.left(failureOf(installed.left));
      return E.right(await summary(plugin, marketplace));
    },
    uninstall: async ({ pluginId }) => {
      const ref = parsePluginKey(pluginId);
      if (E.isLeft(ref)) return E.left({ _tag: 'PluginNotFound', pluginId });
      const current = await inspectInstalledPlugin(homes, ref.right);
      if (current._tag === 'NotInstalled') return E.left({ _tag: 'PluginNotFound', pluginId });
      const removed = await sync.remove(ref.right);
      return E.isLeft(removed) ? E.left(failureOf(removed.left)) : E.right(undefined);
    },
  };
}
