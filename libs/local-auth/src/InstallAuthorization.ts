/**
 * Install-time authorization (`authPolicy: on_install`): after the plugin package has been synchronised
 * to this device, check each such connector's login and open the login UI when needed; cancelling or
 * failing aborts that installation through the injected `abortInstallation` port (the host binds it to
 * the rollback of the sync transaction). Pure orchestration over ports.
 *
 * Credentials are device-scoped: the check runs on this device, and its result says nothing about the
 * plugin's other devices, which check and authorize independently.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { AuthTarget, DeviceHealth, HealthError } from './HealthCheck.js';
import type { ConnectorLocalAuth } from './LocalAuthManifest.js';
import { policyTriggers } from './LocalAuthManifest.js';
import type { LoginError, LoginOutcome, LoginSession } from './LoginSession.js';
import type { AuthLogger } from './Ports.js';
import { isAborted } from './internal/Abort.js';

/** Why the UI is asked to show a login. */
export interface AuthorizationRequest {
  readonly reason: 'install' | 'recovery';
  readonly deviceId: string;
  readonly pluginKey: string;
  readonly connectorSlug: string;
}

/**
 * The host's login UI. `present` shows the session (subscribing to its states) and calls
 * `session.cancel()` when the person closes it; the core awaits `session.done`.
 */
export interface AuthorizationUi {
  present(session: LoginSession, request: AuthorizationRequest): void;
}

/** Starts login sessions (usually `LoginSessions.start` of the device). */
export type StartLogin = (target: AuthTarget) => LoginSession;

/** A synchronised plugin whose connectors may need authorization. */
export interface SyncedPlugin {
  readonly pluginKey: string;
  readonly pluginRoot: string;
  readonly connectors: readonly ConnectorLocalAuth[];
}

/** How each `on_install` connector became ready. */
export interface ConnectorReadiness {
  readonly connectorSlug: string;
  readonly readiness: 'already_logged_in' | 'logged_in';
  readonly account: string | undefined;
}

/** Every `on_install` connector is logged in on this device. */
export interface InstallAuthorized {
  readonly _tag: 'InstallAuthorized';
  readonly deviceId: string;
  readonly pluginKey: string;
  readonly connectors: readonly ConnectorReadiness[];
}

/** The person cancelled the login; the installation was aborted. */
export interface AuthorizationCancelled {
  readonly _tag: 'AuthorizationCancelled';
  readonly deviceId: string;
  readonly pluginKey: string;
  readonly connectorSlug: string;
  readonly message: string;
}

/** The health check or the login failed; the installation was aborted. */
export interface AuthorizationFailed {
  readonly _tag: 'AuthorizationFailed';
  readonly deviceId: string;
  readonly pluginKey: string;
  readonly connectorSlug: string;
  readonly error: LoginError | HealthError;
  readonly message: string;
}

/** Authorization was cancelled or failed, and aborting the installation failed too. */
export interface AbortFailed<A> {
  readonly _tag: 'AbortFailed';
  readonly deviceId: string;
  readonly pluginKey: string;
  readonly connectorSlug: string;
  readonly cause: AuthorizationCancelled | AuthorizationFailed;
  /** The `Left` of `abortInstallation`, or `undefined` when it rejected. */
  readonly abortError: A | undefined;
  readonly message: string;
}

/** Why an installation did not become ready. */
export type InstallAuthorizationError<A> = AuthorizationCancelled | AuthorizationFailed | AbortFailed<A>;

/** What {@link installWithAuthorization} needs. */
export interface InstallAuthorizationDeps<A> {
  readonly health: DeviceHealth;
  readonly startLogin: StartLogin;
  readonly ui: AuthorizationUi;
  /** Aborts this installation (rolls back the sync transaction). Called at most once. */
  readonly abortInstallation: (cause: AuthorizationCancelled | AuthorizationFailed) => Promise<E.Either<A, void>>;
  readonly log?: AuthLogger;
}

/**
 * Makes the `on_install` connectors of a just-synchronised plugin ready on this device, or aborts the
 * installation. Other policies are left to first use. Never rejects.
 *
 * @example
 * ```ts
 * const result = await installWithAuthorization(
 *   { health, startLogin: (target) => sessions.start(target), ui, abortInstallation: () => transaction.rollback() },
 *   { pluginKey: 'dingtalk@wegent', pluginRoot, connectors },
 * );
 * // Right({ _tag: 'InstallAuthorized', ... }) or Left({ _tag: 'AuthorizationCancelled', ... })
 * ```
 */
