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
import {
  AccountsAdd,
  AccountsCancel,
  AccountsList,
  AccountsSwitch,
  AuthCancel,
  AuthRecover,
  decodeHostParams,
  ExecutorInfo,
  HostErrorCode,
  LoginCompletedNotification,
  MessageSend,
  ModelsList,
  PluginsInstall,
  PluginsList,
  PluginsUninstall,
  SettingsRead,
  SettingsWrite,
  SupervisionClearModel,
  SupervisionInspect,
  SupervisionSetModel,
  TaskArchive,
  TaskCreate,
  TaskFork,
  TaskList,
  TaskOpen,
  TaskStop,
  type HostRequests,
} from '@wework/host-protocol';
import type { HostSession, HostSessions } from './HostSessions.js';

type Descriptor = (typeof HostRequests)[keyof typeof HostRequests];

/** Registers the host methods on `connection` and starts listening; resolves when the connection closes. */
export function serveHostConnection(connection: MessageConnection, api: ExecutorApi, sessions: HostSessions, log: ExecutorLog): Promise<void> {
  const session: HostSession = sessions.add(connection);

  const handlers = new Map<string, (raw: unknown) => Promise<unknown>>();
  /** Serves one method: its params decoded with the protocol's codec, its result typed by the protocol's result codec. */
  const handle = <D extends Descriptor>(descriptor: D, run: (params: t.TypeOf<D['params']>) => Promise<E.Either<HostFailure, t.TypeOf<D['result']>>>): void => {
    const { method } = descriptor;
    handlers.set(method, async (raw: unknown) => {
      const decoded = decodeHostParams(descriptor, raw);
      if (E.isLeft(decoded)) {
        log({ event: 'host request refused', fields: { method, reason: 'invalid params' } });
        return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: ${decoded.left.message}`);
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

  handle(ExecutorInfo, () => api.info());
  handle(TaskCreate, (params) => api.createTask(params));
  handle(TaskOpen, (params) => api.openTask(params));
  handle(TaskList, () => api.listTasks());
  handle(MessageSend, (params) => {
    // The sender of a task's message receives its cards (owners are kept by task, so a replacing thread keeps them).
    if (api.taskThread(params.taskId) !== undefined) sessions.claimTask(params.taskId, session);
    return api.send(params);
  });
  handle(TaskStop, (params) => api.stop(params));
  handle(TaskArchive, (params) => api.archive(params));
  handle(TaskFork, (params) => api.fork(params));
  handle(ModelsList, () => api.listModels());
  handle(AccountsList, () => api.listAccounts());
  handle(AccountsAdd, () => api.addAccount((outcome) => void connection.sendNotification(LoginCompletedNotification.method, outcome).catch(() => undefined)));
  handle(AccountsCancel, (params) => api.cancelLogin(params));
  handle(AccountsSwitch, (params) => api.switchAccount(params));
  handle(SettingsRead, () => api.readSettings());
  handle(SettingsWrite, (params) => api.writeSettings(params));
  handle(PluginsList, () => api.listPlugins());
  handle(PluginsInstall, (params) => api.installPlugin(params));
  handle(PluginsUninstall, (params) => api.uninstallPlugin(params));
  handle(AuthCancel, (params) => api.cancelAuthorization(params));
  handle(AuthRecover, (params) => api.recoverAuthorization(params));
  handle(SupervisionSetModel, (params) => api.setSupervisionModel(params));
  handle(SupervisionClearModel, () => api.clearSupervisionModel());
  handle(SupervisionInspect, (params) => api.inspect(params));

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
