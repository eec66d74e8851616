/**
 * When a host request that needs Codex runs, waits or is refused, as the app-server's `runtime/status`
 * says (docs/host-protocol.md, "Runtime supervision"). While the app-server is `restarting` (after a
 * crash) or `starting` (a planned restart) the request waits for `ready` and then runs, as a request sent
 * a moment later would; the wait is bounded in time (the pending backoff plus the start timeout, at most
 * `maxWaitMs`) and in count (at most `maxWaiting` requests wait at once, one more is refused). `failed`
 * and `stopped` refuse at once and for good; the bound passing refuses too, but retryably: the app-server
 * is still being started. A run that the app-server ended under before it answered (the request reached
 * no living process, `-32012` retryable) is run again after the same wait, up to `maxRuns` runs in all.
 *
 * Every function here is pure: a state, times and counts in, a decision out. The executor carries the
 * decisions out (it subscribes to the status, arms the timer and counts the waiting requests).
 */
import { HostErrorCode } from './ErrorCodes.js';
import type { RuntimeState } from './Services.js';

/** The numbers of the waiting rule. */
export interface RuntimeWaitConfig {
  /** The longest any request waits for `ready`, whatever the backoff. */
  readonly maxWaitMs: number;
  /** How long starting one app-server may take (its initialize timeout): added to the pending backoff. */
  readonly startTimeoutMs: number;
  /** How many requests may wait at once (over all connections); one more is refused at once. */
  readonly maxWaiting: number;
  /** How many times one request is run at most, the first included (a run the app-server ended under is run again). */
  readonly maxRuns: number;
}

/** The documented defaults: at most 30 s, a 30 s start timeout, 64 requests waiting, two runs. */
export const DEFAULT_RUNTIME_WAIT: RuntimeWaitConfig = {
  maxWaitMs: 30_000,
  startTimeoutMs: 30_000,
  maxWaiting: 64,
  maxRuns: 2,
};

/** Why a request that needs Codex is not run. */
export type RuntimeWaitRefusal =
  /** The app-server is in a crash loop and is not restarted any more (`failed`); not retryable. */
  | { readonly _tag: 'RuntimeFailed' }
  /** The executor is shutting down (`stopped`); not retryable. */
  | { readonly _tag: 'RuntimeStopped' }
  /** The request waited its whole bound and the app-server is still not ready; retryable. */
  | { readonly _tag: 'RuntimeWaitTimedOut'; readonly waitedMs: number }
  /** Too many requests wait already; retryable. */
  | { readonly _tag: 'TooManyWaiting'; readonly limit: number };

/** What to do with a request that needs Codex now. */
export type RuntimeWaitDecision =
  /** The app-server is ready: run the request. */
  | { readonly _tag: 'Run' }
  /** Wait until the state changes, or until `deadline` at the latest (then decide again). */
  | { readonly _tag: 'Wait'; readonly deadline: number }
  /** Answer the request with the refusal. */
  | { readonly _tag: 'Refuse'; readonly refusal: RuntimeWaitRefusal; readonly retryable: boolean };

/** Where a request stands when it is decided on. */
export interface RuntimeWaitInput {
  /** The app-server's state now; `ready` only while a process is there to take the request. */
  readonly state: RuntimeState;
  /** While `restarting`: the backoff before the next start (`retryInMs` of `runtime/status`). */
  readonly retryInMs: number | null;
  /** The time now, milliseconds. */
  readonly now: number;
  /** When the request began to wait, or null when it has not waited yet. */
  readonly waitingSince: number | null;
  /** The deadline of its wait, or null when it has not waited yet. */
  readonly deadline: number | null;
  /** How many other requests wait now. */
  readonly waiting: number;
}

/**
 * The bound of a wait that begins now: the pending backoff plus the start timeout, at most `maxWaitMs`
 * (never negative).
 *
 * @example
 * ```ts
 * import { DEFAULT_RUNTIME_WAIT, runtimeWaitBound } from '@wework/host-protocol';
 * runtimeWaitBound(DEFAULT_RUNTIME_WAIT, 500); // 30000
 * runtimeWaitBound({ ...DEFAULT_RUNTIME_WAIT, startTimeoutMs: 5_000 }, 500); // 5500
 * ```
 */
