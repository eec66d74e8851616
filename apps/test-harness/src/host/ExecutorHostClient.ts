/**
 * The harness as the executor's host: starts the desktop executor's serve entry (`serve.js`), talks to
 * it over stdio or over its loopback WebSocket (with the launch token), answers the cards it shows with
 * a scripted policy, and records every message both ways. Plugin authors use it to try their plugin
 * through the real executor, the way the Wework client drives it.
 *
 * The conversation itself is `@wework/host-client`'s (framing, request ids, decoding by method, the event
 * stream's cursor, cards, reconnects); the harness records what it sees and keeps its own report shapes.
 * A result that does not fit its codec is an error reply value (`-32603`, `data.tag: "InvalidHostResult"`),
 * never a value of the wrong shape.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { describeHostClientError, type HostClientError, type HostEvent } from '@wework/host-client';
import { defaultServePath as installedServePath, openExecutorSocket, spawnExecutor, type ExecutorSocket } from '@wework/host-client/node';
import {
  HostErrorCode,
  RuntimeStatusNotification,
  type Conformance,
  type HostCard,
  type HostMethod,
  type HostNotificationMethod,
  type HostParamsOf,
  type HostReply,
  type HostResultOf,
  type HostRequests,
  type RuntimeStatus,
} from '@wework/host-protocol';
import { recordingConformance, rememberClosedHost } from './SchemaConformance.js';

/** A question of a card, in the request_user_input shape. */
export type HostCardQuestion = HostCard['questions'][number];

/** Which way a message went: from the host to the executor, or back. */
export type HostDirection = 'toExecutor' | 'toHost';

/** A JSON-RPC message as it went over the wire (parsed). */
export type HostWireMessage = { readonly [key: string]: unknown };

/** One message of the conversation between the host and the executor. */
export interface HostTranscriptEntry {
  readonly direction: HostDirection;
  readonly message: HostWireMessage;
}

/** How the harness answers the cards: given the card, the answer the user gives. */
export type CardPolicy = (card: HostCard) => HostReply | Promise<HostReply>;

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
  runtimeStatuses(): ReadonlyArray<RuntimeStatus>;
  /**
   * The notifications of the protocol whose params did not fit their codec (each decoded with
   * `@wework/host-protocol`), by method and place, never by value; empty while the executor keeps to the protocol.
   */
  protocolViolations(): ReadonlyArray<{ readonly method: string; readonly message: string }>;
  /**
   * Whether the conversation so far keeps to the protocol's JSON Schema: every message both ways validates
   * against its definition, and params the executor refused as invalid fail it too (`conformanceOf` of
   * `@wework/host-protocol`). Checked again when the host closes, and remembered for the suite.
   */
  conformance(): Conformance;
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
  const path = installedServePath();
  if (path === null) throw new Error('the desktop executor is not built: run `npx nx run desktop-executor:build`');
  return path;
}

/** Connects to a WebSocket endpoint with the token; rejects with the server's refusal (e.g. 401). */
export async function openExecutorWebSocket(port: number, auth: { readonly bearer?: string; readonly protocol?: string }): Promise<ExecutorSocket> {
  const opened = await openExecutorSocket(port, auth);
  if (E.isLeft(opened)) throw new Error(opened.left.message);
  return opened.right;
}

/** The harness's shape of a failed request: the executor's reply as it came, a local reason as `-32603` with its tag. */
function requestError(error: HostClientError): HostRequestError {
  switch (error._tag) {
    case 'ExecutorError':
      return { code: error.code, message: error.message, data: error.data };
    case 'InvalidResult':
      return { code: HostErrorCode.InternalError, message: describeHostClientError(error), data: { tag: 'InvalidHostResult' } };
    default:
      return { code: HostErrorCode.InternalError, message: error.message, data: { tag: error._tag } };
  }
}

