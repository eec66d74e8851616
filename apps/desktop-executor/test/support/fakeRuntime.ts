/**
 * A scripted stand-in for the supervisor's app-server, for unit tests of the task runtime: every request
 * is recorded with the process it went to, answers come at once unless the test holds them, and a
 * restart swaps in a new process. Only what the task runtime calls is there.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Turn } from '@wework/codex-protocol';
import { ClientError, type ClientError as ClientErrorValue } from '@wework/app-server-client';
import { runtimeErrorOf, type LocalRuntime, type ThreadHandle, type TurnCallParams } from '../../src/runtime/LocalRuntime.js';
import type { RuntimeSupervisor } from '../../src/runtime/RuntimeSupervisor.js';

/** One request as the fake app-server got it. */
export interface FakeRequest {
  /** Which process: 1 for the first, one more after each restart. */
  readonly server: number;
  readonly method: string;
  readonly threadId: string | undefined;
}

/** A request the test holds back; `release` lets its answer through. */
export interface Held {
  /** Resolves once the request has been sent. */
  readonly sent: Promise<void>;
  release(): void;
}

export interface FakeRuntime {
  /** Give this to `taskRuntime` as its `runtime`. */
  readonly supervisor: RuntimeSupervisor;
  readonly requests: FakeRequest[];
  /** The next request of `method` for `threadId` waits until released. */
  hold(method: string, threadId: string): Held;
  /** Every later request of `method` is answered with a Codex error (`thread/resume` too). */
  fail(method: string): ClientErrorValue;
  /** Answers `method` again (undoes `fail`). */
  heal(method: string): void;
  /** Every later turn ends with `status` (default `completed`). */
  endTurnsAs(status: Turn['status']): void;
  /** The params each `turn/start` carried, in order. */
  readonly turnParams: Array<{ readonly threadId: string; readonly params: TurnCallParams | undefined }>;
  /** A new app-server process takes over (the old one's held requests still answer when released). */
  restart(): void;
  /** The requests of `method`, as `[server, threadId]`. */
  sentOf(method: string): Array<readonly [number, string | undefined]>;
}

const threadIdOf = (params: unknown): string | undefined =>
  typeof params === 'object' && params !== null && 'threadId' in params && typeof params.threadId === 'string' ? params.threadId : undefined;

const endedTurn = (id: string, status: Turn['status']): Turn => ({ id, rootTurnId: id, items: [], itemsView: 'summary', status, error: null, startedAt: 0, completedAt: 0, durationMs: 0 });

/** Answers of the request methods the task runtime sends through the client. */
const answers: Readonly<Record<string, unknown>> = {
  'thread/unsubscribe': { status: 'unsubscribed' },
  'thread/archive': {},
};

export function fakeRuntime(): FakeRuntime {
  const requests: FakeRequest[] = [];
  const holds: Array<{ readonly method: string; readonly threadId: string; readonly sent: () => void; readonly released: Promise<void> }> = [];
  const failures = new Map<string, ClientErrorValue>();
  let server = 1;
  let threads = 0;
  let turns = 0;
  let turnStatus: Turn['status'] = 'completed';
  const turnParams: Array<{ readonly threadId: string; readonly params: TurnCallParams | undefined }> = [];

  const record = (method: string, threadId: string | undefined): Promise<void> => {
    requests.push({ server, method, threadId });
    const index = holds.findIndex((hold) => hold.method === method && hold.threadId === threadId);
    if (index < 0) return Promise.resolve();
    const [hold] = holds.splice(index, 1);
    hold?.sent();
    return hold?.released ?? Promise.resolve();
  };

  const handle = (threadId: string): ThreadHandle => ({ threadId, activePermissionProfile: null, model: 'fake-model', modelProvider: 'fake', cwd: '/workspace' });

  const processOf = (): LocalRuntime => {
    const client = {
      request: async (descriptor: { readonly method: string }, params: unknown): Promise<E.Either<ClientErrorValue, unknown>> => {
        await record(descriptor.method, threadIdOf(params));
        const failure = failures.get(descriptor.method);
        return failure === undefined ? E.right(answers[descriptor.method] ?? {}) : E.left(failure);
      },
    };
    const runtime = {
      instance: server,
      server: { client },
      startThread: async () => {
        threads += 1;
        const threadId = `thr_${threads}`;
        await record('thread/start', threadId);
        return E.right(handle(threadId));
      },
      forkThread: async () => {
        threads += 1;
        const threadId = `thr_${threads}`;
        await record('thread/fork', threadId);
        return E.right(handle(threadId));
      },
      resumeThread: async (threadId: string) => {
        await record('thread/resume', threadId);
        const failure = failures.get('thread/resume');
        return failure === undefined ? E.right(handle(threadId)) : E.left(runtimeErrorOf('thread/resume', failure));
      },
      runTurn: async (threadId: string, _input: unknown, params?: TurnCallParams, onStarted?: (turnId: string) => void) => {
        turns += 1;
        turnParams.push({ threadId, params });
        await record('turn/start', threadId);
        onStarted?.(`turn_${turns}`);
        return E.right(endedTurn(`turn_${turns}`, turnStatus));
      },
      stopTurn: async (threadId: string) => {
        await record('turn/interrupt', threadId);
      },
    };
    // The task runtime uses only the members above.
    return runtime as unknown as LocalRuntime;
  };

  let current = processOf();
  const supervisor = { current: () => current } as unknown as RuntimeSupervisor;

  return {
    supervisor,
    requests,
    hold: (method, threadId) => {
      let sent: () => void = () => undefined;
      let release: () => void = () => undefined;
      const sentPromise = new Promise<void>((resolve) => (sent = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ method, threadId, sent, released });
      return { sent: sentPromise, release: () => release() };
    },
    fail: (method) => {
      const error = ClientError.requestFailed(method, -32600, `${method} refused`);
      failures.set(method, error);
      return error;
    },
    heal: (method) => void failures.delete(method),
    endTurnsAs: (status) => void (turnStatus = status),
    turnParams,
    restart: () => {
      server += 1;
      current = processOf();
    },
    sentOf: (method) => requests.filter((request) => request.method === method).map((request) => [request.server, request.threadId] as const),
  };
}
