/**
 * Runtime recovery after a turn ended with `connector_auth_required`: resolve the connector's manifest
 * directly from its identity, check its health bypassing cached healthy results, log in when needed,
 * and produce the continuation instruction for the blocked step. Pure orchestration over ports.
 *
 * {@link RecoveryGate} makes sure late responses and duplicate success callbacks cannot continue
 * obsolete work: cancelling, sending another message or starting a new conversation consumes the
 * request; leaving the pane cancels active recovery but lets it start again on return; a request's
 * continuation is handed out at most once.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ConnectorAuthRequired } from './AuthRequiredDetection.js';
import type { AuthTarget, DeviceHealth, HealthError } from './HealthCheck.js';
import type { AuthorizationUi, StartLogin } from './InstallAuthorization.js';
import { login } from './InstallAuthorization.js';
import type { LoginError } from './LoginSession.js';
import { isAborted } from './internal/Abort.js';

/** The identity a runtime `connector_auth_required` carries. */
export interface ConnectorIdentity {
  readonly pluginKey: string;
  readonly connectorSlug: string;
}

/** No installed plugin connector has this identity on this device (it is never guessed). */
export interface ConnectorNotFound {
  readonly _tag: 'ConnectorNotFound';
  readonly pluginKey: string;
  readonly connectorSlug: string;
  readonly message: string;
}

/** The person cancelled the login, or the recovery was cancelled. */
export interface RecoveryCancelled {
  readonly _tag: 'RecoveryCancelled';
  readonly pluginKey: string;
  readonly connectorSlug: string;
}

/** The health check or the login failed. */
export interface RecoveryFailed {
  readonly _tag: 'RecoveryFailed';
  readonly pluginKey: string;
  readonly connectorSlug: string;
  readonly error: LoginError | HealthError;
  readonly message: string;
}

/** The recovery finished, but its request had meanwhile been consumed or superseded. */
export interface RecoveryObsolete {
  readonly _tag: 'RecoveryObsolete';
  readonly requestId: string;
}

/** Why a recovery produced no continuation. */
export type RecoveryError = ConnectorNotFound | RecoveryCancelled | RecoveryFailed | RecoveryObsolete;

/** The connector is ready: send `continuation` as the next instruction of the conversation. */
export interface RecoveryContinuation {
  readonly _tag: 'RecoveryContinuation';
  readonly pluginKey: string;
  readonly connectorSlug: string;
  /** Whether a login was needed (false when the health check found a fresh login already). */
  readonly loggedIn: boolean;
  readonly continuation: string;
}

/** What {@link recoverConnectorAuth} needs. */
export interface RecoveryDeps {
  /**
   * Resolves the local manifest of exactly this plugin connector, by identity (never by enumerating
   * installations); `Left(ConnectorNotFound)` when it is not installed on this device.
   */
  readonly resolveConnector: (identity: ConnectorIdentity) => Promise<E.Either<ConnectorNotFound, AuthTarget>>;
  readonly health: DeviceHealth;
  readonly startLogin: StartLogin;
  readonly ui: AuthorizationUi;
}

/**
 * The instruction that continues the blocked step after a successful login: it resumes where the turn
 * stopped, it does not resubmit the person's original request.
 *
 * @example
 * ```ts
 * continuationInstruction({ pluginKey: 'gitlab@wegent', connectorSlug: 'glab', toolName: 'gitlab.list_issues' });
 * // 'The "glab" connector of plugin gitlab@wegent is now authorized on this device. Continue the blocked step: call gitlab.list_issues again ...'
 * ```
 */
export function continuationInstruction(blocked: ConnectorIdentity & { readonly toolName?: string | undefined }): string {
  const step = blocked.toolName === undefined ? `retry the ${blocked.pluginKey} operation that reported connector_auth_required` : `call ${blocked.toolName} again`;
  return (
    `The "${blocked.connectorSlug}" connector of plugin ${blocked.pluginKey} is now authorized on this device. ` +
    `Continue the blocked step: ${step}, then carry on with the remaining work from where it stopped. ` +
    'Do not start the task over and do not repeat steps that already succeeded.'
  );
}

/**
 * Recovers one `connector_auth_required`. Never rejects.
 *
 * @example
 * ```ts
 * const detection = detectAuthRequired(finalMessage);
 * if (detection._tag === 'ConnectorAuthRequired') {
 *   const result = await recoverConnectorAuth(deps, detection);
 *   if (E.isRight(result)) sendInstruction(result.right.continuation);
 * }
 * ```
 */
