/**
 * Serves one host over a JSON-RPC connection: every request's params are decoded with the protocol's
 * codecs (invalid → `-32602` with the field and the expected type, never the value), the API answers,
 * and typed errors become error replies with the executor's codes. A handler that throws or rejects gets
 * `-32603` (without the error's text); an unknown method `-32601` (vscode-jsonrpc). Messages reach these
 * handlers only through the guard of the transports (`GuardedConnection.ts`).
 */
import * as E from 'fp-ts/lib/Either.js';
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import type { ExecutorApi, HostFailure } from './ExecutorApi.js';
import {
  decodeHostParams,
  HostErrorCode,
  HostRequests,
  LoginCompletedNotification,
  type HostMethod,
  type HostParamsOf,
  type HostResultOf,
} from '@wework/host-protocol';
import type { HostSession, HostSessions } from './HostSessions.js';

/** One host method's handler: its decoded params in, its result (or a typed failure) out. */
type Handler<M extends HostMethod> = (params: HostParamsOf<M>) => Promise<E.Either<HostFailure, HostResultOf<M>>>;

/** A handler for every method of the host protocol: a method added to `@wework/host-protocol` fails to compile here until it is served. */
export type HostHandlers = { readonly [M in HostMethod]: Handler<M> };

/** The executor's answer to every host method, for one host session. */
function hostHandlers(api: ExecutorApi, sessions: HostSessions, session: HostSession): HostHandlers {
  return {
    'executor/info': () => api.info(),
    'task/create': (params) => api.createTask(params),
    'task/open': (params) => api.openTask(params),
    'task/list': () => api.listTasks(),
    'message/send': (params) => {
      // The sender of a task's message receives its cards (owners are kept by task, so a replacing thread keeps them).
      if (api.taskThread(params.taskId) !== undefined) sessions.claimTask(params.taskId, session);
      return api.send(params);
    },
    'task/stop': (params) => api.stop(params),
    'task/archive': (params) => api.archive(params),
    'task/fork': (params) => api.fork(params),
    'models/list': () => api.listModels(),
    'accounts/list': () => api.listAccounts(),
    // Part of the event stream (with its `seq`), so a host that reconnects still learns the outcome.
    'accounts/add': () => api.addAccount((outcome) => sessions.broadcast(LoginCompletedNotification.method, outcome)),
    'accounts/cancel': (params) => api.cancelLogin(params),
    'accounts/switch': (params) => api.switchAccount(params),
    'settings/read': () => api.readSettings(),
    'settings/write': (params) => api.writeSettings(params),
    'plugins/list': () => api.listPlugins(),
    'plugins/install': (params) => api.installPlugin(params),
    'plugins/uninstall': (params) => api.uninstallPlugin(params),
    'auth/cancel': (params) => api.cancelAuthorization(params),
    'auth/recover': (params) => api.recoverAuthorization(params),
    'supervision/setModel': (params) => api.setSupervisionModel(params),
    'supervision/clearModel': () => api.clearSupervisionModel(),
    'supervision/inspect': (params) => api.inspect(params),
    'marketplaces/list': () => api.listMarketplaces(),
    'marketplaces/add': (params) => api.addMarketplace(params),
    'marketplaces/remove': (params) => api.removeMarketplace(params),
    'marketplaces/reorder': (params) => api.reorderMarketplaces(params),
    'marketplaces/refresh': (params) => api.refreshMarketplace(params),
    'plugins/catalog': (params) => api.readCatalog(params),
    'plugins/read': (params) => api.readPlugin(params),
    'plugins/installed': () => api.installedPlugins(),
    'plugins/setEnabled': (params) => api.setPluginEnabled(params),
    'skills/setEnabled': (params) => api.setSkillEnabled(params),
    'skills/list': (params) => api.listSkills(params),
    'skills/read': (params) => api.readSkill(params),
    'apps/setEnabled': (params) => api.setAppEnabled(params),
    'integrations/apps/read': () => api.readRemoteApps(),
    'integrations/apps/write': (params) => api.writeRemoteApps(params),
    'plugins/trial': (params) => api.tryPlugin(params),
    'plugins/retryUpdate': (params) => api.retryUpdate(params),
    'events/subscribe': (params) => Promise.resolve(E.right(sessions.subscribe(session, params.after))),
    'events/unsubscribe': () => Promise.resolve(E.right((sessions.unsubscribe(session), {}))),
    'cards/pending': () => Promise.resolve(E.right({ cards: sessions.pendingCards(session) })),
    'runtime/setWegentToken': (params) => api.setWegentToken(params),
    'runtime/clearWegentToken': () => api.clearWegentToken(),
  };
}

/** Registers the host methods on `connection` and starts listening; resolves when the connection closes. */
export function serveHostConnection(connection: MessageConnection, api: ExecutorApi, sessions: HostSessions, log: ExecutorLog): Promise<void> {
  const session: HostSession = sessions.add(connection);
  const table = hostHandlers(api, sessions, session);

  /** Serves one method: its params decoded with the protocol's codec, its result typed by the protocol's result codec. */
  const serve = async <M extends HostMethod>(method: M, raw: unknown): Promise<unknown> => {
    const decoded = decodeHostParams(HostRequests[method], raw);
    if (E.isLeft(decoded)) {
      log({ event: 'host request refused', fields: { method, reason: 'invalid params' } });
      return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: ${decoded.left.message}`);
    }
    let result: E.Either<HostFailure, unknown>;
    try {
      result = await (table[method] as Handler<M>)(decoded.right as HostParamsOf<M>);
    } catch (error) {
      // A handler that throws is a defect: the host still gets one answer, without the error's text.
      log({ event: 'host request failed', fields: { method, error: error instanceof Error ? error.name : typeof error } });
      return new ResponseError(HostErrorCode.InternalError, `the executor failed while handling ${method}`, { tag: 'InternalError' });
    }
    if (E.isLeft(result)) return new ResponseError(result.left.code, result.left.message, { tag: result.left.tag, ...(result.left.retryable === undefined ? {} : { retryable: result.left.retryable }) });
    return result.right;
  };
  const isHostMethod = (method: string): method is HostMethod => Object.prototype.hasOwnProperty.call(HostRequests, method);

  // One entry for every request, so that params by position are refused (vscode-jsonrpc would spread them
  // into the handler's arguments) and an unknown method is answered without echoing its name.
  connection.onRequest((method: string, raw: unknown) => {
    if (!isHostMethod(method)) return new ResponseError(HostErrorCode.MethodNotFound, 'no such method in the host protocol');
    if (Array.isArray(raw)) return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: params must be an object`);
    return serve(method, raw);
  });

  const closed = new Promise<void>((resolve) => {
    connection.onClose(() => {
      sessions.remove(session);
      log({ event: 'host disconnected', fields: { session: session.id } });
      resolve();
    });
  });
  connection.listen();
  log({ event: 'host connected', fields: { session: session.id } });
  return closed;
}