export function runtimeWaitBound(config: RuntimeWaitConfig, retryInMs: number | null): number {
  const backoff = retryInMs === null || !Number.isFinite(retryInMs) ? 0 : Math.max(0, retryInMs);
  return Math.max(0, Math.min(config.maxWaitMs, backoff + Math.max(0, config.startTimeoutMs)));
}

const refuse = (refusal: RuntimeWaitRefusal, retryable: boolean): RuntimeWaitDecision => ({ _tag: 'Refuse', refusal, retryable });

/**
 * Whether a request that needs Codex runs, waits or is refused. `ready` always runs; `failed` and
 * `stopped` always refuse (not retryable); `restarting` and `starting` wait — a request that has not
 * waited yet begins a wait bounded by {@link runtimeWaitBound} unless `maxWaiting` requests wait
 * already, and one that waits goes on until its deadline, then is refused (retryable).
 *
 * @example
 * ```ts
 * import { DEFAULT_RUNTIME_WAIT, decideRuntimeWait } from '@wework/host-protocol';
 * decideRuntimeWait(DEFAULT_RUNTIME_WAIT, { state: 'restarting', retryInMs: 500, now: 0, waitingSince: null, deadline: null, waiting: 0 });
 * // { _tag: 'Wait', deadline: 30000 }
 * decideRuntimeWait(DEFAULT_RUNTIME_WAIT, { state: 'ready', retryInMs: null, now: 900, waitingSince: 0, deadline: 30000, waiting: 0 });
 * // { _tag: 'Run' }
 * ```
 */
export function decideRuntimeWait(config: RuntimeWaitConfig, input: RuntimeWaitInput): RuntimeWaitDecision {
  switch (input.state) {
    case 'ready':
      return { _tag: 'Run' };
    case 'failed':
      return refuse({ _tag: 'RuntimeFailed' }, false);
    case 'stopped':
      return refuse({ _tag: 'RuntimeStopped' }, false);
    case 'restarting':
    case 'starting': {
      if (input.deadline === null) {
        if (input.waiting >= config.maxWaiting) return refuse({ _tag: 'TooManyWaiting', limit: config.maxWaiting }, true);
        const deadline = input.now + runtimeWaitBound(config, input.retryInMs);
        return deadline > input.now ? { _tag: 'Wait', deadline } : refuse({ _tag: 'RuntimeWaitTimedOut', waitedMs: 0 }, true);
      }
      if (input.now < input.deadline) return { _tag: 'Wait', deadline: input.deadline };
      return refuse({ _tag: 'RuntimeWaitTimedOut', waitedMs: Math.max(0, input.now - (input.waitingSince ?? input.now)) }, true);
    }
  }
}

/** What a run of the request answered, as far as the waiting rule cares. */
export interface RunOutcome {
  /** The wire code of its error reply, or null when it succeeded. */
  readonly code: number | null;
  /** `data.retryable` of its error reply, when given. */
  readonly retryable?: boolean | undefined;
}

/**
 * Whether the request is run again (after waiting for `ready` as before): only when its run was answered
 * `-32012` retryable (the app-server ended before it answered: nothing was done in Codex) and fewer than
 * `maxRuns` runs were made.
 *
 * @example
 * ```ts
 * import { DEFAULT_RUNTIME_WAIT, runAgain } from '@wework/host-protocol';
 * runAgain(DEFAULT_RUNTIME_WAIT, { code: -32012, retryable: true }, 1); // true
 * runAgain(DEFAULT_RUNTIME_WAIT, { code: -32012, retryable: true }, 2); // false
 * ```
 */
export function runAgain(config: RuntimeWaitConfig, outcome: RunOutcome, runs: number): boolean {
  return outcome.code === HostErrorCode.RuntimeUnavailable && outcome.retryable === true && runs < config.maxRuns;
}
