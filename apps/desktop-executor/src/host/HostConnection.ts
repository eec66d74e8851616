/**
 * Serves one host over a JSON-RPC connection: every request's params are decoded with the protocol's
 * codecs (invalid → `-32602` with the field and the expected type, never the value), the method's handler
 * (keyed by wire method, `handlers/ExecutorHandlers.ts`) answers with the connection's session as its
 * context, and typed errors become error replies with the executor's codes and `data` (`HostErrorData`). A handler that throws or rejects gets
 * `-32603` (without the error's text); an unknown method `-32601` (vscode-jsonrpc). Messages reach these
 * handlers only through the guard of the transports (`GuardedConnection.ts`).
 */
import * as E from 'fp-ts/lib/Either.js';
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Log } from '@wework/ports';
import { decodeHostParams, HostErrorCode, hostErrorData, HostRequests, type HostErrorData, type HostFailure, type HostHandler, type HostHandlers, type HostMethod, type HostParamsOf } from '@wework/host-protocol';
import type { HostCall } from './handlers/HandlerKit.js';
import type { HostSession, HostSessions } from './HostSessions.js';

/**
 * Registers the host methods on `connection` and starts listening; resolves when the connection closes.
 * `answered` is told after each request's answer was handed to the connection.
 */
export function serveHostConnection(connection: MessageConnection, handlers: HostHandlers<HostCall>, sessions: HostSessions, log: Log, answered: () => void = () => undefined): Promise<void> {
  const session: HostSession = sessions.add(connection);
  const call: HostCall = { session };

  /** Serves one method: its params decoded with the protocol's codec, its result typed by the protocol's result codec. */
  const serve = async <M extends HostMethod>(method: M, raw: unknown): Promise<unknown> => {
    const decoded = decodeHostParams(HostRequests[method], raw);
    if (E.isLeft(decoded)) {
      log({ event: 'host request refused', fields: { method, reason: 'invalid params' } });
      return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: ${decoded.left.message}`, { tag: decoded.left._tag } satisfies HostErrorData);
    }
    let result: E.Either<HostFailure, unknown>;
    try {
      result = await (handlers[method] as HostHandler<M, HostCall>)(decoded.right as HostParamsOf<M>, call);
    } catch (error) {
      // A handler that throws is a defect: the host still gets one answer, without the error's text.
      log({ event: 'host request failed', fields: { method, error: error instanceof Error ? error.name : typeof error } });
      return new ResponseError(HostErrorCode.InternalError, `the executor failed while handling ${method}`, { tag: 'InternalError' } satisfies HostErrorData);
    }
    if (E.isLeft(result)) return new ResponseError(result.left.code, result.left.message, hostErrorData(result.left));
    return result.right;
  };
  const isHostMethod = (method: string): method is HostMethod => Object.prototype.hasOwnProperty.call(HostRequests, method);

  // One entry for every request, so that params by position are refused (vscode-jsonrpc would spread them
  // into the handler's arguments) and an unknown method is answered without echoing its name.
  connection.onRequest((method: string, raw: unknown) => {
    if (!isHostMethod(method)) return new ResponseError(HostErrorCode.MethodNotFound, 'no such method in the host protocol', { tag: 'MethodNotFound' } satisfies HostErrorData);
    if (Array.isArray(raw)) return new ResponseError(HostErrorCode.InvalidParams, `invalid params for ${method}: params must be an object`, { tag: 'InvalidHostParams' } satisfies HostErrorData);
    return serve(method, raw).finally(answered);
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