export async function installWithAuthorization<A>(
  deps: InstallAuthorizationDeps<A>,
  plugin: SyncedPlugin,
  signal?: AbortSignal,
): Promise<E.Either<InstallAuthorizationError<A>, InstallAuthorized>> {
  const deviceId = deps.health.deviceId;
  const ready: ConnectorReadiness[] = [];
  const abort = async (cause: AuthorizationCancelled | AuthorizationFailed): Promise<E.Either<InstallAuthorizationError<A>, InstallAuthorized>> => {
    deps.log?.({ event: 'install.abort', pluginKey: plugin.pluginKey, connector: cause.connectorSlug, detail: cause._tag });
    let aborted: E.Either<A | undefined, void>;
    try {
      aborted = await deps.abortInstallation(cause);
    } catch {
      aborted = E.left(undefined);
    }
    if (E.isRight(aborted)) return E.left(cause);
    return E.left({
      _tag: 'AbortFailed',
      deviceId,
      pluginKey: plugin.pluginKey,
      connectorSlug: cause.connectorSlug,
      cause,
      abortError: aborted.left,
      message: `${cause.message} Aborting the installation failed as well.`,
    });
  };
  const cancelled = (connectorSlug: string): AuthorizationCancelled => ({
    _tag: 'AuthorizationCancelled',
    deviceId,
    pluginKey: plugin.pluginKey,
    connectorSlug,
    message: `Authorization of connector "${connectorSlug}" was cancelled; the installation of ${plugin.pluginKey} was aborted.`,
  });
  const failed = (connectorSlug: string, error: LoginError | HealthError): AuthorizationFailed => ({
    _tag: 'AuthorizationFailed',
    deviceId,
    pluginKey: plugin.pluginKey,
    connectorSlug,
    error,
    message: `Authorization of connector "${connectorSlug}" failed (${error._tag}); the installation of ${plugin.pluginKey} was aborted.`,
  });

  for (const connector of plugin.connectors) {
    if (!policyTriggers(connector.localAuth.authPolicy).checkAtInstall) continue;
    if (isAborted(signal)) return abort(cancelled(connector.slug));
    const target: AuthTarget = { pluginKey: plugin.pluginKey, pluginRoot: plugin.pluginRoot, connector };
    const health = await deps.health.check(target, { bypassCache: true, ...(signal === undefined ? {} : { signal }) });
    if (isAborted(signal)) return abort(cancelled(connector.slug));
    if (E.isLeft(health)) return abort(failed(connector.slug, health.left));
    if (health.right.loggedIn) {
      ready.push({ connectorSlug: connector.slug, readiness: 'already_logged_in', account: health.right.account });
      continue;
    }
    const outcome = await login(deps, target, deviceId, 'install', signal);
    if (outcome.state === 'cancelled') return abort(cancelled(connector.slug));
    if (outcome.state === 'error') return abort(failed(connector.slug, outcome.error));
    deps.health.markHealthy(target, outcome.account);
    ready.push({ connectorSlug: connector.slug, readiness: 'logged_in', account: outcome.account });
  }
  return E.right({ _tag: 'InstallAuthorized', deviceId, pluginKey: plugin.pluginKey, connectors: ready });
}

/** Starts a session, shows it, cancels it when `signal` aborts, and waits for its outcome. */
export async function login(
  deps: { readonly startLogin: StartLogin; readonly ui: AuthorizationUi },
  target: AuthTarget,
  deviceId: string,
  reason: AuthorizationRequest['reason'],
  signal?: AbortSignal,
): Promise<LoginOutcome> {
  const session = deps.startLogin(target);
  const onAbort = (): void => session.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    deps.ui.present(session, { reason, deviceId, pluginKey: target.pluginKey, connectorSlug: target.connector.slug });
  } catch {
    session.cancel();
  }
  if (isAborted(signal)) session.cancel();
  const outcome = await session.done;
  signal?.removeEventListener('abort', onAbort);
  return outcome;
}
