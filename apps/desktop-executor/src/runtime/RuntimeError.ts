/**
 * What can go wrong in the executor's local runtime, as one `_tag`ged union, its description for a
 * person, and how a failed app-server request becomes one: the app-server gone (restarting or failed),
 * a request that got no answer in time, and Codex's own "overloaded" answer are told apart from a plain
 * refusal. Every function here is pure.
 */
import { ClientError, describeClientErrorCategory, describeMcpStartupError, type AppServerClient, type McpStartupError } from '@wework/app-server-client';
import type { RuntimeFault } from '@wework/host-errors';

/** Describes a {@link RuntimeFault} for a person. */
export function describeRuntimeError(error: RuntimeFault): string {
  switch (error._tag) {
    case 'AppServerDidNotStart':
      return `codex app-server did not start: ${error.reason}`;
    case 'PluginsNotReady':
      return error.reason;
    case 'RequestFailed':
      return `${error.method} failed: ${error.reason}`;
    case 'TurnDidNotFinish':
      return `the turn did not finish: ${error.reason}`;
    case 'RuntimeUnavailable':
      return `codex app-server is not available: ${error.reason}`;
    case 'RuntimeTimedOut':
      return `${error.method} got no answer from codex app-server within ${error.timeoutMs} ms`;
    case 'Overloaded':
      return `codex app-server is overloaded and refused ${error.method}; try again shortly`;
    case 'TooManyWaiting':
      return `codex app-server is restarting and ${error.limit} requests wait for it already; send it again once runtime/status says ready`;
  }
}

/**
 * The runtime error of a failed app-server request: the connection's end (the process exited, the
 * connection closed, or its stream failed) is `RuntimeUnavailable` (retryable: the supervisor restarts
 * the app-server), a timeout `RuntimeTimedOut`, Codex's overload
 * answer `Overloaded`, anything else `RequestFailed`. Its reason is the failure's category (method, wire code,
 * kind), never Codex's or the OS's own text: a runtime error reaches hosts, and that text may carry paths.
 */
export function runtimeErrorOf(method: string, error: ClientError): RuntimeFault {
  switch (error._tag) {
    // A failed stream (EPIPE when the app-server was killed as the request was written) is the same end
    // of the connection, seen from the writing side.
    case 'ProcessExited':
    case 'ConnectionClosed':
    case 'Disposed':
    case 'TransportError':
      return { _tag: 'RuntimeUnavailable', reason: describeClientErrorCategory(error), retryable: true };
    case 'RequestTimedOut':
      return { _tag: 'RuntimeTimedOut', method, timeoutMs: error.timeoutMs };
    case 'Overloaded':
      return { _tag: 'Overloaded', method };
    default:
      return { _tag: 'RequestFailed', method, reason: describeClientErrorCategory(error) };
  }
}

/**
 * The runtime error of plugins that did not become ready after `thread/start` or a resume: the app-server
 * connection ending under the wait is the same retryable `RuntimeUnavailable` as a request failing that
 * way (`ended`, the client's end when known); a timeout, a failed server or a dropped wait is `PluginsNotReady`.
 */
export function pluginStartupErrorOf(error: McpStartupError, ended: AppServerClient['terminalError']): RuntimeFault {
  return error._tag === 'McpStartupAbandoned' && error.cause === 'ClientEnded'
    ? runtimeErrorOf('mcpServer/startupStatus/updated', ended ?? ClientError.connectionClosed())
    : { _tag: 'PluginsNotReady', reason: describeMcpStartupError(error) };
}