export async function recoverConnectorAuth(deps: RecoveryDeps, blocked: ConnectorAuthRequired | (ConnectorIdentity & { readonly toolName?: string | undefined }), signal?: AbortSignal): Promise<E.Either<RecoveryError, RecoveryContinuation>> {
  const { pluginKey, connectorSlug } = blocked;
  const cancelled = (): E.Either<RecoveryError, RecoveryContinuation> => E.left({ _tag: 'RecoveryCancelled', pluginKey, connectorSlug });
  const failed = (error: LoginError | HealthError): E.Either<RecoveryError, RecoveryContinuation> =>
    E.left({ _tag: 'RecoveryFailed', pluginKey, connectorSlug, error, message: `Authorization of connector "${connectorSlug}" of ${pluginKey} failed (${error._tag}).` });
  const success = (loggedIn: boolean): E.Either<RecoveryError, RecoveryContinuation> =>
    E.right({ _tag: 'RecoveryContinuation', pluginKey, connectorSlug, loggedIn, continuation: continuationInstruction(blocked) });

  let target: E.Either<ConnectorNotFound, AuthTarget>;
  try {
    target = await deps.resolveConnector({ pluginKey, connectorSlug });
  } catch {
    target = E.left({ _tag: 'ConnectorNotFound', pluginKey, connectorSlug, message: `The connector "${connectorSlug}" of ${pluginKey} could not be resolved.` });
  }
  if (isAborted(signal)) return cancelled();
  if (E.isLeft(target)) return target;
  if (target.right.pluginKey !== pluginKey || target.right.connector.slug !== connectorSlug) {
    return E.left({ _tag: 'ConnectorNotFound', pluginKey, connectorSlug, message: `The resolved manifest does not declare connector "${connectorSlug}" of ${pluginKey}.` });
  }
  // The turn just reported the login as missing or expired: a cached healthy result is stale.
  deps.health.forget(target.right);
  const health = await deps.health.check(target.right, { bypassCache: true, ...(signal === undefined ? {} : { signal }) });
  if (isAborted(signal)) return cancelled();
  if (E.isRight(health) && health.right.loggedIn) return success(false);
  if (E.isLeft(health) && health.left._tag !== 'HealthUnclear') return failed(health.left);
  const outcome = await login(deps, target.right, deps.health.deviceId, 'recovery', signal);
  if (outcome.state === 'cancelled') return cancelled();
  if (outcome.state === 'error') return failed(outcome.error);
  deps.health.markHealthy(target.right, outcome.account);
  return isAborted(signal) ? cancelled() : success(true);
}

/** One recovery attempt handed out by a {@link RecoveryGate}. */
export interface RecoveryTicket {
  readonly requestId: string;
  readonly generation: number;
  /** Aborts when the attempt becomes obsolete; pass it to {@link recoverConnectorAuth}. */
  readonly signal: AbortSignal;
}

/**
 * The recovery state of one conversation pane. Requests are the failed turns (by id) that asked for a
 * login; each request yields at most one continuation.
 */
export class RecoveryGate {
  #generation = 0;
  #active: { readonly ticket: RecoveryTicket; readonly controller: AbortController } | undefined;
  readonly #consumed = new Set<string>();

  /** Starts an attempt for `requestId`, cancelling any other; `undefined` if the request was consumed. */
  begin(requestId: string): RecoveryTicket | undefined {
    if (this.#consumed.has(requestId)) return undefined;
    this.#cancelActive();
    const controller = new AbortController();
    const ticket: RecoveryTicket = { requestId, generation: ++this.#generation, signal: controller.signal };
    this.#active = { ticket, controller };
    return ticket;
  }

  /**
   * Claims the continuation of a finished attempt: true once, for the current attempt of an
   * unconsumed request; the request is then consumed. Late and duplicate callers get false.
   */
  complete(ticket: RecoveryTicket): boolean {
    const active = this.#active;
    if (active === undefined || active.ticket.generation !== ticket.generation || ticket.signal.aborted || this.#consumed.has(ticket.requestId)) return false;
    this.#consumed.add(ticket.requestId);
    this.#active = undefined;
    return true;
  }

  /** Cancelling, sending another message or starting a new conversation: the request is gone for good. */
  consume(requestId: string): void {
    this.#consumed.add(requestId);
    if (this.#active?.ticket.requestId === requestId) this.#cancelActive();
  }

  /** Sending another message or opening a new conversation consumes every pending request. */
  consumeAll(): void {
    if (this.#active !== undefined) this.#consumed.add(this.#active.ticket.requestId);
    this.#cancelActive();
  }

  /** Temporarily leaving the pane: the active attempt is cancelled, the request may be recovered on return. */
  leavePane(): void {
    this.#cancelActive();
  }

  /** Whether `ticket` is still the live attempt. */
  isCurrent(ticket: RecoveryTicket): boolean {
    return this.#active?.ticket.generation === ticket.generation && !ticket.signal.aborted;
  }

  #cancelActive(): void {
    this.#active?.controller.abort();
    this.#active = undefined;
  }
}

/**
 * {@link recoverConnectorAuth} under a {@link RecoveryGate}: the continuation is returned only if this
 * attempt is still current when the login succeeds, and only once.
 */
export async function recoverThroughGate(
  gate: RecoveryGate,
  requestId: string,
  deps: RecoveryDeps,
  blocked: ConnectorAuthRequired,
): Promise<E.Either<RecoveryError, RecoveryContinuation>> {
  const ticket = gate.begin(requestId);
  if (ticket === undefined) return E.left({ _tag: 'RecoveryObsolete', requestId });
  const result = await recoverConnectorAuth(deps, blocked, ticket.signal);
  const obsolete: E.Either<RecoveryError, RecoveryContinuation> = E.left({ _tag: 'RecoveryObsolete', requestId });
  // Whatever the outcome, an attempt that is no longer current reports nothing but its obsolescence.
  if (E.isLeft(result)) return gate.isCurrent(ticket) ? result : obsolete;
  return gate.complete(ticket) ? result : obsolete;
}
