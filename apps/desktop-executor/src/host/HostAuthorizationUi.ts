/**
 * Connector logins shown to the host: `@wework/local-auth` presents a login session (QR code, browser
 * step); every state goes to the hosts as an `auth/session` notification, and the host closes it with
 * `auth/cancel`, which terminates the login process. Session ids are opaque to the host.
 */
import type { AuthorizationRequest, AuthorizationUi, LoginSession, LoginState } from '@wework/local-auth';
import { AuthSessionNotification } from '@wework/host-protocol';

/** What a host sees of a login state: no bridge output beyond the QR payload and a message. */
function visibleState(state: LoginState): object {
  switch (state.state) {
    case 'waiting_scan':
      return { state: 'waiting_scan', qr: { payload: state.qr.payload } };
    case 'ok':
      return { state: 'ok', account: state.account ?? null };
    case 'error':
      return { state: 'error', message: 'message' in state.error && typeof state.error.message === 'string' ? state.error.message : state.error._tag };
    default:
      return { state: state.state };
  }
}

/** The login UI over the host connections. */
export interface HostAuthorizations {
  readonly ui: AuthorizationUi;
  /** Cancels an open session; false when there is none with that id. */
  cancel(sessionId: string): boolean;
}

/** Shows connector logins to the hosts through `broadcast`. */
export function hostAuthorizations(broadcast: (method: string, params: object) => void): HostAuthorizations {
  const open = new Map<string, LoginSession>();
  const present = (session: LoginSession, request: AuthorizationRequest): void => {
    const sessionId = `${request.pluginKey}/${request.connectorSlug}#${session.generation}`;
    open.set(sessionId, session);
    const announce = (state: LoginState): void => {
      broadcast(AuthSessionNotification.method, { sessionId, pluginKey: request.pluginKey, connectorSlug: request.connectorSlug, reason: request.reason, type: session.type, ...visibleState(state) });
      if (state.state === 'ok' || state.state === 'error' || state.state === 'cancelled') open.delete(sessionId);
    };
    announce(session.current());
    session.subscribe(announce);
  };
  return {
    ui: { present },
    cancel: (sessionId) => {
      const session = open.get(sessionId);
      if (session === undefined) return false;
      session.cancel();
      return true;
    },
  };
}
