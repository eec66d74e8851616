/**
 * The budgets of host requests in flight that all connections of one executor share (one for short
 * requests, one for long-running ones), sized by the protocol's documented bounds (`HOST_LIMITS` of
 * `@wework/host-protocol`).
 *
 * Counters.
 */
import { HOST_LIMITS } from '@wework/host-protocol';

/** A count of host requests in flight shared by every connection of one executor. */
export interface HostRequestBudget {
  /** Whether one more request fits. */
  hasRoom(): boolean;
  /** Changes the count by `delta` (never below zero). */
  adjust(delta: number): void;
  inFlight(): number;
  /** The most requests it admits at once. */
  readonly limit: number;
}

/** A budget of `limit` requests in flight. */
export function hostRequestBudget(limit: number = HOST_LIMITS.maxRequestsInFlight): HostRequestBudget {
  let count = 0;
  return {
    hasRoom: () => count < limit,
    adjust: (delta) => void (count = Math.max(0, count + delta)),
    inFlight: () => count,
    limit,
  };
}
