/**
 * The harness as the executor's host: starts the desktop executor's serve entry (`serve.js`), talks to
 * it over stdio or over its loopback WebSocket (with the launch token), answers the cards it shows with
 * a scripted policy, and records every message both ways. Plugin authors use it to try their plugin
 * through the real executor, the way the Wework client drives it.
 *
 * It speaks the protocol as documented (docs/host-protocol.md), like any host: it does not import the
 * executor's code, only starts its serve entry, and takes the protocol's methods, params and result codecs
 * from `@wework/host-protocol`. Every result is decoded with its method's codec; one that does not fit is
 * an error reply value (`-32603`, `data.tag: "InvalidHostResult"`), never a value of the wrong shape.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { createMessageConnection, ResponseError, type Message, type MessageConnection } from 'vscode-jsonrpc/node';
import { WebSocket } from 'ws';
import { NewlineMessageReader, NewlineMessageWriter } from '@wework/app-server-client';
import {
  acceptEvent,
  CardShow,
  emptySubscription,
  subscribe as addToSubscription,
  unsubscribe as removeFromSubscription,
  decodeHostNotification,
  decodeHostResult,
  HostErrorCode,
  HostNotifications,
  HostRequests,
  redactHostMessage,
  RuntimeStatusNotification as RuntimeStatusMessage,
  type CardShowParams,
  type HostCard,
  type HostMethod,
  type HostReply,
  type HostResultOf,
  type RuntimeStatus,
} from '@wework/host-protocol';
import { hostWebSocketConnection } from './HostWebSocket.js';

/** A question of a card, in the request_user_input shape. */
export type HostCardQuestion = HostCard['questions'][number];

/** The answer to `card/show`: answers by question id, or cancel / decline (the protocol's `HostReply`). */
export type CardAnswer = HostReply;

export type { HostCard } from '@wework/host-protocol';

/** Which way a message went: from the host to the executor, or back. */
export type HostDirection = 'toExecutor' | 'toHost';

/** One message of the conversation between the host and the executor. */
export interface HostTranscriptEntry {
  readonly direction: HostDirection;
  readonly message: Message;
}

/** How the harness answers the cards: given the card, the answer the user gives. */
export type CardPolicy = (card: HostCard) => CardAnswer | Promise<CardAnswer>;

/** A card policy that picks each question's first option (a free-text question gets `answer`). */
export function firstOptionPolicy(answer = 'yes'): CardPolicy {
  return (card) => ({ answers: Object.fromEntries(card.questions.map((q) => [q.id, { answers: [q.options?.[0]?.label ?? answer] }])) });
}

/** A failed request: the executor's error reply. */
export interface HostRequestError {
  readonly code: number;
  readonly message: string;
  readonly data: unknown;
}

/**
 * A `runtime/status` notification: the executor's app-server changed state (docs/host-protocol.md,
 * "Runtime supervision"). Its params are the protocol's `RuntimeStatus`.
 */
export type RuntimeStatusNotification = RuntimeStatus;

/**
 * The params of a request as a host writes them: the wire form of the protocol's params (a branded value such
 * as a Wegent token is its plain string), where an optional field may
 * also be given as `undefined` (JSON leaves it out, as if absent).
 */
export type HostRequestParams<M extends HostMethod> = OptionalAsUndefined<t.OutputOf<(typeof HostRequests)[M]['params']>>;

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
// Distributes over unions, so each form of a union of params (e.g. `skills/setEnabled`'s `{ path }` or `{ name }`) keeps its own fields.
type OptionalAsUndefined<T> = T extends unknown ? { [K in Exclude<keyof T, OptionalKeys<T>>]: T[K] } & { [K in OptionalKeys<T>]?: T[K] | undefined } : never;

/** Options of {@link startExecutorHost}. */
export interface ExecutorHostOptions {
  readonly transport: 'stdio' | 'websocket';
  /** The executor's home; its Codex home is `<executorHome>/codex` (write config.toml there first to choose the model and plugins). */
  readonly executorHome: string;
  /** HOME of the executor and its app-server. */
  readonly userHome: string;
  readonly workspace: string;
  /** MCP servers the executor waits for before a first turn. */
  readonly waitForPlugins?: ReadonlyArray<string>;
  /** The desktop app's bundled plugin package directories (`--bundled-plugin`), checked and upgraded in the background. */
  readonly bundledPlugins?: ReadonlyArray<string>;
  /** Base environment; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cards: CardPolicy;
  /** The serve entry to run; default the installed `@wework/desktop-executor`'s `dist/serve.js`. */
  readonly servePath?: string;
  /** How long the executor may take to start. Default 60 s. */
  readonly startTimeoutMs?: number;
}

