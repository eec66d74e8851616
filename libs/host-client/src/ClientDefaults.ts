/**
 * The client's own defaults. The executor's bounds a host keeps to are the protocol's `HOST_LIMITS`
 * (docs/host-protocol.md, "Limits and abuse"): a client that keeps its requests in flight within the
 * per-connection bounds is never answered `-32011` for them; it queues (boundedly) instead of sending.
 *
 * Every value here is plain data.
 */

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
