/**
 * Logging out on uninstall, for connectors whose `logoutOnUninstall` is on (by default QR connectors;
 * browser OAuth credentials may be shared with other plugins or profiles and are left alone). Pure
 * orchestration over the ports.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { BridgeError } from './BridgeError.js';
import type { AuthTarget, DeviceHealth } from './HealthCheck.js';
import { resolveTool } from './HealthCheck.js';
import type { SyncedPlugin } from './InstallAuthorization.js';
import type { ToolError } from './ManagedTool.js';
import type { BridgeRunner, ToolResolver } from './Ports.js';
import { HEALTH_TIMEOUT_MS } from './Ports.js';

/** What happened to one connector's login on uninstall. */
export type UninstallLogout =
  | { readonly connectorSlug: string; readonly outcome: 'kept' }
  | { readonly connectorSlug: string; readonly outcome: 'no_logout_command' }
  | { readonly connectorSlug: string; readonly outcome: 'logged_out' }
  | { readonly connectorSlug: string; readonly outcome: 'failed'; readonly error: BridgeError | ToolError };

/**
 * Runs the `logout` command of every connector of `plugin` that asks for it, and forgets their cached
 * health on this device. Failures are reported, never thrown; uninstalling continues regardless.
 *
 * @example
 * ```ts
 * const results = await logoutOnUninstall({ runner, tools, health }, { pluginKey, pluginRoot, connectors });
 * // [{ connectorSlug: 'dingtalk', outcome: 'logged_out' }, { connectorSlug: 'glab', outcome: 'kept' }]
 * ```
 */
export async function logoutOnUninstall(
  deps: { readonly runner: BridgeRunner; readonly tools: ToolResolver; readonly health: DeviceHealth; readonly timeoutMs?: number },
  plugin: SyncedPlugin,
): Promise<readonly UninstallLogout[]> {
  const results: UninstallLogout[] = [];
  for (const connector of plugin.connectors) {
    const target: AuthTarget = { pluginKey: plugin.pluginKey, pluginRoot: plugin.pluginRoot, connector };
    deps.health.forget(target);
    const { logoutOnUninstall: wanted, logout } = connector.localAuth;
    if (!wanted) {
      results.push({ connectorSlug: connector.slug, outcome: 'kept' });
      continue;
    }
    if (logout === undefined) {
      results.push({ connectorSlug: connector.slug, outcome: 'no_logout_command' });
      continue;
    }
    const toolPath = await resolveTool(deps.tools, target);
    if (E.isLeft(toolPath)) {
      results.push({ connectorSlug: connector.slug, outcome: 'failed', error: toolPath.left });
      continue;
    }
    const status = await deps.runner.run({
      connector: connector.slug,
      command: 'logout',
      pluginRoot: plugin.pluginRoot,
      argv: logout,
      timeoutMs: deps.timeoutMs ?? HEALTH_TIMEOUT_MS,
      ...(toolPath.right === undefined ? {} : { toolPath: toolPath.right }),
    });
    results.push(E.isLeft(status) ? { connectorSlug: connector.slug, outcome: 'failed', error: status.left } : { connectorSlug: connector.slug, outcome: 'logged_out' });
  }
  return results;
}
