/**
 * The executor's bounds a host keeps to (docs/host-protocol.md, "Limits and abuse"), and the client's own
 * defaults. A client that keeps its requests in flight within the executor's per-connection bounds is
 * never answered `-32011` for them: it queues (boundedly) instead of sending.
 *
 * Every value here is plain data.
 */

/** Host requests in flight (sent, not yet answered) on one connection that the executor accepts; more are answered `-32011`. */
export const EXECUTOR_MAX_REQUESTS_IN_FLIGHT = 32;

/** Long-running host requests in flight on one connection that the executor accepts; they count apart from the others. */
export const EXECUTOR_MAX_LONG_RUNNING_IN_FLIGHT = 64;

/** The requests the executor bounds apart because they wait for a turn. */
export const LONG_RUNNING_METHODS: ReadonlyArray<string> = ['message/send', 'auth/recover', 'supervision/inspect'];

/** The largest message the executor takes (a stdio line without its newline, a WebSocket frame): 8 MiB. */
export const EXECUTOR_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** The client's defaults; every one can be changed in {@link HostClientOptions}. */
export const HOST_CLIENT_DEFAULTS = {
  /** Requests waiting for a free slot, over both classes together; one more is answered `Busy` at once. */
  maxQueued: 1024,
  /** How long a request (not a long-running one) may wait for its answer, queueing included: 10 minutes. */
  requestTimeoutMs: 10 * 60_000,
  /** How long a long-running request may wait: 25 hours (the executor's turn timeout is 24 hours). */
  longRunningTimeoutMs: 25 * 60 * 60_000,
  /** How long one connection attempt may take. */
  connectTimeoutMs: 30_000,
  /** The first reconnect waits this long; each further attempt doubles it. */
  reconnectMinDelayMs: 250,
  /** No reconnect waits longer. */
  reconnectMaxDelayMs: 5_000,
  /** Cards being answered at once; a further `card/show` is answered `-32011`. */
  maxCardsInFlight: 64,
  /** Waits of {@link HostClient.nextNotification} at once; one more is answered `Busy`. */
  maxWaiters: 1024,
  /** The longest text of an error reply kept (longer ones are cut). */
  maxErrorMessageChars: 2_000,
} as const;