/** A connected executor. */
export interface ExecutorHostClient {
  readonly pid: number;
  /** The WebSocket endpoint, when connected over WebSocket. */
  readonly endpoint: { readonly port: number; readonly token: string } | null;
  /**
   * Sends a request of the protocol; resolves with its result, decoded with the method's result codec, or
   * the executor's error reply (a result that does not decode is answered `-32603`, `data.tag: "InvalidHostResult"`).
   */
  request<M extends HostMethod>(method: M, params: HostRequestParams<M>): Promise<E.Either<HostRequestError, HostResultOf<M>>>;
  /** Every message so far, both ways, in order; credentials in requests' params (`runtime/setWegentToken`'s token, …) read `[redacted]`. */
  readonly transcript: ReadonlyArray<HostTranscriptEntry>;
  /** The cards shown so far. */
  readonly cards: ReadonlyArray<HostCard>;
  /** Notifications received so far (of one method, if given). */
  notifications(method?: string): ReadonlyArray<{ readonly method: string; readonly params: unknown }>;
  /** The `runtime/status` notifications received so far, in order. */
  runtimeStatuses(): ReadonlyArray<RuntimeStatusNotification>;
  /**
   * The notifications of the protocol whose params did not fit their codec (each decoded with
   * `@wework/host-protocol`), by method and place, never by value; empty while the executor keeps to the protocol.
   */
  protocolViolations(): ReadonlyArray<{ readonly method: string; readonly message: string }>;
  /**
   * Resolves with the first notification of `method` (received from now on, or already received when
   * `includePast`) whose params satisfy `match`; rejects after `timeoutMs` (default 60 s).
   */
  nextNotification<P = unknown>(method: string, match?: (params: P) => boolean, options?: { readonly timeoutMs?: number; readonly includePast?: boolean }): Promise<P>;
  /** The executor's stderr (its log). */
  stderr(): string;
  /**
   * The last `seq` of the event stream taken in order (0: none). A notification whose `seq` is not past
   * it is a duplicate: it is recorded in {@link ExecutorHostClient.duplicates} and not in `notifications`.
   */
  lastSeq(): number;
  /** The notifications dropped as duplicates (a `seq` already seen), in arrival order. */
  duplicates(): ReadonlyArray<{ readonly method: string; readonly params: unknown }>;
  /** The `seq`s that arrived past a gap (some before them were missed), in arrival order. */
  gaps(): ReadonlyArray<number>;
  /** Drops the WebSocket connection (the executor keeps running); requests fail until {@link ExecutorHostClient.reconnect}. */
  drop(): Promise<void>;
  /**
   * Opens a new WebSocket connection with the launch token and resumes the stream: `events/subscribe`
   * with `after` (default: {@link ExecutorHostClient.lastSeq}); resolves with its result.
   */
  reconnect(after?: number): Promise<E.Either<HostRequestError, HostResultOf<'events/subscribe'>>>;
  /**
   * Adds a subscriber of this window's one event connection (`SharedSubscription` of
   * `@wework/host-protocol`): the first one sends `events/subscribe` with the cursor; later ones share it.
   */
  addSubscriber(subscriber: string): Promise<void>;
  /** Removes a subscriber; the last one sends `events/unsubscribe` (the cursor is kept for the next subscriber). */
  removeSubscriber(subscriber: string): Promise<void>;
  /** Disconnects and stops the executor (and, with it, its app-server); resolves once it exited. */
  close(): Promise<void>;
}

/** The serve entry of the installed desktop executor. */
export function defaultServePath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json')), 'dist', 'serve.js');
}

function waitForExit(child: ChildProcessWithoutNullStreams, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Stops the executor: over stdio closing its stdin ends it; otherwise SIGTERM, then SIGKILL. */
async function stopChild(child: ChildProcessWithoutNullStreams, viaStdin: boolean): Promise<void> {
  child.stdin.end();
  if (viaStdin && (await waitForExit(child, 5_000))) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, 5_000)) return;
  child.kill('SIGKILL');
  await waitForExit(child, 5_000);
}

