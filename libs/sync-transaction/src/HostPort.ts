/**
 * The port for what a transaction needs from the running process besides the disk: its identity,
 * whether another process is alive, a monotonic clock, waiting, and fresh identifiers.
 *
 * This module is pure: it declares the operations; `@wework/sync-transaction/node` implements them.
 */
import type * as T from 'fp-ts/lib/Task.js';

/** Who holds a lock: a process, told apart from a later process that reuses its id by its start time. */
export interface ProcessIdentity {
  readonly pid: number;
  /** When the process started (an opaque number from the host, e.g. clock ticks since boot); `null` when unknown. */
  readonly startTime: number | null;
}

/** The process-level operations of a transaction. */
export interface HostPort {
  /** The identity of this process. */
  readonly self: ProcessIdentity;
  /** Whether `owner` still runs: its pid is alive and, when both are known, its start time matches. */
  isAlive(owner: ProcessIdentity): T.Task<boolean>;
  /** Milliseconds from a monotonic clock. */
  now(): number;
  /** Waits `ms` milliseconds. */
  sleep(ms: number): T.Task<void>;
  /** A fresh identifier of `[a-z0-9]` characters, unique across processes in practice. */
  freshId(): string;
}
