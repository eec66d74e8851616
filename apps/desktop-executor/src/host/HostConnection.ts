/**
 * Serves one host over a JSON-RPC connection: every request's params are decoded with the protocol's
 * codecs (invalid → `-32602` with the field and what was expected), the API answers, and typed errors
 * become error replies with the executor's codes. A handler that throws gets `-32603`; an unknown method
 * `-32601` (vscode-jsonrpc). Nothing a host sends can crash the executor.
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

  const handle = <M extends Method>(method: M, run: (params: t.TypeOf<(typeof HostParams)[M]>) => Promise<E.Either<HostFailure, unknown>>): void => {
    connection.onRequest(method, async (raw: unknown) => {
      const decoded = (HostParams[method] as t.Type<t.TypeOf<(typeof HostParams)[M]>, unknown, unknown>).decode(raw ?? {});
      if (E.isLeft(decoded)) {
        log({ event: 'host request refused', fields: { method, reason: 'invalid params' } });
        return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: ${describeDecodeErrors(decoded.left)}`);
      }
      const result = await run(decoded.right);
      if (E.isLeft(result)) return new ResponseError(result.left.code, result.left.message, { tag: result.left.tag, ...(result.left.retryable === undefined ? {} : { retryable: result.left.retryable }) });
      return result.right;
    });
  };

  handle(HostMethod.ExecutorInfo, () => api.info());
  handle(HostMethod.TaskCreate, (params) => api.createTask(params));
  handle(HostMethod.TaskOpen, (params) => api.openTask(params));
  handle(HostMethod.TaskList, () => api.listTasks());
  handle(HostMethod.MessageSend, (params) => {
    const task = api.taskThread(params.taskId);
    if (task !== undefined) sessions.claimThread(task, session);
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
