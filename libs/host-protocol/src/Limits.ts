/**
 * The bounds the executor keeps against its hosts, the same for both transports (docs/host-protocol.md,
 * "Limits and abuse"): the executor enforces them, and a client keeps to them (a client that keeps its
 * requests in flight within the per-connection bounds is never answered `-32011` for them).
 *
 * Every value here is plain data.
 */

/** The documented bounds. */
export const HOST_LIMITS = {
  /** Largest message: one stdio line (without its newline) or one WebSocket frame. */
  maxMessageBytes: 8 * 1024 * 1024,
  /** Deepest nesting of arrays and objects in a message (the message object itself is level 1). */
  maxNestingDepth: 64,
  /**
   * Host requests in flight (received, not yet answered) on one connection. The real app-server
   * answers 128 concurrent requests and starts answering "overloaded" (or not at all) beyond; host
   * requests may each make several Codex requests, and turns make their own.
   */
  maxRequestsPerConnection: 32,
  /** Host requests in flight over all connections together. */
  maxRequestsInFlight: 64,
  /**
   * Requests that wait for a turn to end (minutes, or as long as a card waits for the user) are bounded
   * apart, so that waiting turns never keep a host from stopping them or asking anything else.
   */
  longRunningMethods: ['message/send', 'auth/recover', 'supervision/inspect'] as ReadonlyArray<string>,
  /**
   * Long-running host requests in flight on one connection. A `message/send` costs Codex one short
   * `turn/start` (and the next turn's requests) and then only notifications, so these do not fill
   * Codex's inbound queue (about 128 entries) the way short requests do; but they arrive in bursts.
   */
  maxLongRunningPerConnection: 64,
  /**
   * Long-running host requests in flight over all connections together: twice Codex's inbound queue,
   * so that even a burst of them all starting a turn at once stays well within what Codex answers.
   */
  maxLongRunningInFlight: 256,
  /** WebSocket connections open at once; an upgrade beyond it is refused with 503. */
  maxWebSocketConnections: 16,
  /** Output not yet taken by the host above which the executor stops reading from that host. */
  pauseReadingAboveBytes: 8 * 1024 * 1024,
  /** Output not yet taken by the host above which that host is disconnected. */
  disconnectAboveBytes: 64 * 1024 * 1024,
  /**
   * How long a host that ended its input (closed stdin) still gets the answers of its requests in
   * flight before the connection closes; requests still unanswered then are cut.
   */
  drainAfterInputEndMs: 5_000,
} as const;
