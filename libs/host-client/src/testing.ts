/**
 * An executor in memory for tests of a host's use of {@link HostClient}: a {@link TransportFactory}
 * whose connections a test opens, answers, feeds and closes by hand, recording what the client sent.
 *
 * Nothing here does IO; time moves only as the test's timers do.
 */
import type { HostTransport, TransportFactory, TransportHandlers } from './Transport.js';
import { connectError } from './Transport.js';

/** A JSON-RPC message the client sent, parsed. */
export type SentMessage = Readonly<Record<string, unknown>>;

/** One connection of a {@link FakeExecutor}, seen from the executor's side. */
export interface FakeConnection {
  /** Everything the client sent on it, in order. */
  readonly sent: ReadonlyArray<SentMessage>;
  /** Whether it is open (opened, and closed by neither side). */
  readonly isOpen: boolean;
  /** Opens it (the client's `onOpen`). */
  open(): void;
  /** Refuses it (the client's `onFailed`), e.g. as a 401 would. */
  refuse(status?: number): void;
  /** Sends a message to the client (as JSON text). */
  send(message: unknown): void;
  /** Sends raw text to the client. */
  sendText(text: string): void;
  /** The requests the client sent (those with a method and an id), of one method if given. */
  requests(method?: string): ReadonlyArray<SentMessage>;
  /** Answers request `id` with `result`. */
  answer(id: unknown, result: unknown): void;
  /** Answers request `id` with an error. */
  answerError(id: unknown, code: number, message: string, data?: unknown): void;
  /** Closes it from the executor's side (a drop). */
  close(): void;
}

/** Options of {@link fakeExecutor}. */
export interface FakeExecutorOptions {
  /** Open each connection as soon as the client asks for it (default `true`). */
  readonly autoOpen?: boolean;
  /** Called for every message the client sends (after it is recorded): answer it here to script the executor. */
  readonly onMessage?: (message: SentMessage, connection: FakeConnection) => void;
}

/** An executor in memory: its transport factory and the connections the client opened. */
export interface FakeExecutor {
  readonly connect: TransportFactory;
  readonly connections: ReadonlyArray<FakeConnection>;
  /** The newest connection; throws when there is none (a test's mistake). */
  latest(): FakeConnection;
}

/**
 * Creates an executor in memory.
 * @example
 * ```ts
 * const executor = fakeExecutor({ onMessage: (m, c) => m['method'] === 'task/list' && c.answer(m['id'], { tasks: [] }) });
 * const client = createHostClient({ connect: executor.connect, resumeOnConnect: false });
 * await client.start();
 * await client.request('task/list', {}); // right({ tasks: [] })
 * ```
 */
export function fakeExecutor(options: FakeExecutorOptions = {}): FakeExecutor {
  const connections: FakeConnection[] = [];
  const connect: TransportFactory = (handlers: TransportHandlers, signal: AbortSignal) => {
    const sent: SentMessage[] = [];
    let state: 'new' | 'open' | 'closed' = 'new';
    const closeBy = (): void => {
      if (state !== 'open') {
        state = 'closed';
        return;
      }
      state = 'closed';
      handlers.onClose('closed');
    };
    const transport: HostTransport = {
      send: (text) => {
        if (state !== 'open') return false;
        const message = JSON.parse(text) as SentMessage;
        sent.push(message);
        options.onMessage?.(message, connection);
        return true;
      },
      close: closeBy,
    };
    const connection: FakeConnection = {
      sent,
      get isOpen() {
        return state === 'open';
      },
      open: () => {
        if (state !== 'new' || signal.aborted) return;
        state = 'open';
        handlers.onOpen(transport);
      },
      refuse: (status = 401) => {
        if (state !== 'new') return;
        state = 'closed';
        handlers.onFailed(connectError('Refused', `the executor refused the connection (HTTP ${status})`, status));
      },
      send: (message) => connection.sendText(JSON.stringify(message)),
      sendText: (text) => {
        if (state === 'open') handlers.onMessage(text);
      },
      requests: (method) => sent.filter((m) => typeof m['method'] === 'string' && 'id' in m && (method === undefined || m['method'] === method)),
      answer: (id, result) => connection.send({ jsonrpc: '2.0', id, result }),
      answerError: (id, code, message, data) => connection.send({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }),
      close: closeBy,
    };
    connections.push(connection);
    if (options.autoOpen ?? true) connection.open();
  };
  return {
    connect,
    connections,
    latest: () => {
      const last = connections.at(-1);
      if (last === undefined) throw new Error('the client opened no connection');
      return last;
    },
  };
}
