/**
 * How a failed app-server request reaches the host: the connection's end (also a write that failed
 * with EPIPE as the app-server was killed) is RuntimeUnavailable
 * (-32012, retryable), a timeout RuntimeTimedOut (-32013), Codex's overload answer Overloaded (-32011,
 * retryable), anything else RuntimeFailed (-32004); and the reply while no app-server runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientError, describeMcpStartupError, type ClientError as ClientErrorValue, type McpStartupError } from '@wework/app-server-client';
import { runtimeFailure } from '@wework/host-errors';
import { HostErrorCode } from '@wework/host-protocol';
import { pluginStartupErrorOf, runtimeErrorOf } from '../src/runtime/RuntimeError.js';
import { unavailable } from '../src/runtime/RuntimeSupervisor.js';

const text = fc.string({ maxLength: 40 });
const clientError: fc.Arbitrary<ClientErrorValue> = fc.oneof(
  fc.tuple(text, fc.integer(), text).map(([method, code, message]) => ClientError.requestFailed(method, code, message)),
  fc.tuple(text, fc.integer({ min: 1, max: 600_000 })).map(([method, ms]) => ClientError.requestTimedOut(method, ms)),
  fc.tuple(text, text).map(([method, message]) => ClientError.overloaded(method, message)),
  fc.tuple(text, text).map(([method, message]) => ClientError.decodeFailed(method, message)),
  fc.tuple(text, text).map(([method, message]) => ClientError.encodeFailed(method, message)),
  fc.constant(ClientError.connectionClosed()),
  fc.tuple(fc.option(fc.integer()), fc.option(fc.constantFrom('SIGKILL', 'SIGTERM')), text).map(([code, signal, tail]) => ClientError.processExited(code, signal, tail)),
  fc.constant(ClientError.disposed()),
  text.map((message) => ClientError.transportError(message)),
);

const expectedCode = (error: ClientErrorValue): number => {
  switch (error._tag) {
    case 'ProcessExited':
    case 'ConnectionClosed':
    case 'Disposed':
    case 'TransportError':
      return HostErrorCode.RuntimeUnavailable;
    case 'RequestTimedOut':
      return HostErrorCode.RuntimeTimedOut;
    case 'Overloaded':
      return HostErrorCode.Overloaded;
    default:
      return HostErrorCode.RuntimeFailed;
  }
};

/** Text Codex or the OS writes into an error: a path, or a marker standing for anything else it carries. */
const foreign = fc.oneof(fc.constantFrom('/home/ada/.wework/codex/config.toml', 'C:\\Users\\ada\\auth.json', 'echo-marker-Qz7vX3'), fc.string({ minLength: 1, maxLength: 8 }).map((s) => `/tmp/${s}/`));
const foreignError: fc.Arbitrary<ClientErrorValue> = fc.oneof(
  foreign.map((message) => ClientError.requestFailed('config/read', -32603, message)),
  foreign.map((message) => ClientError.encodeFailed('config/batchWrite', message)),
  foreign.map((message) => ClientError.overloaded('thread/start', message)),
  foreign.map((message) => ClientError.transportError(message)),
  foreign.map((tail) => ClientError.processExited(1, null, tail)),
);

describe('runtime errors at the host', () => {
  it('property: a host error never carries Codex\'s or the OS\'s own text (no path, nothing foreign), only its category', () => {
    fc.assert(
      fc.property(foreignError, (error) => {
        const failure = runtimeFailure(runtimeErrorOf('config/read', error));
        for (const value of Object.values(error)) if (typeof value === 'string' && value.length > 3 && !['config/read', 'config/batchWrite', 'thread/start'].includes(value) && value !== error._tag) expect(failure.message).not.toContain(value);
        expect(failure.message).not.toMatch(/\/(home|tmp)\/|\\Users/);
      }),
    );
  });

  it('property: every client error maps to its host code; the retryable ones say so', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), clientError, (method, error) => {
        const failure = runtimeFailure(runtimeErrorOf(method, error));
        expect(failure.code).toBe(expectedCode(error));
        expect(failure.retryable === true).toBe(failure.code !== HostErrorCode.RuntimeFailed);
        // The stderr tail of an exited process never reaches the reply.
        if (error._tag === 'ProcessExited' && error.stderrTail.length > 3) expect(failure.message).not.toContain(error.stderrTail);
      }),
    );
  });

  it('property: plugins abandoned because the app-server connection ended are the retryable RuntimeUnavailable; every other startup error is PluginsNotReady', () => {
    const names = fc.array(fc.constantFrom('forms', 'notes', 'chat'), { minLength: 1, maxLength: 3 });
    const startupError: fc.Arbitrary<McpStartupError> = fc.oneof(
      fc.tuple(names, fc.integer({ min: 1, max: 60_000 })).map(([pending, timeoutMs]) => ({ _tag: 'McpServersNotReady' as const, pending, timeoutMs })),
      names.map((failed) => ({ _tag: 'McpServersFailed' as const, failed: failed.map((name) => ({ threadId: null, name, environmentId: null, status: 'failed' as const, error: null, failureReason: null })) })),
      fc.tuple(names, fc.constantFrom('ClientEnded' as const, 'Disposed' as const)).map(([pending, cause]) => ({ _tag: 'McpStartupAbandoned' as const, pending, cause })),
    );
    const ended = fc.option(fc.constantFrom(ClientError.connectionClosed(), ClientError.processExited(null, 'SIGKILL', 'tail'), ClientError.disposed()), { nil: undefined });
    fc.assert(
      fc.property(startupError, ended, (error, terminal) => {
        const fault = pluginStartupErrorOf(error, terminal);
        if (error._tag === 'McpStartupAbandoned' && error.cause === 'ClientEnded') {
          expect(runtimeFailure(fault)).toMatchObject({ code: HostErrorCode.RuntimeUnavailable, tag: 'RuntimeUnavailable', retryable: true });
        } else {
          expect(fault).toEqual({ _tag: 'PluginsNotReady', reason: describeMcpStartupError(error) });
        }
      }),
    );
  });

  it('while restarting the reply is retryable; after failed it is not, and names the reason', () => {
    const status = { reason: 'the app-server exited (code null, signal SIGKILL)', exitCode: null, signal: 'SIGKILL', stderrTail: null, crashes: 1, retryInMs: 500, pid: null } as const;
    expect(runtimeFailure(unavailable({ ...status, state: 'restarting' }))).toMatchObject({ code: -32012, tag: 'RuntimeUnavailable', retryable: true });
    const failed = runtimeFailure(unavailable({ ...status, state: 'failed', crashes: 5, retryInMs: null }));
    expect(failed).toMatchObject({ code: -32012, tag: 'RuntimeUnavailable', retryable: false });
    expect(failed.message).toContain('signal SIGKILL');
  });
});
