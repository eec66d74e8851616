/**
 * This device's connector authorization, as the plugin sync uses it: bridges run without a shell (whole
 * process trees ended on timeout or cancel), tools resolved from the bundled sidecars or installed as managed
 * artifacts under the executor home, health results cached per device, and one login session per connector.
 */
import { join } from 'node:path';
import { deviceHealth, HealthCache, LoginSessions, type AuthorizationUi } from '@wework/local-auth';
import { createNodeBridgeRunner, httpDownloader, managedToolInstaller, sidecarDirectory, toolResolver } from '@wework/local-auth/node';
import { nodeTimers } from '@wework/ports/node';
import type { Log } from '@wework/ports';
import type { InstallAuthorizationOptions } from './installAuthorization.js';

/** What {@link deviceAuthorization} needs. */
export interface DeviceAuthorizationOptions {
  readonly executorHome: string;
  /** Where the desktop client ships its sidecar tools; default `<executorHome>/sidecars`. */
  readonly sidecarDirectory?: string;
  /** This device's id (credentials are device-scoped). */
  readonly deviceId?: string;
  readonly ui: AuthorizationUi;
  readonly log: Log;
}

/** The install-time authorization of this device. */
export function deviceAuthorization(options: DeviceAuthorizationOptions): InstallAuthorizationOptions {
  const runner = createNodeBridgeRunner();
  const tools = toolResolver(
    sidecarDirectory(options.sidecarDirectory ?? join(options.executorHome, 'sidecars')),
    managedToolInstaller({ executorHome: options.executorHome, downloader: httpDownloader() }),
  );
  const health = deviceHealth({ deviceId: options.deviceId ?? 'this-device', runner, tools, timers: nodeTimers, cache: new HealthCache() });
  const sessions = new LoginSessions({ runner, tools, timers: nodeTimers });
  return { health, startLogin: (target) => sessions.start(target), ui: options.ui, log: options.log };
}