/** Connects to a WebSocket endpoint with the token; rejects with the server's refusal (e.g. 401). */
export function openExecutorWebSocket(port: number, auth: { readonly bearer?: string; readonly protocol?: string }): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, auth.protocol === undefined ? [] : [auth.protocol], {
      headers: auth.bearer === undefined ? {} : { authorization: `Bearer ${auth.bearer}` },
    });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      reject(new Error(`the executor refused the connection: ${response.statusCode ?? 'no status'}`));
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

/** Starts the executor and connects to it as its host. */
export async function startExecutorHost(options: ExecutorHostOptions): Promise<ExecutorHostClient> {
  const servePath = options.servePath ?? defaultServePath();
  const args = [servePath, options.transport === 'stdio' ? '--stdio' : '--ws', '--executor-home', options.executorHome, '--workspace', options.workspace];
  for (const name of options.waitForPlugins ?? []) args.push('--wait-for-plugin', name);
  for (const dir of options.bundledPlugins ?? []) args.push('--bundled-plugin', dir);
  const child = spawn(process.execPath, args, { env: { ...(options.env ?? process.env), HOME: options.userHome }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const transcript: HostTranscriptEntry[] = [];
  /** Records a message; a request's credentials (the descriptor's `secrets`) are left out of the transcript. */
  const record = (direction: HostTranscriptEntry['direction'], message: Message): void => void transcript.push({ direction, message: redactHostMessage(message) });
  const cards: HostCard[] = [];
  const notifications: Array<{ readonly method: string; readonly params: unknown }> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let connection: MessageConnection;
  let endpoint: { readonly port: number; readonly token: string } | null = null;
  let socket: WebSocket | null = null;
  try {
    if (options.transport === 'stdio') {
      const reader = new NewlineMessageReader(child.stdout);
      const writer = new NewlineMessageWriter(child.stdin);
      reader.onMessage((message) => record('toHost', { jsonrpc: '2.0', ...message } as Message));
      writer.onWritten((message) => record('toExecutor', message));
      connection = createMessageConnection(reader, writer);
    } else {
      const line = await Promise.race([
        new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
        exited.then(() => Promise.reject(new Error(`the executor exited before listening:\n${stderr}`))),
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`the executor did not listen within the timeout:\n${stderr}`)), options.startTimeoutMs ?? 60_000).unref()),
      ]);
      const announced = JSON.parse(line) as { port: number; token: string };
      endpoint = { port: announced.port, token: announced.token };
      socket = await openExecutorWebSocket(endpoint.port, { bearer: endpoint.token });
      connection = hostWebSocketConnection(socket, (direction, message) => record(direction === 'incoming' ? 'toHost' : 'toExecutor', message));
    }
  } catch (error) {
    await stopChild(child, false);
    throw error;
  }

  const watchers = new Set<(notification: { readonly method: string; readonly params: unknown }) => void>();
  const violations: Array<{ readonly method: string; readonly message: string }> = [];
  const duplicates: Array<{ readonly method: string; readonly params: unknown }> = [];
  const gaps: number[] = [];
  let cursor = 0;
  /** Serves the executor's requests and takes its notifications on `next` (the first connection, or a reconnect's). */
  const wire = (next: MessageConnection): void => {
    next.onRequest(CardShow.method, async (params: CardShowParams) => {
      cards.push(params.card);
      try {
        return await options.cards(params.card);
      } catch (error) {
        return new ResponseError(-32603, error instanceof Error ? error.message : String(error));
      }
    });
    next.onNotification((method: string, params: unknown) => {
      const seq = typeof params === 'object' && params !== null && typeof (params as { seq?: unknown }).seq === 'number' ? (params as { seq: number }).seq : undefined;
      if (seq !== undefined) {
        const verdict = acceptEvent(cursor, seq);
        if (verdict === 'duplicate') return void duplicates.push({ method, params });
        if (verdict === 'gap') gaps.push(seq);
        cursor = seq;
      }
      const descriptor = Object.prototype.hasOwnProperty.call(HostNotifications, method) ? HostNotifications[method as keyof typeof HostNotifications] : undefined;
      const decoded = descriptor === undefined ? undefined : decodeHostNotification(descriptor, params);
      if (decoded !== undefined && E.isLeft(decoded)) violations.push({ method, message: decoded.left.message });
      notifications.push({ method, params });
      for (const watcher of [...watchers]) watcher({ method, params });
    });
    next.listen();
  };
  wire(connection);

  const request = async <M extends HostMethod>(method: M, params: HostRequestParams<M>): Promise<E.Either<HostRequestError, HostResultOf<M>>> => {
    try {
      const raw: unknown = await connection.sendRequest(method, params);
      const decoded = decodeHostResult(HostRequests[method], raw);
      return E.isRight(decoded)
        ? E.right(decoded.right as HostResultOf<M>)
        : E.left({ code: HostErrorCode.InternalError, message: `the executor's result of ${method} does not fit the protocol: ${decoded.left.message}`, data: { tag: decoded.left._tag } });
    } catch (error) {
      if (error instanceof ResponseError) return E.left({ code: error.code, message: error.message, data: error.data });
      return E.left({ code: HostErrorCode.InternalError, message: error instanceof Error ? error.message : String(error), data: null });
    }
  };

  // The window's subscribers of the one event connection; the cursor lives in `cursor` above.
  let subscription = emptySubscription();
  const expectRight = async (answer: Promise<E.Either<HostRequestError, unknown>>, method: string): Promise<void> => {
    const settled = await answer;
    if (E.isLeft(settled)) throw new Error(`${method} failed: ${settled.left.message}`);
  };

  return {
    pid: child.pid ?? -1,
    endpoint,
    request,
    transcript,
    cards,
    notifications: (method) => (method === undefined ? notifications : notifications.filter((n) => n.method === method)),
    runtimeStatuses: () => notifications.filter((n) => n.method === RuntimeStatusMessage.method).map((n) => n.params as RuntimeStatusNotification),
    protocolViolations: () => violations,
    nextNotification: <P>(method: string, match: (params: P) => boolean = () => true, waitOptions: { readonly timeoutMs?: number; readonly includePast?: boolean } = {}) =>
      new Promise<P>((resolve, reject) => {
        if (waitOptions.includePast === true) {
          const past = notifications.find((n) => n.method === method && match(n.params as P));
          if (past !== undefined) return resolve(past.params as P);
        }
        const timer = setTimeout(() => {
          watchers.delete(watcher);
          reject(new Error(`no ${method} notification within the timeout`));
        }, waitOptions.timeoutMs ?? 60_000);
        const watcher = (notification: { readonly method: string; readonly params: unknown }): void => {
          if (notification.method !== method || !match(notification.params as P)) return;
          watchers.delete(watcher);
          clearTimeout(timer);
          resolve(notification.params as P);
        };
        watchers.add(watcher);
      }),
    stderr: () => stderr,
    lastSeq: () => cursor,
    duplicates: () => duplicates,
    gaps: () => gaps,
    drop: async () => {
      if (socket === null) throw new Error('only a WebSocket connection can be dropped');
      const closed = socket.readyState === socket.CLOSED ? Promise.resolve() : new Promise<void>((resolve) => socket?.once('close', () => resolve()));
      socket.terminate();
      await closed;
      connection.dispose();
    },
    reconnect: async (after = cursor) => {
      if (endpoint === null) throw new Error('only a WebSocket connection can reconnect');
      if (socket !== null && socket.readyState !== socket.CLOSED) socket.terminate();
      socket = await openExecutorWebSocket(endpoint.port, { bearer: endpoint.token });
      connection = hostWebSocketConnection(socket, (direction, message) => record(direction === 'incoming' ? 'toHost' : 'toExecutor', message));
      wire(connection);
      return request('events/subscribe', { after });
    },
    addSubscriber: async (subscriber) => {
      const [next, action] = addToSubscription(subscription, subscriber);
      subscription = next;
      if (action === 'open') await expectRight(request('events/subscribe', { after: cursor }), 'events/subscribe');
    },
    removeSubscriber: async (subscriber) => {
      const [next, action] = removeFromSubscription(subscription, subscriber);
      subscription = next;
      if (action === 'close') await expectRight(request('events/unsubscribe', {}), 'events/unsubscribe');
    },
    close: async () => {
      connection.dispose();
      socket?.close();
      await stopChild(child, options.transport === 'stdio');
    },
  };
}