/** Starts the executor and connects to it as its host. */
export async function startExecutorHost(options: ExecutorHostOptions): Promise<ExecutorHostClient> {
  const transcript: HostTranscriptEntry[] = [];
  const cards: HostCard[] = [];
  const notifications: Array<{ readonly method: string; readonly params: unknown }> = [];
  const violations: Array<{ readonly method: string; readonly message: string }> = [];
  const duplicates: Array<{ readonly method: string; readonly params: unknown }> = [];
  const gaps: number[] = [];
  const started = await spawnExecutor({
    transport: options.transport,
    executorHome: options.executorHome,
    workspace: options.workspace,
    userHome: options.userHome,
    ...(options.waitForPlugins === undefined ? {} : { waitForPlugins: options.waitForPlugins }),
    ...(options.bundledPlugins === undefined ? {} : { bundledPlugins: options.bundledPlugins }),
    ...(options.env === undefined ? {} : { env: options.env }),
    servePath: options.servePath ?? defaultServePath(),
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    client: {
      // The harness reconnects when a test says so, and resumes only then.
      reconnect: false,
      resumeOnConnect: false,
      // Requests are recorded as sent, their credentials (the descriptor's `secrets`) redacted by the client.
      tap: (direction, message) => void transcript.push({ direction, message: message as HostWireMessage }),
    },
  });
  if (E.isLeft(started)) {
    const tail = 'stderrTail' in started.left ? `\n${started.left.stderrTail}` : '';
    throw new Error(`${started.left.message}${tail}`);
  }
  const executor = started.right;
  const client = executor.client;
  client.onCard(async (card) => {
    cards.push(card);
    return options.cards(card);
  });
  client.onEvent((event: HostEvent) => void notifications.push({ method: event.method, params: event.params }));
  client.onViolation((violation) => void violations.push({ method: violation.method ?? '(not in the protocol)', message: violation.message }));
  client.onStreamNotice((notice) => {
    if (notice._tag === 'Duplicate') duplicates.push({ method: notice.method, params: notice.params });
    if (notice._tag === 'Gap') gaps.push(notice.seq);
  });

  const request = async <M extends HostMethod>(method: M, params: HostRequestParams<M>): Promise<E.Either<HostRequestError, HostResultOf<M>>> => {
    // The harness writes params in their wire form (optional fields may be `undefined`); the client sends them as given.
    const answer = await client.request(method, params as unknown as HostParamsOf<M>);
    return E.mapLeft(requestError)(answer);
  };
  const expectRight = async (answer: Promise<E.Either<HostClientError, unknown>>, method: string): Promise<void> => {
    const settled = await answer;
    if (E.isLeft(settled)) throw new Error(`${method} failed: ${settled.left.message}`);
  };

  return {
    pid: executor.pid,
    endpoint: executor.endpoint,
    request,
    transcript,
    cards,
    notifications: (method) => (method === undefined ? notifications : notifications.filter((n) => n.method === method)),
    runtimeStatuses: () => notifications.filter((n) => n.method === RuntimeStatusNotification.method).map((n) => n.params as RuntimeStatus),
    protocolViolations: () => violations,
    conformance: () => recordingConformance(transcript),
    nextNotification: async <P>(method: string, match: (params: P) => boolean = () => true, waitOptions: { readonly timeoutMs?: number; readonly includePast?: boolean } = {}) => {
      if (waitOptions.includePast === true) {
        const past = notifications.find((n) => n.method === method && match(n.params as P));
        if (past !== undefined) return past.params as P;
      }
      const next = await client.nextNotification(method as HostNotificationMethod, (params) => match(params as P), { timeoutMs: waitOptions.timeoutMs ?? 60_000 });
      if (E.isLeft(next)) throw new Error(next.left._tag === 'TimedOut' ? `no ${method} notification within the timeout` : next.left.message);
      return next.right as P;
    },
    stderr: () => executor.stderr(),
    lastSeq: () => client.lastSeq(),
    duplicates: () => duplicates,
    gaps: () => gaps,
    drop: async () => {
      if (options.transport !== 'websocket') throw new Error('only a WebSocket connection can be dropped');
      await client.drop();
    },
    reconnect: async (after = client.lastSeq()) => {
      if (options.transport !== 'websocket') throw new Error('only a WebSocket connection can reconnect');
      const resumed = await client.reconnect({ after });
      if (E.isLeft(resumed) && resumed.left._tag === 'ConnectError') throw new Error(resumed.left.message);
      return E.mapLeft((error: HostClientError) => requestError(error))(resumed as E.Either<HostClientError, HostResultOf<'events/subscribe'>>);
    },
    addSubscriber: (subscriber) => expectRight(client.addSubscriber(subscriber), 'events/subscribe'),
    removeSubscriber: (subscriber) => expectRight(client.removeSubscriber(subscriber), 'events/unsubscribe'),
    close: async () => {
      await executor.stop();
      rememberClosedHost(recordingConformance(transcript));
    },
  };
}
