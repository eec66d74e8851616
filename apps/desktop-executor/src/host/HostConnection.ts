/**
 * Serves one host over a JSON-RPC connection: every request's params are decoded with the protocol's
 * codecs (invalid → `-32602` with the field and the expected type, never the value), the API answers,
 * and typed errors become error replies with the executor's codes. A handler that throws or rejects gets
 * `-32603` (without the error's text); an unknown method `-32601` (vscode-jsonrpc). Messages reach these
 * handlers only through the guard of the transports (`GuardedConnection.ts`).
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import type { ExecutorLog } from '../runtime/ExecutorLog.js';
import type { ExecutorApi, HostFailure } from './ExecutorApi.js';
import { ExecutorNotification, HostErrorCode, HostMethod, HostParams, describeDecodeErrors } from './HostProtocol.js';
import type { HostSession, HostSessions } from './HostSessions.js';

type Method = keyof typeof HostParams;

/** Registers the host methods on `connection` and starts listening; resolves when the connection closes. */
export function serveHostConnection(connection: MessageConnection, api: ExecutorApi, sessions: HostSessions, log: ExecutorLog): Promise<void> {
  const session: HostSession = sessions.add(connection);

  const handlers = new Map<string, (raw: unknown) => Promise<unknown>>();
  const handle = <M extends Method>(method: M, run: (params: t.TypeOf<(typeof HostParams)[M]>) => Promise<E.Either<HostFailure, unknown>>): void => {
    handlers.set(method, async (raw: unknown) => {
      const decoded = (HostParams[method] as t.Type<t.TypeOf<(typeof HostParams)[M]>, unknown, unknown>).decode(raw ?? {});
      if (E.isLeft(decoded)) {
        log({ event: 'host request refused', fields: { method, reason: 'invalid params' } });
        return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: ${describeDecodeErrors(decoded.left)}`);
      }
      let result: E.Either<HostFailure, unknown>;
      try {
        result = await run(decoded.right);
      } catch (error) {
        // A handler that throws is a defect: the host still gets one answer, without the error's text.
        log({ event: 'host request failed', fields: { method, error: error instanceof Error ? error.name : typeof error } });
        return new ResponseError(HostErrorCode.InternalError, `the executor failed while handling ${method}`, { tag: 'InternalError' });
      }
      if (E.isLeft(result)) return new ResponseError(result.left.code, result.left.message, { tag: result.left.tag, ...(result.left.retryable === undefined ? {} : { retryable: result.left.retryable }) });
      return result.right;
    });
  };

  handle(HostMethod.ExecutorInfo, () => api.info());
  handle(HostMethod.TaskCreate, (params) => api.createTask(params));
  handle(HostMethod.TaskOpen, (params) => api.openTask(params));
  handle(HostMethod.TaskList, () => api.listTasks());
  handle(HostMethod.MessageSend, (params) => {
    // The sender of a task's message receives its cards (owners are kept by task, so a replacing thread keeps them).
    if (api.taskThread(params.taskId) !== undefined) sessions.claimTask(params.taskId, session);
    return api.send(params);
  });
  handle(HostMethod.TaskStop, (params) => api.stop(params));
  handle(HostMethod.TaskArchive, (params) => api.archive(params));
  handle(HostMethod.TaskFork, (params) => api.fork(params));
  handle(HostMethod.ModelsList, () => api.listModels());
  handle(HostMethod.AccountsList, () => api.listAccounts());
  handle(HostMethod.AccountsAdd, () => api.addAccount((outcome) => void connection.sendNotification(ExecutorNotification.LoginCompleted, outcome).catch(() => undefined)));
  handle(HostMethod.AccountsCancel, (params) => api.cancelLogin(params));
  handle(HostMethod.AccountsSwitch, (params) => api.switchAccount(params));
  handle(HostMethod.SettingsRead, () => api.readSettings());
  handle(HostMethod.SettingsWrite, (params) => api.writeSettings(params));
  handle(HostMethod.PluginsList, () => api.listPlugins());
  handle(HostMethod.PluginsInstall, (params) => api.installPlugin(params));
  handle(HostMethod.PluginsUninstall, (params) => api.uninstallPlugin(params));
  handle(HostMethod.AuthCancel, (params) => api.cancelAuthorization(params));
  handle(HostMethod.AuthRecover, (params) => api.recoverAuthorization(params));
  handle(HostMethod.SupervisionSetModel, (params) => api.setSupervisionModel(params));
  handle(HostMethod.SupervisionClearModel, () => api.clearSupervisionModel());
  handle(HostMethod.SupervisionInspect, (params) => api.inspect(params));

  // One entry for every request, so that params by position are refused (vscode-jsonrpc would spread them
  // into the handler's arguments) and an unknown method is answered without echoing its name.
  connection.onRequest((method: string, raw: unknown) => {
    const handler = handlers.get(method);
    if (handler === undefined) return new ResponseError(HostErrorCode.MethodNotFound, 'no such method in the host protocol');
    if (Array.isArray(raw)) return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: params must be an object`);
    return handler(raw);
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
